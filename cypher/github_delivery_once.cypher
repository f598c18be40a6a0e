// Records a webhook delivery by its id and by its body's digest; `first` is false when either was seen before
// (a replay: the signature covers the body, not the id). Deliveries older than 30 days are forgotten (GitHub
// redelivers for at most three days).
// Parameters: $id (X-GitHub-Delivery, lower case), $digest (SHA-256 of the body, hex).
CALL () {
  MATCH (old:GitHubDelivery|GitHubDeliveryBody)
  WHERE old.received_at < datetime() - duration('P30D')
  DELETE old
}
MERGE (d:GitHubDelivery {id: $id})
ON CREATE SET d.received_at = datetime(), d.first = true
MERGE (b:GitHubDeliveryBody {digest: $digest})
ON CREATE SET b.received_at = datetime(), b.first = true
WITH d, b, coalesce(d.first, false) AND coalesce(b.first, false) AS first
REMOVE d.first, b.first
RETURN first
