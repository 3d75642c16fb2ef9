UNWIND $rows AS r
MERGE (m:Movie {movieId: r.movieId})
SET m.title = r.title,
    m.year = r.year,
    m.originalTitle = r.originalTitle,
    m.titleNorm = r.titleNorm,
    m.aliasText = r.aliasText,
    m.imdbId = r.imdbId,
    m.tmdbId = r.tmdbId
