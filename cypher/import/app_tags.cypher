// The tags of the users the app created (ids from $firstId up), kept across a rebuild.
MATCH (u:User)-[t:TAGGED]->(m:Movie)
WHERE u.userId >= $firstId
RETURN u.userId AS userId, m.movieId AS movieId, m.title AS title, t.tag AS tag,
       properties(t) AS properties
ORDER BY userId, movieId, tag
