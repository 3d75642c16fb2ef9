OPTIONAL MATCH (u:User)
WITH coalesce(max(u.userId), 0) + 1 AS next
WITH CASE WHEN next > $floor THEN next ELSE $floor END AS id
CREATE (n:User {userId: id})
RETURN n.userId AS userId
