// The content hash of every stored entity: `graphrag eval record` derives the corpus snapshot id from it.
// Parameters: none.
MATCH (e:Entity)
WHERE NOT e:Missing
RETURN e.id AS id, e.sha256 AS sha256
