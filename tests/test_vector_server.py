"""The Qdrant server engine (``QDRANT_URL``) against a real server: the Edge shard's layout, the same answers,
an existing collection used as it is, and ``graphrag vectors copy`` between the two engines, both ways."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import httpx
import numpy as np
import pytest

from graphrag.config import Settings
from graphrag.stores.edge import COLLECTION, HNSW_EF_CONSTRUCT, HNSW_M
from graphrag.stores.vectors import VectorStore
from tests.conftest import EXAMPLES, store_env
from tests.qdrant_server import QdrantNode
from tests.test_vector_store import points

EMBEDDER = "some-embedder"


def _points(count: int) -> tuple[list[dict[str, str]], np.ndarray]:
    return points(count, dimension=16)


@pytest.fixture
def server_settings(qdrant_server: QdrantNode, tmp_path: Path) -> Settings:
    qdrant_server.wipe()
    return Settings(graphrag_home=tmp_path / "home", qdrant_url=qdrant_server.url)


def test_a_new_server_collection_is_laid_out_as_the_shard(
    server_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING), VectorStore.open(server_settings) as store:
        store.ensure_collection(EMBEDDER, 16)
    assert caplog.records == []  # the client and the tested server are within one minor version
    found = httpx.get(f"{server_settings.qdrant_url}/collections/{COLLECTION}").json()["result"]
    config = found["config"]
    assert (config["hnsw_config"]["m"], config["hnsw_config"]["ef_construct"]) == (HNSW_M, HNSW_EF_CONSTRUCT)
    assert config["quantization_config"]["scalar"] == {"type": "int8", "quantile": 0.99, "always_ram": True}
    assert config["params"]["vectors"]["on_disk"] is True
    assert sorted(found["payload_schema"]) == ["id", "kind", "pack"]


def test_both_engines_answer_a_filtered_search_alike(server_settings: Settings, tmp_path: Path) -> None:
    payloads, vectors = _points(300)
    answers = []
    for settings in (Settings(graphrag_home=tmp_path / "edge"), server_settings):
        with VectorStore.open(settings) as store:
            store.ensure_collection(EMBEDDER, 16)
            store.upsert(payloads, vectors)
            answers.append(
                [
                    [payload["id"] for payload, _ in store.search(vectors[i], 10, ["p1", "p2"], ["k0"], EMBEDDER)]
                    for i in range(0, 300, 7)
                ]
            )
    assert answers[0] == answers[1]
    assert all(len(ids) == 10 for ids in answers[1])


def test_an_existing_collection_of_another_layout_is_used_as_it_is_and_said_once(
    server_settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    payloads, vectors = _points(5)
    body = {"vectors": {"size": 16, "distance": "Cosine"}, "metadata": {"embedder": EMBEDDER, "dimension": 16}}
    httpx.put(f"{server_settings.qdrant_url}/collections/{COLLECTION}", json=body).raise_for_status()
    with caplog.at_level(logging.WARNING, logger="graphrag.stores.vectors"), VectorStore.open(server_settings) as store:
        assert store.ensure_collection(EMBEDDER, 16) is None
        store.upsert(payloads, vectors)
        assert store.count() == 5
    [line] = [r.getMessage() for r in caplog.records if "used as it is" in r.getMessage()]
    assert "hnsw ef_construct 100 (a new one: 512)" in line
    assert "quantization none (a new one: int8)" in line
    assert "no payload index on pack, kind, id" in line


def _copy(settings: Settings, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = store_env(settings.model_copy(update={"qdrant_url": None}))
    command = [sys.executable, "-m", "graphrag.cli", "vectors", "copy", *arguments]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def test_vectors_copy_to_a_server_and_back_without_embedding(run_ingest, settings: Settings, qdrant_server) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    qdrant_server.wipe()
    with VectorStore.open(settings) as shard:
        embedder, payloads, vectors = shard.snapshot()
    by_id = dict(zip([p["id"] for p in payloads], vectors.tolist(), strict=True))

    there = _copy(settings, "--to", qdrant_server.url)
    assert there.returncode == 0, there.stderr
    assert f"copied {len(by_id)} vectors ({embedder})" in there.stdout
    server = settings.model_copy(update={"qdrant_url": qdrant_server.url})
    with VectorStore.open(server) as store:
        copied_embedder, copied, copied_vectors = store.snapshot()
        store.delete(["SM.MISSION.APOLLO11"])  # the way back must end with the server's points, not add to them
    assert copied_embedder == embedder
    assert {p["id"]: p for p in copied} == {p["id"]: p for p in payloads}
    assert np.allclose(np.asarray([by_id[p["id"]] for p in copied]), copied_vectors, atol=1e-6)

    back = _copy(settings, "--from", qdrant_server.url)
    assert back.returncode == 0, back.stderr
    with VectorStore.open(settings) as shard:
        assert set(shard.payloads()) == set(by_id) - {"SM.MISSION.APOLLO11"}


def test_vectors_copy_refuses_a_target_of_another_model(run_ingest, settings: Settings, qdrant_server) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    qdrant_server.wipe()
    server = settings.model_copy(update={"qdrant_url": qdrant_server.url})
    with VectorStore.open(server) as store:
        store.ensure_collection("another-model", 16)
    refused = _copy(settings, "--to", qdrant_server.url)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines()[-1].startswith("error: ")
    assert "another-model" in refused.stderr and "mix two models" in refused.stderr
    with VectorStore.open(server) as store:
        assert store.embedder() == "another-model"
