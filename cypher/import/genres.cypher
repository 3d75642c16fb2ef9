UNWIND $rows AS name
MERGE (:Genre {name: name})
