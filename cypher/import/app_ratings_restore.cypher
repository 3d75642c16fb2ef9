// Write back app users' ratings read by import/app_ratings (the movie must exist).
UNWIND $rows AS r
MATCH (u:User {userId: r.userId})
MATCH (m:Movie {movieId: r.movieId})
MERGE (u)-[x:RATED]->(m)
SET x += r.properties
