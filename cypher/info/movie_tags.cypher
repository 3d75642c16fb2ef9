// The tags viewers gave a movie most often (case folded).
MATCH (:Movie {movieId: $movieId})<-[t:TAGGED]-(:User)
WITH toLower(t.tag) AS tag, count(*) AS uses
RETURN tag, uses
ORDER BY uses DESC, tag
LIMIT $limit
