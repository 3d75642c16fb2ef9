MATCH (:User {userId: $userId})-[r:RATED]->(:Movie)
RETURN count(r) AS count
