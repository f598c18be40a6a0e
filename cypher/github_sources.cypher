// Every team source, with the repository and folder it indexes (webhooks and visibility start here).
// Parameters: none.
MATCH (s:TeamSource)
RETURN s.id AS id, s.repository AS repository, s.path AS path
ORDER BY id
