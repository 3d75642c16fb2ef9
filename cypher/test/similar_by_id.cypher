MATCH (m:Movie {movieId: $movieId})-[s:SIMILAR]->(o:Movie)
RETURN o.movieId AS movieId, s.support AS support, s.rank AS rank
ORDER BY rank
