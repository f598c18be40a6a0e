"""The service on a three-node Qdrant cluster (distributed mode, 6 shards, 2 copies of each): the PEPs ingested,
one node killed with -9, searches answering alike, an ingest beside the loss, and the vectors whole when it
returns: no vector lost, none doubled."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.stores.edge import COLLECTION
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from ingest.pipeline import ingest
from tests.conftest import store_env
from tests.qdrant_server import QdrantNode

QUESTIONS = [
    "asynchronous generators",
    "type hints for functions",
    "a statement that matches a value against patterns",
    "assignment inside an expression",
    "metadata of distribution packages",
    "how the import system finds modules",
    "decorators for functions and methods",
    "string interpolation with f-strings",
]


@pytest.fixture
def cluster(qdrant_binary: Path, tmp_path: Path) -> Iterator[list[QdrantNode]]:
    nodes = [QdrantNode(qdrant_binary, tmp_path / f"node{i}", p2p=True) for i in range(3)]
    try:
        nodes[0].start()
        for node in nodes[1:]:
            node.start(bootstrap=nodes[0])
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def _top10(settings: Settings, embedder: Embedder) -> list[list[str]]:
    with VectorStore.open(settings) as store:
        return [
            [payload["id"] for payload, _ in store.search(vector, 10, None, None, embedder.id)]
            for vector in embedder.embed(QUESTIONS)
        ]


def _entities(graph: GraphStore) -> int:
    records, _, _ = graph._driver.execute_query("MATCH (e:Entity) WHERE NOT e:Missing RETURN count(e)")
    return int(records[0][0])


@pytest.mark.corpus
def test_a_lost_node_loses_no_answer_and_no_vector(
    cluster: list[QdrantNode], corpus: Path, graph: GraphStore, embedder: Embedder, tmp_path: Path
) -> None:
    entry, lost, other = cluster
    peps = tmp_path / "peps"
    shutil.copytree(corpus / "peps", peps)
    settings = Settings(graphrag_home=tmp_path / "home", qdrant_url=entry.url, qdrant_shards=6, qdrant_replicas=2)
    assert ingest([peps], settings, embedder=embedder).exit_code <= 1
    before = _top10(settings, embedder)
    entities = _entities(graph)

    lost.kill()
    assert _top10(settings, embedder) == before
    edited = peps / "PEP-0020.md"
    edited.write_text(edited.read_text().replace("title: The Zen of Python", "title: The Zen of Python, revised"))
    command = [sys.executable, "-m", "graphrag.cli", "ingest", str(peps)]
    beside = subprocess.run(command, env=store_env(settings), capture_output=True, text=True, timeout=600)
    assert beside.returncode in (0, 1) or (beside.returncode == 2 and len(beside.stderr.strip().splitlines()) == 1)

    lost.start(bootstrap=entry)
    entry.wait_active(COLLECTION)
    assert ingest([peps], settings, embedder=embedder).exit_code <= 1
    other.kill()  # every shard now answers from the entry node and the one that came back
    with VectorStore.open(settings) as store:
        payloads = store.payloads()
        assert store.count() == len(payloads) == entities == _entities(graph)
    assert payloads["PEP-0020"]["title"] == "The Zen of Python, revised"
    assert _top10(settings, embedder) == before
