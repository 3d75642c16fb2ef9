// Well-rated movies in a genre: damped mean rating
// (ratingCount * ratingAvg + $priorWeight * $priorMean) / (ratingCount + $priorWeight)
// over movies with at least $minRatings ratings, minus what the session user rated.
// The $pool best are ranked first, then the user's rated ones dropped (bounded work).
MATCH (:Genre {name: $genre})<-[:IN_GENRE]-(o:Movie)
WHERE o.ratingCount >= $minRatings
WITH o, (o.ratingCount * o.ratingAvg + $priorWeight * $priorMean)
        / (o.ratingCount + $priorWeight) AS score
ORDER BY score DESC, o.ratingCount DESC, o.movieId
LIMIT $pool
OPTIONAL MATCH (u:User {userId: $userId})
WITH o, score, u
WHERE u IS NULL OR NOT (u)-[:RATED]->(o)
RETURN o.movieId AS movieId, o.title AS title, o.year AS year,
       [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount, score
ORDER BY score DESC, o.ratingCount DESC, o.movieId
LIMIT $limit
