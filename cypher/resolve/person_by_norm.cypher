// People whose normalized name equals $nameNorm (index on Person.nameNorm).
MATCH (p:Person {nameNorm: $nameNorm})
RETURN p.name AS name, p.nameNorm AS nameNorm,
       size([(p)-[:ACTED_IN]->(m:Movie) | m]) AS acted,
       size([(p)-[:DIRECTED]->(m:Movie) | m]) AS directed
ORDER BY p.name
LIMIT 25
