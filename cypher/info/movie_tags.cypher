// The tags viewers gave a movie most often (case folded: the derived Tag summary).
MATCH (:Movie {movieId: $movieId})<-[s:TAGS]-(t:Tag)
RETURN t.name AS tag, s.count AS uses
ORDER BY uses DESC, tag
LIMIT $limit
