// Every $step-th user by id: a spread of light and heavy raters.
MATCH (u:User)
WHERE u.userId % $step = 0
RETURN u.userId AS userId
ORDER BY userId
LIMIT $limit
