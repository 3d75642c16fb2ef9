CREATE FULLTEXT INDEX movie_titles IF NOT EXISTS FOR (n:Movie) ON EACH [n.title, n.aliasText]
