// The other names of a movie (a.k.a., original-language titles): one Alias node per lookup key.
UNWIND $rows AS r
MATCH (m:Movie {movieId: r.movieId})
MERGE (m)<-[:ALIAS_OF]-(a:Alias {titleNorm: r.titleNorm})
SET a.title = r.title
