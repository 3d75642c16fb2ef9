MATCH (m:Movie {movieId: $movieId})
OPTIONAL MATCH (m)-[:IN_GENRE]->(g:Genre)
WITH m, g ORDER BY g.name
WITH m, collect(g.name) AS genres
OPTIONAL MATCH (d:Person)-[:DIRECTED]->(m)
WITH m, genres, d ORDER BY d.name
RETURN m.title AS title, m.year AS year, m.originalTitle AS originalTitle,
       m.imdbRating AS imdbRating, genres, collect(d.name) AS directors
