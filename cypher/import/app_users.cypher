// Users the app created (ids from $firstId up) with all their properties, kept across a rebuild.
MATCH (u:User)
WHERE u.userId >= $firstId
RETURN u.userId AS userId, properties(u) AS properties
ORDER BY userId
