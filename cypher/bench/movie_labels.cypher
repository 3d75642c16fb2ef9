// Title and year of the given movies (rec_quality: the anchor movie passed to the recommender).
UNWIND $movieIds AS id
MATCH (m:Movie {movieId: id})
RETURN m.movieId AS movieId, m.title AS title, m.year AS year
