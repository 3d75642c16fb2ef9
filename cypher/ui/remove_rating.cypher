MATCH (:User {userId: $userId})-[r:RATED]->(:Movie {movieId: $movieId})
DELETE r
RETURN count(*) AS removed
