CREATE FULLTEXT INDEX person_name IF NOT EXISTS FOR (n:Person) ON EACH [n.name]
