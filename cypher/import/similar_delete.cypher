MATCH (:Movie)-[s:SIMILAR]->(:Movie)
DELETE s
