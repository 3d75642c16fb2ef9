// The app user bound to a signed-in person's account (see memory/new_user).
MATCH (u:User {account: $account})
RETURN u.userId AS userId
ORDER BY userId
LIMIT 1
