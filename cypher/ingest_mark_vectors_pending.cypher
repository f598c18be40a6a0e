// Marks packs whose vectors are about to change: until the run ends and writes the pack rows again
// (which clears the mark), Qdrant may hold vectors the graph does not know, and the next run checks them.
// Parameters: $packs (list of pack ids).
UNWIND $packs AS id
MATCH (p:Pack {id: id})
SET p.vectors_pending = true
