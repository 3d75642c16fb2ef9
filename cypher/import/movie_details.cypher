UNWIND $rows AS r
MATCH (m:Movie {movieId: r.movieId})
SET m.imdbRating = r.imdbRating,
    m.released = r.released
