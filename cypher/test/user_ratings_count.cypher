MATCH (u:User)-[r:RATED]->()
RETURN u.userId AS userId, count(r) AS ratings, sum(r.rating) AS total
ORDER BY userId
