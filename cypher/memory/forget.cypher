// Remove the session user's rating of one movie; the movie's ratingCount, ratingAvg (absent
// once no rating is left) and likeCount (ratings >= 4) follow at once.
MATCH (:User {userId: $userId})-[r:RATED]->(m:Movie {movieId: $movieId})
WITH m, r, r.rating AS rating, coalesce(m.ratingCount, 1) AS before,
     coalesce(m.ratingAvg, 0.0) AS avg
DELETE r
WITH m, rating, CASE WHEN before > 1 THEN before - 1 ELSE 0 END AS newCount,
     avg * before - rating AS newTotal
SET m.ratingCount = newCount,
    m.ratingAvg = CASE WHEN newCount > 0 THEN newTotal / newCount END,
    m.likeCount = CASE WHEN coalesce(m.likeCount, 0) > 0 AND rating >= 4.0
                       THEN m.likeCount - 1 ELSE coalesce(m.likeCount, 0) END
RETURN m.title AS title, m.year AS year
