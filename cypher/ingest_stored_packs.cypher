// Lists the stored packs: their metadata and the embedding model their vectors were made with.
// Parameters: $packs (list of pack ids).
MATCH (p:Pack)
WHERE p.id IN $packs
RETURN p.id AS id, p.title AS title, p.description AS description, p.language AS language,
       p.root AS root, p.embedder AS embedder, p.manifest_sha256 AS manifest_sha256,
       p.relation_types AS relation_types, p.relations AS relations,
       p.relation_descriptions AS relation_descriptions, p.derived_version AS derived_version,
       p.vectors_pending AS vectors_pending
