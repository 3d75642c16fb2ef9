// Well-rated movies in a genre: damped mean rating
// (ratingCount * ratingAvg + $priorWeight * $priorMean) / (ratingCount + $priorWeight)
// over movies with at least $minRatings ratings, minus what the session user rated.
OPTIONAL MATCH (u:User {userId: $userId})
WITH u
MATCH (:Genre {name: $genre})<-[:IN_GENRE]-(o:Movie)
WHERE o.ratingCount >= $minRatings
  AND (u IS NULL OR NOT (u)-[:RATED]->(o))
WITH o, (o.ratingCount * o.ratingAvg + $priorWeight * $priorMean)
        / (o.ratingCount + $priorWeight) AS score
RETURN o.movieId AS movieId, o.title AS title, o.year AS year,
       [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount, score
ORDER BY score DESC, o.ratingCount DESC, o.movieId
LIMIT $limit
