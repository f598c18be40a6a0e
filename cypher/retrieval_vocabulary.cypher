// The relation vocabulary of the graph: the relationship types the packs' links use, and each pack's
// declared relations with their inverse names as JSON ({"part_of": "has_part"}: `has_part` walks
// `part_of` backwards), and what each pack's author says its relations mean as JSON ({"part_of": "A mission
// belongs to a programme."}), all recorded on the Pack nodes by the ingester.
// Parameters: none.
MATCH (p:Pack)
UNWIND coalesce(p.relation_types, []) + [''] AS type
WITH collect(DISTINCT type) AS types, collect(DISTINCT p.relations) AS vocabularies,
     collect(DISTINCT p.relation_descriptions) AS descriptions
RETURN [t IN types WHERE t <> ''] AS types, [v IN vocabularies WHERE v IS NOT NULL] AS vocabularies,
       [d IN descriptions WHERE d IS NOT NULL] AS descriptions
