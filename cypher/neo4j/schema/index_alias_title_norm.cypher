CREATE INDEX alias_title_norm IF NOT EXISTS FOR (n:Alias) ON (n.titleNorm)
