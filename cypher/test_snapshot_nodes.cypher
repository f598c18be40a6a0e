// Every node with its labels and properties, in a stable order: the crash test compares two graphs.
// Parameters: none.
MATCH (n)
WHERE n:Entity OR n:Passage OR n:Pack
RETURN labels(n) AS labels, properties(n) AS properties
ORDER BY coalesce(n.id, '')
