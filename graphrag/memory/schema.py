"""The memory's constraints and indexes (``cypher/memory_schema.cypher``), created beside the packs' own."""

from __future__ import annotations

from graphrag.stores.graph import GraphStore


def ensure_memory_schema(graph: GraphStore) -> None:
    """Idempotent; the server runs it at start, before the memory tools serve."""
    graph.ensure_schema()
    graph.ensure_schema("memory_schema")
