// Takes the text key off every entity, as a store written before keys existed holds them.
// Parameters: none.
MATCH (e:Entity)
REMOVE e.text_key
