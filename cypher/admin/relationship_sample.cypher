// One relationship of type $type: the labels at its ends and its property names (the schema).
MATCH (a)-[r]->(b)
WHERE type(r) = $type
RETURN labels(a) AS fromLabels, labels(b) AS toLabels, keys(r) AS properties
LIMIT 1
