"""Graph-first GraphRAG over markdown knowledge packs.

Layers, each importing only the ones before it:
``ingest`` (packs -> rows) -> ``graphrag.stores`` (Neo4j, Qdrant) -> ``graphrag.retrieval``
-> ``graphrag.server`` (MCP tools); ``graphrag.cli`` is a thin shell over all of them.
"""

__version__ = "0.1.0"
