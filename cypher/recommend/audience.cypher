// How many viewers the graph has: the popularity bands are shares of it.
MATCH (u:User)
RETURN count(u) AS users
