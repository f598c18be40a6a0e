// Connects a team source for a service account (creating the source on its first connection).
// Parameters: $account, $id (the source's pack id, github:owner/repo[/path]), $repository, $path.
MATCH (a:GitHubAccount {account: $account})
MERGE (s:TeamSource {id: $id})
ON CREATE SET s.repository = $repository, s.path = $path, s.connected_at = datetime()
MERGE (a)-[:CONNECTS]->(s)
