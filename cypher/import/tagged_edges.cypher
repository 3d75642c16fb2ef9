// Every TAGGED edge's tag and movie, for the derived Tag summary (data_import/tag_summary.py).
MATCH (:User)-[t:TAGGED]->(m:Movie)
RETURN t.tag AS tag, m.movieId AS movieId
