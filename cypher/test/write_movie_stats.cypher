UNWIND $rows AS r
MATCH (m:Movie {movieId: r.movieId})
SET m.ratingCount = r.ratingCount, m.ratingAvg = r.ratingAvg, m.likeCount = r.likeCount
