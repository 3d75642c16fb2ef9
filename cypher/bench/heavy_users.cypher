// Users with the most ratings: the worst case for personal recommendations.
MATCH (u:User)-[r:RATED]->()
WITH u, count(r) AS ratings
RETURN u.userId AS userId
ORDER BY ratings DESC, userId
LIMIT $limit
