// Lists the stored entities (not placeholders) of some packs with their content hashes, file stamps and
// files' problems, so that an ingest reads and writes only what changed and still reports every problem.
// Parameters: $packs (list of pack ids).
MATCH (e:Entity)
WHERE e.pack IN $packs AND NOT e:Missing
RETURN e.id AS id, e.pack AS pack, e.path AS path, e.sha256 AS sha256, e.title AS title, e.aliases AS aliases,
       e.file_stamp AS stamp, e.file_problems AS problems
