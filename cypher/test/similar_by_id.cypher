MATCH (m:Movie {movieId: $movieId})-[s:SIMILAR]->(o:Movie)
RETURN o.movieId AS movieId, s.weight AS weight, s.score AS score, s.support AS support, s.rank AS rank
ORDER BY rank
