// Deletes a Pack node, once its entities are removed by an ingest of no files (graphrag drop, a team source).
// Parameters: $id (the source's pack id).
MATCH (p:Pack {id: $id})
DETACH DELETE p
