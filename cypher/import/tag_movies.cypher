// The derived Tag summary: rows {name, movieId, count} (data_import/tag_summary.py).
UNWIND $rows AS r
MATCH (m:Movie {movieId: r.movieId})
MERGE (t:Tag {name: r.name})
MERGE (t)-[s:TAGS]->(m)
SET s.count = r.count
