// ---
// name: top_movies_by_director
// description: >
//   Only when the user asks for a director's best or top-rated movies: ranked by MovieLens
//   average rating (at least `min_ratings` ratings). For all of a person's films use film_facts.
// params:
//   director:
//     type: person
//     description: The director the user named.
//   min_ratings:
//     type: integer
//     description: Leave out movies with fewer MovieLens ratings than this.
//     default: 5
//     min: 1
//     max: 1000
//   limit:
//     type: integer
//     description: How many movies to list.
//     default: 10
//     min: 1
//     max: 50
// ---
MATCH (:Person {name: $director})-[:DIRECTED]->(m:Movie)
WHERE coalesce(m.ratingCount, 0) >= $min_ratings
RETURN m.title AS title, m.year AS year, round(m.ratingAvg * 100) / 100.0 AS ratingAvg,
       m.ratingCount AS ratingCount, m.imdbRating AS imdbRating
ORDER BY m.ratingAvg DESC, m.ratingCount DESC, m.movieId
LIMIT $limit
