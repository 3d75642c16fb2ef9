// Whether the graph has people at all (a generated release has no enrichment file).
MATCH (p:Person)
RETURN count(p) AS people
