UNWIND $rows AS r
MATCH (m:Movie {movieId: r.movieId})
UNWIND r.genres AS genre
MATCH (g:Genre {name: genre})
MERGE (m)-[:IN_GENRE]->(g)
