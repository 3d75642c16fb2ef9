// Personal recommendations: the session user's movies rated >= 4 (the $seeds best rated of them,
// then the most liked by everyone: their neighbourhoods are the best measured; a cap keeps heavy
// raters fast) each weigh rating - 3 (4 -> 1, 5 -> 2); a candidate's score is the sum over those
// seeds of weight * SIMILAR.score (a positive item-item weight, damped by popularity; 0 on the
// edges kept only for recommendations by movie, which are skipped). Everything the user rated is
// left out; optional genre. Then, for the $limit best only, `because`: the same seeds again, those
// that added to the score, strongest first (cheaper than collecting them for every candidate).
// SIMILAR only joins movies: no label check on `o` (a fifth of the cost of the expansion).
MATCH (u:User {userId: $userId})-[r:RATED]->(m:Movie)
WHERE r.rating >= 4.0
WITH u, m, r.rating - 3.0 AS weight
ORDER BY weight DESC, coalesce(m.likeCount, 0) DESC, m.movieId
LIMIT $seeds
MATCH (m)-[s:SIMILAR]->(o)
WHERE s.score > 0
WITH u, o, sum(weight * s.score) AS score
WHERE score > 0
WITH u, o, score
WHERE NOT (u)-[:RATED]->(o)
  AND ($genre IS NULL OR (o)-[:IN_GENRE]->(:Genre {name: $genre}))
WITH u, o, score
ORDER BY score DESC, o.ratingAvg DESC, o.movieId
LIMIT $limit
WITH u, collect([o, score]) AS top
MATCH (u)-[r:RATED]->(m:Movie)
WHERE r.rating >= 4.0
WITH top, m, r.rating - 3.0 AS weight
ORDER BY weight DESC, coalesce(m.likeCount, 0) DESC, m.movieId
LIMIT $seeds
UNWIND top AS pick
WITH pick[0] AS o, pick[1] AS score, m, weight
MATCH (m)-[s:SIMILAR]->(o)
WITH o, score, m, weight * s.score AS part
WHERE part > 0
WITH o, score, m ORDER BY part DESC
WITH o, score, collect(m.title) AS because
RETURN o.movieId AS movieId, o.title AS title, o.year AS year,
       [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount,
       score, size(because) AS seeds, because[..3] AS because
ORDER BY score DESC, ratingAvg DESC, movieId
