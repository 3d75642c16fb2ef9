CALL db.idx.fulltext.createNodeIndex('Person', 'name')
