// The year of the graph's latest movie: where "recent" ends (semantic_layer/linking/years.py).
MATCH (m:Movie)
WHERE m.year IS NOT NULL
RETURN max(m.year) AS year
