"""Graph-first GraphRAG over markdown knowledge packs.

Layers, bottom up, each importing only the ones below it (tests/test_architecture.py keeps it so):
the base modules ``graphrag/*.py`` (settings, errors, names, logging) -> ``graphrag.embedding`` and
``graphrag.stores`` (Neo4j, Qdrant) -> ``ingest`` (packs -> rows in the stores), ``graphrag.retrieval``,
``graphrag.memory`` and the other features -> ``graphrag.server`` (MCP tools and every MCP adapter:
access, budget, memory tools). ``graphrag.cli`` holds every command, a thin shell over all of them.
"""

__version__ = "0.1.0"
