CREATE INDEX person_name_norm IF NOT EXISTS FOR (n:Person) ON (n.nameNorm)
