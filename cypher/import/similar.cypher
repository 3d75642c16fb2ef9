UNWIND $rows AS r
MATCH (a:Movie {movieId: r.source})
MATCH (b:Movie {movieId: r.target})
CREATE (a)-[:SIMILAR {support: r.support, rank: r.rank}]->(b)
