UNWIND $rows AS r
MATCH (a:Movie) WHERE id(a) = r[0]
MATCH (b:Movie) WHERE id(b) = r[1]
CREATE (a)-[:SIMILAR {support: r[2], rank: r[3]}]->(b)
