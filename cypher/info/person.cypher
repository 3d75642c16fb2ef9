// A person's films as actor (with billing order) and as director.
MATCH (p:Person {name: $name})
RETURN p.name AS name,
       [(p)-[r:ACTED_IN]->(m:Movie) |
          {movieId: m.movieId, title: m.title, year: m.year, order: r.order,
           ratingAvg: m.ratingAvg}] AS acted,
       [(p)-[:DIRECTED]->(m:Movie) |
          {movieId: m.movieId, title: m.title, year: m.year, ratingAvg: m.ratingAvg}] AS directed
