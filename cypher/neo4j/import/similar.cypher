UNWIND $rows AS r
MATCH (a:Movie) WHERE elementId(a) = r[0]
MATCH (b:Movie) WHERE elementId(b) = r[1]
CREATE (a)-[:SIMILAR {weight: r[2], score: r[3], support: r[4], rank: r[5]}]->(b)
