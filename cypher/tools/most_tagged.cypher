// ---
// name: most_tagged
// description: >
//   Only when the user asks for the movies viewers tagged with a word or phrase they name
//   ("movies tagged ..."); case does not matter. For movies of a genre use recommender.
// params:
//   tag:
//     type: tag
//     description: The tag the user names, in their words.
//   limit:
//     type: integer
//     description: How many movies to list.
//     default: 10
//     min: 1
//     max: 50
// ---
MATCH (:Tag {name: toLower(trim($tag))})-[s:TAGS]->(m:Movie)
WITH m, s.count AS uses
RETURN m.title AS title, m.year AS year, uses, round(m.ratingAvg * 100) / 100.0 AS ratingAvg
ORDER BY uses DESC, m.ratingCount DESC, m.movieId
LIMIT $limit
