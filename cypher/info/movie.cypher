// A movie's facts: its other names, genres, directors, cast (with billing order), ratings, and
// the session user's own rating if any.
MATCH (m:Movie {movieId: $movieId})
OPTIONAL MATCH (u:User {userId: $userId})-[mine:RATED]->(m)
RETURN m.movieId AS movieId, m.title AS title, m.year AS year, m.released AS released,
       m.imdbId AS imdbId, m.tmdbId AS tmdbId, m.imdbRating AS imdbRating,
       m.ratingAvg AS ratingAvg, m.ratingCount AS ratingCount,
       [(alias:Alias)-[:ALIAS_OF]->(m) | alias.title] AS aliases,
       [(m)-[:IN_GENRE]->(g:Genre) | g.name] AS genres,
       [(d:Person)-[:DIRECTED]->(m) | d.name] AS directors,
       [(a:Person)-[r:ACTED_IN]->(m) | {name: a.name, order: r.order}] AS cast,
       mine.rating AS yourRating
