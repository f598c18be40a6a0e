"""The retrieval observations journal: an opt-in record, on PostgreSQL, of what search returned (docs/observations.md).

Below the server: it knows accounts, rankings and SQL, not MCP. ``graphrag.server.observing`` is its adapter.
"""
