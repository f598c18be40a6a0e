// Every pack with how many entities it holds: what `graphrag drop` offers and reports.
// Parameters: none.
MATCH (p:Pack)
RETURN p.id AS id, COUNT { (e:Entity {pack: p.id}) WHERE NOT e:Missing } AS entities
ORDER BY id
