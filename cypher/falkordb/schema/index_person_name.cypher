CREATE INDEX FOR (n:Person) ON (n.name)
