// The words that people's names in the graph write in lower case between the first and the
// last word ("de" in "Olivia de Havilland", "von" in "Max von Sydow"): where a last name that
// has such a word begins (semantic_layer/linking/names.py).
MATCH (p:Person)
WITH split(p.name, ' ') AS words
WHERE size(words) > 2
UNWIND range(1, size(words) - 2) AS i
WITH words[i] AS word
WHERE word = toLower(word) AND word <> toUpper(word)
RETURN DISTINCT word
