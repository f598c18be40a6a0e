// How many links of each relationship type each pack's files declare (an inverse name counts for the pack of
// the file that wrote it), counting only links between entities the caller may see (for pack_catalog).
// Parameters: $types (the relationship types of the relation vocabulary), $hidden (pack ids the caller may not see).
MATCH (a:Entity)-[r]->(b:Entity)
WHERE type(r) IN $types AND NOT coalesce(a.pack, '') IN $hidden AND NOT coalesce(b.pack, '') IN $hidden
WITH CASE WHEN r.declared_by = b.id THEN b.pack ELSE a.pack END AS pack, type(r) AS type, count(r) AS links
RETURN pack, type, links
ORDER BY links DESC, type, pack
