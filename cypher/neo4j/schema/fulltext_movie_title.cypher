CREATE FULLTEXT INDEX movie_title IF NOT EXISTS FOR (n:Movie) ON EACH [n.title]
