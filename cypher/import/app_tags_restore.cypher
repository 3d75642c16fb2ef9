// Write back app users' tags read by import/app_tags (the movie must exist).
UNWIND $rows AS r
MATCH (u:User {userId: r.userId})
MATCH (m:Movie {movieId: r.movieId})
MERGE (u)-[t:TAGGED {tag: r.tag}]->(m)
SET t += r.properties
