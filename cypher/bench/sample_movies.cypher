// Every $step-th movie by id: a spread of popular and obscure titles.
MATCH (m:Movie)
WHERE m.movieId % $step = 0
RETURN m.title AS title, m.year AS year
ORDER BY m.movieId
LIMIT $limit
