"""The MCP server: typed tools over the stores, within a response budget."""
