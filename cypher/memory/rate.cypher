// Store the session user's rating of one movie (replacing an earlier one); returns the old one.
// The movie's ratingCount, ratingAvg and likeCount (ratings >= 4) follow at once, by the
// difference this rating makes (the next import recomputes them from every rating).
MATCH (m:Movie {movieId: $movieId})
MERGE (u:User {userId: $userId})
WITH u, m
OPTIONAL MATCH (u)-[old:RATED]->(m)
WITH u, m, old.rating AS previous
MERGE (u)-[r:RATED]->(m)
SET r.rating = $rating, r.timestamp = $timestamp
WITH m, r, previous, coalesce(m.ratingCount, 0) AS before, coalesce(m.ratingAvg, 0.0) AS avg
WITH m, r, previous, before + CASE WHEN previous IS NULL THEN 1 ELSE 0 END AS newCount,
     avg * before - coalesce(previous, 0.0) + $rating AS newTotal
SET m.ratingCount = newCount,
    m.ratingAvg = newTotal / newCount,
    m.likeCount = coalesce(m.likeCount, 0) + CASE WHEN $rating >= 4.0 THEN 1 ELSE 0 END
                  - CASE WHEN previous >= 4.0 THEN 1 ELSE 0 END
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, r.rating AS rating, previous
