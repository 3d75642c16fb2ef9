// A movie's aliases that its title no longer gives (a release renamed it) are deleted.
UNWIND $rows AS r
MATCH (:Movie {movieId: r.movieId})<-[:ALIAS_OF]-(a:Alias)
WHERE NOT a.titleNorm IN r.keep
DETACH DELETE a
