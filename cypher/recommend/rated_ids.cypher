// Every movie the session user rated, as one list (recommendations leave them out).
OPTIONAL MATCH (:User {userId: $userId})-[:RATED]->(m:Movie)
RETURN collect(m.movieId) AS movieIds
