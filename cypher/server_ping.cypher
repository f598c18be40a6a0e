// The health check of an HTTP deployment: answers when Neo4j does.
// Parameters: none.
RETURN 1 AS ok
