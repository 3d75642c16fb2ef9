// Store the session user's rating of one movie (replacing an earlier one); returns the old one.
MATCH (m:Movie {movieId: $movieId})
MERGE (u:User {userId: $userId})
WITH u, m
OPTIONAL MATCH (u)-[old:RATED]->(m)
WITH u, m, old.rating AS previous
MERGE (u)-[r:RATED]->(m)
SET r.rating = $rating, r.timestamp = $timestamp
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, r.rating AS rating, previous
