// Write back the users the app created, with the properties read by import/app_users.
UNWIND $rows AS r
MERGE (u:User {userId: r.userId})
SET u += r.properties
