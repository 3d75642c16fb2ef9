MATCH ()-[s:SIMILAR]->()
RETURN count(s) AS count
