// Movies whose normalized title equals $titleNorm (index on Movie.titleNorm).
MATCH (m:Movie {titleNorm: $titleNorm})
RETURN m.movieId AS movieId, m.title AS title, m.year AS year,
       m.titleNorm AS titleNorm, coalesce(m.ratingCount, 0) AS ratingCount
ORDER BY m.year, m.movieId
LIMIT 25
