// What the user's seeds ([movieId, weight] pairs, likes > 0, dislikes < 0) say about the movies
// $movieIds: the summed weight * SIMILAR.score (negative when dislikes weigh more), and the
// liked seeds that add to it, strongest first (`because`: the first 3 titles; `seeds`: how
// many). Each seed is checked against each movie (Expand Into: a few hundred pairs), cheaper
// than expanding every seed's neighbourhood.
UNWIND $movieIds AS id
MATCH (o:Movie {movieId: id})
WITH collect(o) AS targets
UNWIND $seeds AS seed
MATCH (m:Movie {movieId: seed[0]})
WITH targets, m, seed[1] AS weight
UNWIND targets AS o
MATCH (m)-[s:SIMILAR]->(o)
WHERE s.score > 0
WITH o, m, weight * s.score AS part
ORDER BY part DESC, m.movieId
WITH o, sum(part) AS score, collect(CASE WHEN part > 0 THEN m.title END) AS liked
RETURN o.movieId AS movieId, score, size(liked) AS seeds, liked[..3] AS because
