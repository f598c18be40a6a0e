// Creates the constraints of team sources (idempotent; run before the team tools serve): one node per
// connected GitHub account (by the service account that connected it), per source, per webhook delivery id
// and per delivered body (its digest).
// Parameters: none.
CREATE CONSTRAINT github_account_key IF NOT EXISTS FOR (a:GitHubAccount) REQUIRE a.account IS UNIQUE;
CREATE CONSTRAINT github_source_key IF NOT EXISTS FOR (s:TeamSource) REQUIRE s.id IS UNIQUE;
CREATE CONSTRAINT github_delivery_key IF NOT EXISTS FOR (d:GitHubDelivery) REQUIRE d.id IS UNIQUE;
CREATE CONSTRAINT github_delivery_body_key IF NOT EXISTS FOR (b:GitHubDeliveryBody) REQUIRE b.digest IS UNIQUE;
