MATCH (:User {userId: $userId})-[r:RATED]->(m:Movie)
RETURN m.movieId AS movieId, m.title AS title, m.year AS year,
       r.rating AS rating, r.timestamp AS timestamp
ORDER BY r.timestamp DESC, m.title
LIMIT $limit
