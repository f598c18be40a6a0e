// The GitHub account a service account connected, with the team sources it connected.
// Parameters: $account (the service account).
MATCH (a:GitHubAccount {account: $account})
OPTIONAL MATCH (a)-[:CONNECTS]->(s:TeamSource)
RETURN a.login AS login, a.github_id AS github_id, [id IN collect(s.id) WHERE id IS NOT NULL] AS sources
