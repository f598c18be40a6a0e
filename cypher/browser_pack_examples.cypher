// One example per pack: each pack's most linked real entity with its direct typed links (at most 12 each), so a
// graph of several packs shows every one of them at once, not the neighbourhood of one pack's entity alone.
// Parameters: $examples (entity ids, one per pack).
UNWIND $examples AS id
CALL (id) {
  MATCH p = (:Entity {id: id})--(o:Entity)
  RETURN p
  ORDER BY o.id
  LIMIT 12
}
RETURN p
