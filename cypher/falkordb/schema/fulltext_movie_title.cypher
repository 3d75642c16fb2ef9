CALL db.idx.fulltext.createNodeIndex('Movie', 'title')
