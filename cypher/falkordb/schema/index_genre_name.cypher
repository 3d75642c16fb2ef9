CREATE INDEX FOR (n:Genre) ON (n.name)
