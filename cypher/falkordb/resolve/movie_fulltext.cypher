// Fuzzy search over titles and aliases (the full-text index holds Movie.title and
// Movie.aliasText); $query is built from words only (semantic_layer/resolve/fulltext.py).
CALL db.idx.fulltext.queryNodes('Movie', $query) YIELD node, score
RETURN node.movieId AS movieId, node.title AS title, node.year AS year,
       node.titleNorm AS titleNorm, node.aliasText AS aliasText,
       coalesce(node.ratingCount, 0) AS ratingCount, score
ORDER BY score DESC, ratingCount DESC
LIMIT $limit
