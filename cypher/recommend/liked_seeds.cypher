// The session user's likes as seeds: movies rated >= 4, each weighing rating - 3 (4 -> 1,
// 5 -> 2); the $limit best rated, then the most liked by everyone (their neighbourhoods are the
// best measured; a cap keeps heavy raters fast).
MATCH (:User {userId: $userId})-[r:RATED]->(m:Movie)
WHERE r.rating >= 4.0
WITH m, r, r.rating - 3.0 AS weight
ORDER BY weight DESC, coalesce(m.likeCount, 0) DESC, m.movieId
LIMIT $limit
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, weight, r.timestamp AS timestamp
