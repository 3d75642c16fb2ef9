// A person by exact name (index on Person.name), with how many films they acted in and directed.
MATCH (p:Person {name: $name})
RETURN p.name AS name, p.nameNorm AS nameNorm,
       size([(p)-[:ACTED_IN]->(a:Movie) | a]) AS acted,
       size([(p)-[:DIRECTED]->(d:Movie) | d]) AS directed
