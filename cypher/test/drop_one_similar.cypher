// Remove one SIMILAR edge (a test: the in-memory neighbourhoods notice the change).
MATCH ()-[s:SIMILAR]->()
WITH s LIMIT 1
DELETE s
