// Deletes the typed links that some entities' files declared, before their new links are written,
// in transactions of bounded size (a file may once have declared more links than one can hold).
// Run in auto-commit mode. Parameters: $ids (list of entity ids).
UNWIND $ids AS id
MATCH (:Entity {id: id})-[r]-()
WHERE r.declared_by = id
WITH DISTINCT r
CALL (r) {
  DELETE r
} IN TRANSACTIONS OF 5000 ROWS
