CREATE INDEX FOR (n:Movie) ON (n.movieId)
