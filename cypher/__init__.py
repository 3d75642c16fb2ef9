"""Every Cypher query of the project, one parameterized query per `.cypher` file.

`cypher/NAME.cypher` is shared by all backends; `cypher/<backend>/NAME.cypher`
(backend `falkordb` or `neo4j`) overrides it where the dialects really differ.
"""
