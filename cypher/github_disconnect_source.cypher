// Disconnects a team source for a service account; `left` counts the accounts still connected to it
// (at 0 the source itself is deleted, and its index copies must go).
// Parameters: $account, $id (the source's pack id).
MATCH (:GitHubAccount {account: $account})-[c:CONNECTS]->(s:TeamSource {id: $id})
DELETE c
WITH s
OPTIONAL MATCH (other:GitHubAccount)-[:CONNECTS]->(s)
WITH s, count(other) AS left
CALL (s, left) {
  WITH s WHERE left = 0
  DELETE s
}
RETURN left
