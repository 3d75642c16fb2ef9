// Movies with a title or an alias whose normalized form is $titleNorm (indexes on
// Movie.titleNorm and Alias.titleNorm), each with the name it was found by.
MATCH (m:Movie {titleNorm: $titleNorm})
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, m.title AS name,
       m.titleNorm AS nameNorm
LIMIT 25
UNION
MATCH (a:Alias {titleNorm: $titleNorm})-[:ALIAS_OF]->(m:Movie)
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, a.title AS name,
       a.titleNorm AS nameNorm
LIMIT 25
