// The positive-score SIMILAR neighbours of the movies $movieIds (a batch of the in-memory
// copy's load): per movie, the neighbours' ids and the edges' scores, in the same order.
UNWIND $movieIds AS id
MATCH (m:Movie {movieId: id})-[s:SIMILAR]->(o:Movie)
WHERE s.score > 0
RETURN id AS movieId, collect(o.movieId) AS neighbours, collect(s.score) AS scores
