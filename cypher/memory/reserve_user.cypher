// Reserve user $userId for $holder (who the operator gave it to, e.g. 'mcp-token'): the node is
// made when absent, so the allocator (memory/new_user) never hands the id to anyone else, and it
// is an app user like any other, so an import keeps it. An existing node keeps its account.
MERGE (u:User {userId: $userId})
ON CREATE SET u.createdAt = $createdAt
SET u.reservedFor = coalesce(u.reservedFor, $holder)
RETURN u.userId AS userId, u.account AS account, u.reservedFor AS reservedFor
