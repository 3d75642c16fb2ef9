UNWIND $rows AS r
MATCH (u:User {userId: r.userId})
MATCH (m:Movie {movieId: r.movieId})
MERGE (u)-[x:RATED]->(m)
SET x.rating = r.rating,
    x.timestamp = r.timestamp
