MATCH (m:Movie)
RETURN count(m) AS count
