// Well-rated movies in a genre: damped mean rating
// (ratingCount * ratingAvg + $priorWeight * $priorMean) / (ratingCount + $priorWeight)
// over movies with at least $minRatings ratings that the session user has not rated.
// The genre is matched alone first: with the movie filters in the same MATCH as the genre
// lookup, FalkorDB plans a scan of every Movie instead (about 20x slower at 25M ratings).
// The user's rated movies are dropped before ranking (one Expand Into per movie of the genre,
// cheap), so a heavy rater still gets $limit results.
MATCH (g:Genre {name: $genre})
OPTIONAL MATCH (u:User {userId: $userId})
WITH g, u
MATCH (g)<-[:IN_GENRE]-(o:Movie)
WHERE o.ratingCount >= $minRatings
  AND (u IS NULL OR NOT (u)-[:RATED]->(o))
WITH o, (o.ratingCount * o.ratingAvg + $priorWeight * $priorMean)
        / (o.ratingCount + $priorWeight) AS score
ORDER BY score DESC, o.ratingCount DESC, o.movieId
LIMIT $limit
RETURN o.movieId AS movieId, o.title AS title, o.year AS year,
       [(o)-[:IN_GENRE]->(og:Genre) | og.name] AS genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount, score
ORDER BY score DESC, ratingCount DESC, movieId
