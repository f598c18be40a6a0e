"""GitHub team sources: the App client that asks GitHub, on every request, who may read a repository."""
