// How many links of each relationship type the packs hold, counting only links between entities the caller
// may see (for pack_catalog).
// Parameters: $types (the relationship types of the relation vocabulary), $hidden (pack ids the caller may not see).
MATCH (a:Entity)-[r]->(b:Entity)
WHERE type(r) IN $types AND NOT coalesce(a.pack, '') IN $hidden AND NOT coalesce(b.pack, '') IN $hidden
RETURN type(r) AS type, count(r) AS links
ORDER BY links DESC, type
