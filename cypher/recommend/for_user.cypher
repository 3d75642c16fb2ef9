// Personal recommendations: SIMILAR neighbours of the session user's movies rated >= 4
// (the $seeds best and most recent of them, to stay fast for heavy raters), support summed,
// minus everything the user rated; optional genre.
MATCH (u:User {userId: $userId})-[r:RATED]->(m:Movie)
WHERE r.rating >= 4.0
WITH u, m ORDER BY r.rating DESC, r.timestamp DESC
LIMIT $seeds
MATCH (m)-[s:SIMILAR]->(o:Movie)
WHERE NOT (u)-[:RATED]->(o)
  AND ($genre IS NULL OR (o)-[:IN_GENRE]->(:Genre {name: $genre}))
WITH o, sum(s.support) AS support, count(m) AS seeds, collect(m.title) AS because
RETURN o.movieId AS movieId, o.title AS title, o.year AS year,
       [(o)-[:IN_GENRE]->(g:Genre) | g.name] AS genres,
       o.ratingAvg AS ratingAvg, o.ratingCount AS ratingCount,
       toInteger(support) AS support, seeds, because[..3] AS because
ORDER BY support DESC, o.ratingAvg DESC, o.movieId
LIMIT $limit
