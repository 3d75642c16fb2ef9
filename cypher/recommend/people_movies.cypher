// The movies every one of $people worked on (acting or directing), with each person's role:
// `roles` is a list of [name, relationship type].
UNWIND $people AS name
MATCH (:Person {name: name})-[r:DIRECTED|ACTED_IN]->(o:Movie)
WITH o, name, collect(DISTINCT type(r)) AS types
WITH o, collect([name, CASE WHEN "DIRECTED" IN types THEN "DIRECTED" ELSE "ACTED_IN" END])
     AS roles
WHERE size(roles) = size($people)
RETURN o.movieId AS movieId, roles
