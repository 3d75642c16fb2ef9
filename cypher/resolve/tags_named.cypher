// Which of the given names are tags viewers gave movies at least $uses times in all (a Tag's
// name is trimmed and lower case): the tags a text names (semantic_layer/linking/tags.py).
UNWIND $names AS name
MATCH (t:Tag {name: name})-[s:TAGS]->(:Movie)
WITH t.name AS name, sum(s.count) AS uses
WHERE uses >= $uses
RETURN name
