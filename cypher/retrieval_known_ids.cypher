// Every entity's id and title, to suggest the nearest known ids when a tool is given an unknown one.
// Parameters: $hidden (pack ids the caller may not see: never suggested).
MATCH (e:Entity)
WHERE NOT coalesce(e.pack, '') IN $hidden
RETURN e.id AS id, e.title AS title
