CREATE INDEX movie_year IF NOT EXISTS FOR (n:Movie) ON (n.year)
