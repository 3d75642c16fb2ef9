// Every index with its build state: OPERATIONAL, or "[Indexing] n/N: UNDER CONSTRUCTION".
// FalkorDB only; Neo4j waits with import/await_indexes instead.
CALL db.indexes() YIELD label, properties, status
RETURN label, properties, status
