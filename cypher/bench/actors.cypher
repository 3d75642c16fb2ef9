// People who acted in the most movies.
MATCH (p:Person)-[:ACTED_IN]->(m:Movie)
WITH p, count(m) AS films
RETURN p.name AS name
ORDER BY films DESC, name
LIMIT $limit
