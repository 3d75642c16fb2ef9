// Fuzzy name search; $query is built from words only (semantic_layer/resolve/fulltext.py).
CALL db.idx.fulltext.queryNodes('Person', $query) YIELD node, score
WITH node AS p, score
RETURN p.name AS name, p.nameNorm AS nameNorm,
       size([(p)-[:ACTED_IN]->(a:Movie) | a]) AS acted,
       size([(p)-[:DIRECTED]->(d:Movie) | d]) AS directed, score
ORDER BY score DESC, acted + directed DESC
LIMIT $limit
