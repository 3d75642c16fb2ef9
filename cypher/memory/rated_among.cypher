// Which of the given movies the session user has rated.
MATCH (:User {userId: $userId})-[:RATED]->(m:Movie)
WHERE m.movieId IN $movieIds
RETURN m.movieId AS movieId
