// A fresh user id in the guests' range [$firstId, $lastId]: one more than the highest id inside
// that range (ids outside it, such as a stray 2^63-1, are never looked at, so the next id can
// neither overflow nor collide), created in the same query. No row when the range is full, or
// when $account (a signed-in person; null for a guest) is already bound to a user.
// FalkorDB runs writes one at a time; on Neo4j the uniqueness constraints on User.userId and
// User.account turn a race into an error that is retried.
OPTIONAL MATCH (known:User {account: $account})
WITH count(known) AS bound
WHERE bound = 0
OPTIONAL MATCH (u:User)
WHERE u.userId >= $firstId AND u.userId <= $lastId
WITH coalesce(max(u.userId), $firstId - 1) + 1 AS userId
WHERE userId <= $lastId
CREATE (n:User {userId: userId, createdAt: $createdAt})
SET n.account = $account
RETURN n.userId AS userId
