CREATE INDEX FOR (n:User) ON (n.userId)
