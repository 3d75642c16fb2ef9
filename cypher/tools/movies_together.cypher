// ---
// name: movies_together
// description: >
//   Movies two people made together: both acted in it, or one directed and the other acted,
//   or both directed. Newest first.
// params:
//   first_person:
//     type: person
//     description: One person's name, e.g. "Robert De Niro".
//   second_person:
//     type: person
//     description: The other person's name, e.g. "Martin Scorsese".
// ---
MATCH (a:Person {name: $first_person})-[ra:ACTED_IN|DIRECTED]->(m:Movie)
      <-[rb:ACTED_IN|DIRECTED]-(b:Person {name: $second_person})
WHERE a <> b
WITH m, collect(DISTINCT type(ra)) AS firstRoles, collect(DISTINCT type(rb)) AS secondRoles
RETURN m.title AS title, m.year AS year, firstRoles, secondRoles,
       round(m.ratingAvg * 100) / 100.0 AS ratingAvg
ORDER BY m.year DESC, m.title
