// Movies with a title or an alias whose normalized form is $titleNorm (indexes on
// Movie.titleNorm and Alias.titleNorm), each with the name it was found by and how many
// viewers rated it (the best known of films sharing a name is the one meant).
MATCH (m:Movie {titleNorm: $titleNorm})
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, m.title AS name,
       m.titleNorm AS nameNorm, m.ratingCount AS ratingCount
LIMIT 25
UNION
MATCH (a:Alias {titleNorm: $titleNorm})-[:ALIAS_OF]->(m:Movie)
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, a.title AS name,
       a.titleNorm AS nameNorm, m.ratingCount AS ratingCount
LIMIT 25
