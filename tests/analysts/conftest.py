"""A graph holding the example pack and one memory record about an entity: what the guide and docs/analysts.md
are made against."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag.memory.records import NewRecord, save
from graphrag.memory.schema import ensure_memory_schema
from graphrag.stores.graph import GraphStore
from ingest.report import IngestReport
from tests.conftest import EXAMPLES

MEMORY_ABOUT = "SM.MISSION.APOLLO11"


@pytest.fixture
def example_graph(graph: GraphStore, run_ingest) -> GraphStore:  # type: ignore[no-untyped-def]
    report: IngestReport = run_ingest(EXAMPLES / "space-missions")
    assert report.errors == []
    ensure_memory_schema(graph)
    graph.ensure_schema("github_schema")  # as the server does at start
    save(graph, "analysts", True, "notes", NewRecord(content="Apollo 11 landed in the Sea of Tranquility.",
                                                     scope="project", source="pack", source_id=MEMORY_ABOUT))  # fmt: skip
    return graph


def example_pack() -> Path:
    return EXAMPLES / "space-missions"
