MATCH (m:Movie)
RETURN m.movieId AS movieId, elementId(m) AS node
