// Recommendations like the movies the user named ($movieIds): their precomputed SIMILAR
// neighbours, each neighbour scoring 1 / ($rankOffset + rank) per seed that keeps it (one seed:
// its rank order, see item_weights.by_movie in data_import/; several: the neighbours they share
// first). Never a named movie, nothing the session user rated, and only movies that satisfy
// every constraint (as in by_taste.cypher). `seeds`: [movieId, support] of each seed that
// keeps it, support = viewers who rated both >= 4. The seeds are matched alone first (with the
// filters on the neighbour in the same MATCH, FalkorDB plans a scan of every Movie).
OPTIONAL MATCH (u:User {userId: $userId})
WITH u
UNWIND $movieIds AS seedId
MATCH (m:Movie {movieId: seedId})
WITH u, m
MATCH (m)-[s:SIMILAR]->(o)
WITH u, m, s, o
WHERE NOT o.movieId IN $movieIds
  AND ($yearFrom IS NULL OR o.year >= $yearFrom)
  AND ($yearTo IS NULL OR o.year <= $yearTo)
  AND o.ratingCount >= $minCount
  AND ($maxCount IS NULL OR o.ratingCount < $maxCount)
  AND ($allowed IS NULL OR o.movieId IN $allowed)
WITH u, o, sum(1.0 / ($rankOffset + s.rank)) AS score,
     collect([m.movieId, s.support]) AS seeds
WHERE u IS NULL OR NOT (u)-[:RATED]->(o)
WITH o, score, seeds, [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres
WHERE all(x IN $genres WHERE x IN genres)
  AND ($anyGenres IS NULL OR any(x IN $anyGenres WHERE x IN genres))
  AND none(x IN $excludeGenres WHERE x IN genres)
RETURN o.movieId AS movieId, o.title AS title, o.year AS year, genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount, score, seeds
ORDER BY score DESC, movieId
LIMIT $limit
