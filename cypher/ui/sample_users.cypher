MATCH (u:User)
WHERE u.userId <= $maxUserId
RETURN u.userId AS userId
ORDER BY u.userId
LIMIT $limit
