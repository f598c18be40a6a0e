"""Graph-first GraphRAG over markdown knowledge packs.

Layers, bottom up, each importing only what is written here (tests/test_architecture.py holds the same
allow-list): the base modules ``graphrag/*.py`` (settings, errors, names, logging) under everything;
``graphrag.embedding``; ``graphrag.stores`` (Neo4j, Qdrant; the embedding's vector type); then the features
over the stores: ``graphrag.github`` (the App client and who connected which team source),
``graphrag.guide`` (Browser's guide, read through the stores) and ``graphrag.neo4j_local`` (the local server,
which installs the guide), ``ingest`` (packs -> rows in the stores; it indexes team sources through
``graphrag.github``), ``graphrag.retrieval``, ``graphrag.memory`` (which reuses retrieval's text query and
clippable items), ``graphrag.observations`` and ``graphrag.evaluation`` (on the base modules alone); then
``graphrag.server`` over all of them (MCP tools and every MCP adapter: access, budget, memory tools).
``graphrag.cli`` holds every command, a thin shell over all of them, and nothing imports it.
"""

__version__ = "0.1.0"
