// Every entity's id and title, to suggest the nearest known ids when a tool is given an unknown one.
// Parameters: none.
MATCH (e:Entity)
RETURN e.id AS id, e.title AS title
