// The movies a user rated (the constraint benchmark checks none is recommended).
MATCH (:User {userId: $userId})-[:RATED]->(m:Movie)
RETURN m.movieId AS movieId
