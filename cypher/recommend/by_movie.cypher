// Collaborative filtering by movie: its precomputed SIMILAR neighbours in rank order (the share
// of the movie's fans who liked each, smoothed, plus what liking the movie adds to it: see
// item_weights.by_movie in data_import/); never the movie itself, minus what the session user
// rated; optional genre. `support`: viewers who rated both >= 4.
OPTIONAL MATCH (u:User {userId: $userId})
WITH u
MATCH (m:Movie {movieId: $movieId})-[s:SIMILAR]->(o:Movie)
WHERE o <> m
  AND (u IS NULL OR NOT (u)-[:RATED]->(o))
  AND ($genre IS NULL OR (o)-[:IN_GENRE]->(:Genre {name: $genre}))
RETURN o.movieId AS movieId, o.title AS title, o.year AS year,
       [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount,
       s.support AS support, s.score AS score, s.rank AS rank
ORDER BY s.rank
LIMIT $limit
