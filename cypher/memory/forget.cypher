// Remove the session user's rating of one movie.
MATCH (:User {userId: $userId})-[r:RATED]->(m:Movie {movieId: $movieId})
DELETE r
RETURN m.title AS title, m.year AS year
