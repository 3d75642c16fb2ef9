UNWIND $rows AS r
MATCH (p:Person {name: r.name})
MATCH (m:Movie {movieId: r.movieId})
MERGE (p)-[:DIRECTED]->(m)
