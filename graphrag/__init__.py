"""Graph-first GraphRAG over markdown knowledge packs.

Layers, each importing only the ones before it:
``ingest`` (packs -> rows) -> ``graphrag.stores`` (Neo4j, Qdrant) -> ``graphrag.retrieval`` and
``graphrag.memory`` -> ``graphrag.server`` (MCP tools and every MCP adapter: access, budget, memory tools);
``graphrag.cli`` is a thin shell over all of them. ``graphrag.logs`` sets up logging for any entry point.
"""

__version__ = "0.1.0"
