UNWIND $rows AS id
MERGE (:User {userId: id})
