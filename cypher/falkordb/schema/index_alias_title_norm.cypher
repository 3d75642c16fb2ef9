CREATE INDEX FOR (n:Alias) ON (n.titleNorm)
