// Well-rated movies among $allowed (the movies of the people the user named), inside the request's
// constraints (as in by_taste.cypher): the damped mean rating
// (ratingCount * ratingAvg + $priorWeight * $priorMean) / (ratingCount + $priorWeight)
// over movies with at least $minCount ratings that the session user has not rated (dropped
// before ranking, so a heavy rater still gets $limit results). The genre checks run on the
// $topK best only (about 10 microseconds a movie: 40 ms for all of Drama); when fewer than
// $limit pass, the caller asks again with no such cut.
UNWIND $allowed AS movieId
MATCH (o:Movie {movieId: movieId})
WHERE ($yearFrom IS NULL OR o.year >= $yearFrom)
  AND ($yearTo IS NULL OR o.year <= $yearTo)
  AND o.ratingCount >= $minCount
  AND ($maxCount IS NULL OR o.ratingCount < $maxCount)
  AND ($allowed IS NULL OR o.movieId IN $allowed)
OPTIONAL MATCH (u:User {userId: $userId})
WITH o, u
WHERE u IS NULL OR NOT (u)-[:RATED]->(o)
WITH o, (o.ratingCount * o.ratingAvg + $priorWeight * $priorMean)
        / (o.ratingCount + $priorWeight) AS score
ORDER BY score DESC, o.ratingCount DESC, o.movieId
LIMIT $topK
WITH collect([o, score]) AS top
UNWIND top AS pick
WITH pick[0] AS o, pick[1] AS score
WITH o, score, [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres
WHERE all(x IN $genres WHERE x IN genres)
  AND ($anyGenres IS NULL OR any(x IN $anyGenres WHERE x IN genres))
  AND none(x IN $excludeGenres WHERE x IN genres)
RETURN o.movieId AS movieId, o.title AS title, o.year AS year, genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount, score
ORDER BY score DESC, ratingCount DESC, movieId
LIMIT $limit
