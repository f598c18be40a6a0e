"""docs/analysts.md's graph model is what `graphrag schema --write` makes of a live graph holding the example pack
and one memory record: regenerated here, so a stale section fails."""

from __future__ import annotations

from pathlib import Path

from graphrag.stores import live_schema
from graphrag.stores.graph import GraphStore
from ingest.labels import service_labels

DOC = Path(__file__).resolve().parents[2] / "docs" / "analysts.md"


def generated(graph: GraphStore) -> tuple[str, str]:
    graph.run_auto_commit("test_unmark")  # the suite's marker is no part of the model
    try:
        return live_schema.read(graph, service_labels())
    finally:
        graph.write("test_mark")


def test_docs_graph_model_is_generated_from_the_live_schema(example_graph: GraphStore) -> None:
    tables, svg = generated(example_graph)
    text = DOC.read_text(encoding="utf-8")
    assert live_schema.splice(text, tables) == text, "docs/analysts.md is stale: run `graphrag schema --write`"
    assert (DOC.parent / live_schema.PICTURE).read_text(encoding="utf-8") == svg


def test_the_model_names_labels_types_properties_and_indexes(example_graph: GraphStore) -> None:
    tables, svg = generated(example_graph)
    for expected in ("| `Missing` | 2 | the service's model |", "| `Mission` | 7 | a pack's kind |",
                     "| `ABOUT` | 1 | MemoryRecord → Mission |", "| :Entity | `title` | `String` | yes |",
                     "| `entity_text` | FULLTEXT | (:Entity) |"):  # fmt: skip
        assert expected in tables
    assert svg.startswith("<svg") and "ABOUT (1)" in svg
