UNWIND $rows AS r
MERGE (p:Person {name: r.name})
SET p.nameNorm = r.nameNorm
