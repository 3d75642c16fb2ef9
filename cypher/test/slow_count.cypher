// Deliberately slow ($n * $n rows, little memory): the query time limit test stops it early.
UNWIND range(1, $n) AS a
UNWIND range(1, $n) AS b
WITH a, b
WHERE (a * b) % 7 = 3
RETURN count(*) AS matches
