// The uniqueness constraints of the graph (created with GRAPH.CONSTRAINT by ensure_schema).
CALL db.constraints() YIELD label, properties
RETURN label, properties
