"""Every Cypher query of the project, one parameterized query per `.cypher` file.

`cypher/NAME.cypher` is shared by all backends; `cypher/<backend>/NAME.cypher` (a name of
`semantic_layer.settings.Backend`) overrides it where the dialects really differ.
"""
