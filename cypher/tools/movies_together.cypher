// ---
// name: movies_together
// description: >
//   Only when the user names two people and asks what they made together: the movies both
//   worked on (acting or directing), newest first. For one person's films use film_facts.
// params:
//   first_person:
//     type: person
//     description: The first of the two people the user named.
//   second_person:
//     type: person
//     description: The second person the user named; never one they did not name.
// ---
MATCH (a:Person {name: $first_person})-[ra:ACTED_IN|DIRECTED]->(m:Movie)
      <-[rb:ACTED_IN|DIRECTED]-(b:Person {name: $second_person})
WHERE a <> b
WITH m, collect(DISTINCT type(ra)) AS firstRoles, collect(DISTINCT type(rb)) AS secondRoles
RETURN m.title AS title, m.year AS year, firstRoles, secondRoles,
       round(m.ratingAvg * 100) / 100.0 AS ratingAvg
ORDER BY m.year DESC, m.title
