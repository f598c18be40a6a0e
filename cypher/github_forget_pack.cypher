// Deletes a team source's Pack node, once its entities are removed by an ingest of no files.
// Parameters: $id (the source's pack id).
MATCH (p:Pack {id: $id})
DETACH DELETE p
