// The most rated movies: the worst case for collaborative filtering.
MATCH (m:Movie)
WHERE m.ratingCount IS NOT NULL
RETURN m.title AS title, m.year AS year
ORDER BY m.ratingCount DESC, m.movieId
LIMIT $limit
