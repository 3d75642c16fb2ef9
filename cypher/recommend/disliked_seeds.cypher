// The session user's dislikes: movies rated <= 2, each weighing rating - 3 (2 -> -1,
// 0.5 -> -2.5); the $limit most disliked, then the most liked by everyone.
MATCH (:User {userId: $userId})-[r:RATED]->(m:Movie)
WHERE r.rating <= 2.0
WITH m, r.rating - 3.0 AS weight
ORDER BY weight, coalesce(m.likeCount, 0) DESC, m.movieId
LIMIT $limit
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, weight
