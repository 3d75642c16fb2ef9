UNWIND $rows AS r
MATCH (a:Movie) WHERE elementId(a) = r[0]
MATCH (b:Movie) WHERE elementId(b) = r[1]
CREATE (a)-[:SIMILAR {support: r[2], rank: r[3]}]->(b)
