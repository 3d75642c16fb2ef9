CREATE INDEX movie_title_norm IF NOT EXISTS FOR (n:Movie) ON (n.titleNorm)
