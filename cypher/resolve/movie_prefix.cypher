// Movies whose normalized title starts with $prefix (the index on Movie.titleNorm), the most
// rated first: completion of a title as it is typed (semantic_layer/linking/complete.py).
MATCH (m:Movie)
WHERE m.titleNorm STARTS WITH $prefix
RETURN m.title AS title, m.year AS year, coalesce(m.ratingCount, 0) AS ratingCount
ORDER BY ratingCount DESC, title
LIMIT $limit
