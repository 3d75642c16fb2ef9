// Every movie with what the in-memory neighbourhoods filter and order by: year and genres
// (written by the import only) and the rating statistics as they are now (the app's ratings
// change them; the final pick re-reads them, see taste_picks.cypher).
MATCH (m:Movie)
RETURN m.movieId AS movieId, m.year AS year, [(m)-[:IN_GENRE]->(g:Genre) | g.name] AS genres,
       m.ratingAvg AS ratingAvg, m.ratingCount AS ratingCount, m.likeCount AS likeCount
