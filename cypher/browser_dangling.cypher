// Dangling links: links whose target no file defines (a placeholder :Missing), with the file that declares them;
// the short columns come first, so the missing target shows however long the file's path is.
// Parameters: none.
MATCH (source:Entity)-[link]->(target:Missing)
RETURN type(link) AS relation, target.id AS missing_target, source.id AS source, source.pack AS pack,
       link.declared_in AS file
ORDER BY pack, file, relation, missing_target
