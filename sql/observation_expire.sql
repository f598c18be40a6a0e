-- One bounded cleanup batch (up to 5,000 expired rows and 5,000 expired texts); the count of rows it changed.
-- Parameters: none
SELECT retrieval.expire_observations() AS changed
