// The records nearest to a vector in the memory vector index, kept to one workspace (the archivist's
// candidates after a save; it re-scores them exactly). Records of other workspaces use up part of $k.
// Parameters: $project (project id), $workspace (workspace name), $vector (embedding), $k (index neighbours).
CALL db.index.vector.queryNodes('memory_record_embedding', $k, $vector) YIELD node
WHERE node.project = $project AND node.workspace = $workspace
RETURN node.id AS id, node.fact_key AS fact_key, node.content AS content, node.created_at AS created_at,
       node.embedding_model AS embedding_model, node.embedding AS embedding
