// A person's films as actor (with billing order) and as director, each with its number of
// ratings: the caller lists the best known first.
// (Each pattern comprehension has its own variables: FalkorDB mixes up reused ones.)
MATCH (p:Person {name: $name})
RETURN p.name AS name,
       [(p)-[r:ACTED_IN]->(a:Movie) |
          {movieId: a.movieId, title: a.title, year: a.year, order: r.order,
           ratingAvg: a.ratingAvg, ratingCount: a.ratingCount}] AS acted,
       [(p)-[:DIRECTED]->(d:Movie) |
          {movieId: d.movieId, title: d.title, year: d.year, ratingAvg: d.ratingAvg,
           ratingCount: d.ratingCount}] AS directed
