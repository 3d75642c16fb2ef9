// People whose normalized name equals $nameNorm (index on Person.nameNorm).
MATCH (p:Person {nameNorm: $nameNorm})
RETURN p.name AS name, p.nameNorm AS nameNorm,
       size([(p)-[:ACTED_IN]->(a:Movie) | a]) AS acted,
       size([(p)-[:DIRECTED]->(d:Movie) | d]) AS directed
ORDER BY p.name
LIMIT 25
