CREATE INDEX FOR (n:Tag) ON (n.name)
