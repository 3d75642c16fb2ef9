// What identifies the item-item neighbourhoods an import wrote: how many SIMILAR edges there
// are (read from the database's counts: well under a millisecond; with a second pattern in
// the same query FalkorDB counts by scanning). The recommender's in-memory copy of them
// (`semantic_layer.recommend.neighbour_cache`) is reloaded when the count changes.
MATCH ()-[s:SIMILAR]->()
RETURN count(s) AS edges
