CREATE INDEX FOR (n:Movie) ON (n.titleNorm)
