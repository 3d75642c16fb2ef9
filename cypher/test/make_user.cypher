// Tests: a user with any id (as earlier versions let `--user-id` create), bound to $account.
CREATE (u:User {userId: $userId})
SET u.account = $account
RETURN u.userId AS userId
