"""The memory's constraints and indexes (``cypher/memory_schema.cypher``), created beside the packs' own."""

from __future__ import annotations

import logging

from graphrag.memory.text import text_pieces
from graphrag.stores.entity_schema import ensure_entity_schema
from graphrag.stores.graph import GraphStore

MARK_BATCH = 5000

log = logging.getLogger(__name__)


def ensure_memory_schema(graph: GraphStore) -> None:
    """Idempotent; the server runs it at start, before the memory tools serve."""
    ensure_entity_schema(graph)
    graph.ensure_schema("memory_schema")
    _mark_text_pieces(graph)


def _mark_text_pieces(graph: GraphStore) -> None:
    """Records saved before the full-text index had its long-piece marker get it, once: until then a word that the
    index cut in two in such a record would not be found."""
    marked = 0
    while rows := graph.read("memory_unmarked_records", limit=MARK_BATCH):
        marks = [{"id": row["id"], "text_pieces": text_pieces(row["match_text"], row["fact_text"])} for row in rows]
        graph.write("memory_mark_records", rows=marks)
        marked += len(marks)
    if marked:
        log.info("memory records marked for the full-text index's long pieces, once: %d", marked)
