CALL db.indexes() YIELD label, status
RETURN label, status
