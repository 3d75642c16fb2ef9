// People whose normalized name starts with $prefix (the index on Person.nameNorm), those with
// the most films first: completion of a name as it is typed (semantic_layer/linking/complete.py).
MATCH (p:Person)
WHERE p.nameNorm STARTS WITH $prefix
WITH p, size([(p)-[:ACTED_IN|DIRECTED]->(m:Movie) | m]) AS films
RETURN p.name AS name, films
ORDER BY films DESC, name
LIMIT $limit
