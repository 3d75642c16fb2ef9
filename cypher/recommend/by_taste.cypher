// Personal recommendations inside the request's constraints. $seeds: [movieId, weight] pairs,
// the user's likes (weight > 0) and dislikes (weight < 0). A candidate's score is the sum over
// the seeds of weight * SIMILAR.score (a positive item-item weight, damped by popularity; 0 on
// the edges kept only for recommendations by movie, which are skipped), so a disliked movie
// takes from the movies like it; then damped again by likeCount ^ $damping.
// Only candidates with a positive score that satisfy every constraint: $yearFrom/$yearTo
// (null: open), $minCount/$maxCount (ratings; $maxCount null: open), $allowed (null, or the
// only movies allowed: the people's), every genre of $genres, one of $anyGenres (null: no
// such condition), none of $excludeGenres; never one the user rated.
// The genre checks run on the $topK best candidates only (what a filter before the sort would
// cost: about 10 microseconds a candidate, 50 ms for a heavy rater's 5,000 at ml-latest-small;
// the collect keeps FalkorDB from moving the filter below the LIMIT); when fewer than $limit
// of them pass, the caller fills from the pool of the constraints.
OPTIONAL MATCH (u:User {userId: $userId})
WITH u
UNWIND $seeds AS seed
MATCH (m:Movie {movieId: seed[0]})-[s:SIMILAR]->(o)
WHERE s.score > 0
WITH u, o, sum(seed[1] * s.score) AS score
WHERE score > 0
  AND ($yearFrom IS NULL OR o.year >= $yearFrom)
  AND ($yearTo IS NULL OR o.year <= $yearTo)
  AND o.ratingCount >= $minCount
  AND ($maxCount IS NULL OR o.ratingCount < $maxCount)
  AND ($allowed IS NULL OR o.movieId IN $allowed)
WITH u, o, score
WHERE u IS NULL OR NOT (u)-[:RATED]->(o)
WITH o, score * coalesce(o.likeCount, 1) ^ (0.0 - $damping) AS score
ORDER BY score DESC, o.ratingAvg DESC, o.movieId
LIMIT $topK
WITH collect([o, score]) AS top
UNWIND top AS pick
WITH pick[0] AS o, pick[1] AS score
WITH o, score, [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres
WHERE all(x IN $genres WHERE x IN genres)
  AND ($anyGenres IS NULL OR any(x IN $anyGenres WHERE x IN genres))
  AND none(x IN $excludeGenres WHERE x IN genres)
RETURN o.movieId AS movieId, o.title AS title, o.year AS year, genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount, o.likeCount AS likeCount, score
ORDER BY score DESC, ratingAvg DESC, movieId
LIMIT $limit
