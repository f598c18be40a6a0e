// Creates or updates packs, recording the embedding model of their vectors.
// Parameters: $packs (list of {id, title, description, language, root, embedder, manifest_sha256,
//   relation_types: relationship types its links use, relations: its declared vocabulary as JSON {name: inverse},
//   relation_descriptions: what its author says each declared relation means, as JSON {name: description},
//   derived_version: version of the derived data (passages) its entities were written with,
//   vectors_pending: false, the run that wrote its vectors ended}).
UNWIND $packs AS pack
MERGE (p:Pack {id: pack.id})
SET p.title = pack.title,
    p.description = pack.description,
    p.language = pack.language,
    p.root = pack.root,
    p.embedder = pack.embedder,
    p.manifest_sha256 = pack.manifest_sha256,
    p.relation_types = pack.relation_types,
    p.relations = pack.relations,
    p.relation_descriptions = pack.relation_descriptions,
    p.derived_version = pack.derived_version,
    p.vectors_pending = pack.vectors_pending
