MATCH (m:Movie {movieId: $movieId})
RETURN m.ratingCount AS ratingCount, m.ratingAvg AS ratingAvg, m.likeCount AS likeCount
