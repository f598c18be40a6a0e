// Records a webhook delivery id; `first` is false when it was seen before (a replay). Deliveries older than
// 30 days are forgotten (GitHub redelivers for at most three days).
// Parameters: $id (X-GitHub-Delivery).
CALL () {
  MATCH (old:GitHubDelivery)
  WHERE old.received_at < datetime() - duration('P30D')
  DELETE old
}
MERGE (d:GitHubDelivery {id: $id})
ON CREATE SET d.received_at = datetime(), d.first = true
WITH d, coalesce(d.first, false) AS first
REMOVE d.first
RETURN first
