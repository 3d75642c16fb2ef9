CALL db.idx.fulltext.createNodeIndex('Movie', 'aliasText')
