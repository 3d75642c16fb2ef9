// Personal recommendations scored in memory (`semantic_layer.recommend.neighbours`): $picks
// are [movieId, score] pairs, score = the sum over the user's seeds of weight * SIMILAR.score,
// as by_taste.cypher computes it, for the best candidates only. Here every constraint is
// checked again on the movies as they are now (as in by_taste.cypher), never one the user
// rated, and the score is damped by likeCount ^ $damping with the current likeCount.
OPTIONAL MATCH (u:User {userId: $userId})
WITH u
UNWIND $picks AS pick
MATCH (o:Movie {movieId: pick[0]})
WITH u, o, pick[1] AS score
WHERE ($yearFrom IS NULL OR o.year >= $yearFrom)
  AND ($yearTo IS NULL OR o.year <= $yearTo)
  AND o.ratingCount >= $minCount
  AND ($maxCount IS NULL OR o.ratingCount < $maxCount)
  AND ($allowed IS NULL OR o.movieId IN $allowed)
  AND (u IS NULL OR NOT (u)-[:RATED]->(o))
WITH o, score * coalesce(o.likeCount, 1) ^ (0.0 - $damping) AS score,
     [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres
WHERE all(x IN $genres WHERE x IN genres)
  AND ($anyGenres IS NULL OR any(x IN $anyGenres WHERE x IN genres))
  AND none(x IN $excludeGenres WHERE x IN genres)
RETURN o.movieId AS movieId, o.title AS title, o.year AS year, genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount, o.likeCount AS likeCount, score
ORDER BY score DESC, ratingAvg DESC, movieId
LIMIT $limit
