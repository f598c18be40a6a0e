// The entities among $ids, read as retrieval_copy reads every entity: what a write of this process changed
// in the retrievers' copy (an id that is no longer in the graph returns no row).
// Parameters: $ids (entity ids).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e.id AS id, e.title AS title, coalesce(e.aliases, []) AS aliases, e.pack AS pack, e.kind AS kind,
       e:Missing AS missing
