// The session user's rating of one movie (no row when they have not rated it).
MATCH (:User {userId: $userId})-[r:RATED]->(:Movie {movieId: $movieId})
RETURN r.rating AS rating
LIMIT 1
