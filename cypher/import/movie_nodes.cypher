MATCH (m:Movie)
RETURN m.movieId AS movieId, id(m) AS node
