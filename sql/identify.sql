-- Binds the transaction to one account: row-level security shows and accepts only that account's rows,
-- and the setting ends with the transaction, so a pooled connection never carries it into another request.
-- Parameters: %(account)s
SELECT set_config('retrieval.account', %(account)s, true)
