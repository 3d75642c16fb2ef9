// The session user's taste as seeds, in one round trip: their likes (rated >= 4, weight
// rating - 3: 4 -> 1, 5 -> 2; the $likes best rated, then the most liked by everyone: their
// neighbourhoods are the best measured, and a cap keeps heavy raters fast), then their
// dislikes (rated <= 2, weight rating - 3: 2 -> -1, 0.5 -> -2.5; the $dislikes most disliked).
MATCH (:User {userId: $userId})-[r:RATED]->(m:Movie)
WHERE r.rating >= 4.0
WITH m, r, r.rating - 3.0 AS weight
ORDER BY weight DESC, coalesce(m.likeCount, 0) DESC, m.movieId
LIMIT $likes
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, weight, r.timestamp AS timestamp
UNION ALL
MATCH (:User {userId: $userId})-[r:RATED]->(m:Movie)
WHERE r.rating <= 2.0
WITH m, r, r.rating - 3.0 AS weight
ORDER BY weight, coalesce(m.likeCount, 0) DESC, m.movieId
LIMIT $dislikes
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, weight, r.timestamp AS timestamp
