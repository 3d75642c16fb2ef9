UNWIND $rows AS r
MATCH (u:User {userId: r.userId})
MATCH (m:Movie {movieId: r.movieId})
MERGE (u)-[t:TAGGED {tag: r.tag}]->(m)
SET t.timestamp = r.timestamp
