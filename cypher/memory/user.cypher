// One user by id: whether it exists, and the account it is bound to (null when none).
MATCH (u:User {userId: $userId})
RETURN u.userId AS userId, u.account AS account
LIMIT 1
