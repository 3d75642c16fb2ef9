// The derived Tag summary goes before it is written again from the TAGGED edges.
MATCH (t:Tag)
DETACH DELETE t
