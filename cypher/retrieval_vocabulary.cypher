// The relation vocabulary of the graph, pack by pack: the relationship types its links use, its declared
// relations with their inverse names as JSON ({"part_of": "has_part"}: `has_part` walks `part_of` backwards),
// and what its author says its relations mean as JSON ({"part_of": "A mission belongs to a programme."}), all
// recorded on the Pack node by the ingester. Pack by pack, so a caller's view leaves out the packs it may not read.
// Parameters: none.
MATCH (p:Pack)
RETURN p.id AS pack, coalesce(p.relation_types, []) AS types, p.relations AS relations,
       p.relation_descriptions AS descriptions
ORDER BY pack
