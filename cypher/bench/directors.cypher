// People who directed the most movies.
MATCH (p:Person)-[:DIRECTED]->(m:Movie)
WITH p, count(m) AS films
RETURN p.name AS name
ORDER BY films DESC, name
LIMIT $limit
