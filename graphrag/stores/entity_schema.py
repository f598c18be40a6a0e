"""The packs' graph model in Neo4j: its constraints and indexes (``cypher/schema.cypher``), and the text key
every entity carries into the full-text indexes."""

from __future__ import annotations

import logging

from graphrag.names import text_key
from graphrag.stores.graph import GraphStore

KEY_BATCH = 5000

log = logging.getLogger(__name__)


def ensure_entity_schema(graph: GraphStore) -> None:
    """Idempotent; ingest and the server run it before they read or write entities."""
    graph.ensure_schema()
    _key_entities(graph)


def _key_entities(graph: GraphStore) -> None:
    """Entities written before the full-text indexes held text keys get theirs, once: until then a question's
    phrases do not count for them."""
    keyed = 0
    while rows := graph.read("schema_unkeyed_entities", limit=KEY_BATCH):
        graph.write("schema_key_entities", rows=[{"id": row["id"], "text_key": text_key(row["id"])} for row in rows])
        keyed += len(rows)
    if keyed:
        graph.write("ingest_await_text_indexes")
        log.info("entities given their full-text key, once: %d", keyed)
