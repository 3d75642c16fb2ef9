// The ratings of the users the app created (ids from $firstId up), kept across a rebuild.
MATCH (u:User)-[r:RATED]->(m:Movie)
WHERE u.userId >= $firstId
RETURN u.userId AS userId, m.movieId AS movieId, m.title AS title, properties(r) AS properties
ORDER BY userId, movieId
