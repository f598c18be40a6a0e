// Records which GitHub account a service account is (github_connect): its login and numeric id, nothing else.
// Parameters: $account (the service account), $login, $github_id.
MERGE (a:GitHubAccount {account: $account})
SET a.login = $login, a.github_id = $github_id, a.connected_at = datetime()
