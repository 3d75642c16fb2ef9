// Each node label with the property names its nodes carry (the graph schema, for MCP clients).
MATCH (n)
UNWIND labels(n) AS label
UNWIND keys(n) AS key
RETURN label, collect(DISTINCT key) AS properties
ORDER BY label
