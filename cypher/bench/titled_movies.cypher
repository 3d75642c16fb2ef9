// Movies rated at least $minRatings times, with the title string as MovieLens wrote it.
MATCH (m:Movie)
WHERE coalesce(m.ratingCount, 0) >= $minRatings
RETURN m.movieId AS movieId, m.originalTitle AS originalTitle, m.ratingCount AS ratingCount
ORDER BY m.movieId
