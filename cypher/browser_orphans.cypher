// Orphans: entities with no typed link in or out (only their pack contains them), per pack.
// Parameters: none.
MATCH (e:Entity)
WHERE NOT e:Missing AND NOT (e)--(:Entity)
RETURN e.pack AS pack, e.id AS id, e.kind AS kind, e.title AS title, e.path AS file
ORDER BY pack, file
