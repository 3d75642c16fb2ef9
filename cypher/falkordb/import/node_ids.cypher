// The nodes behind these internal ids: the bulk build checks the ids it assumed.
UNWIND $ids AS nodeId
MATCH (n)
WHERE id(n) = nodeId
RETURN id(n) AS node, n.movieId AS movieId, n.userId AS userId
