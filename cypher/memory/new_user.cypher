// A fresh user id above every MovieLens id: one more than the highest id in the reserved range
// starting at $firstId, created in the same query (FalkorDB runs writes one at a time; Neo4j's
// uniqueness constraint on User.userId turns a race into an error that is retried).
OPTIONAL MATCH (u:User)
WHERE u.userId >= $firstId
WITH coalesce(max(u.userId), $firstId - 1) + 1 AS userId
CREATE (n:User {userId: userId, createdAt: $createdAt})
RETURN n.userId AS userId
