MATCH (a:Alias)-[:ALIAS_OF]->(m:Movie)
RETURN m.movieId AS movieId, a.title AS title, a.titleNorm AS titleNorm
ORDER BY movieId, titleNorm
