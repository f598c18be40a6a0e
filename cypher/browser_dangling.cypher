// Dangling links: links whose target no file defines (a placeholder :Missing), with the file that declares them.
// Parameters: none.
MATCH (source:Entity)-[link]->(target:Missing)
RETURN source.pack AS pack, link.declared_in AS file, source.id AS source, type(link) AS relation,
       target.id AS missing_target
ORDER BY pack, file, relation, missing_target
