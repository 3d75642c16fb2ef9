UNWIND $rows AS r
MATCH (a:Movie {movieId: r.a})
MATCH (b:Movie {movieId: r.b})
CREATE (a)-[:SIMILAR {support: r.support, rank: r.rank}]->(b)
