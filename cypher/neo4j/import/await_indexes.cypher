// Wait until every index is online (fails after $timeoutSeconds).
CALL db.awaitIndexes($timeoutSeconds)
