MATCH (u:User)-[r:RATED]->(m:Movie)
RETURN u.userId AS userId, m.movieId AS movieId, r.rating AS rating
