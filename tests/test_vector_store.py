"""The embedded engine (a Qdrant Edge shard): filters in the engine, one shard shared by several processes
through the one that holds it, the former local-mode folder moved in once, and where Edge itself stops."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphrag.config import Settings
from graphrag.errors import StoreUnavailable
from graphrag.stores.edge import (
    COLLECTION,
    LOCK_WAIT_SECONDS,
    MIGRATED_SUFFIX,
    OLDER_BUILD_SEARCH_EF,
    SEARCH_EF,
    point_id,
    search_ef,
)
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from tests.conftest import EXAMPLES

EMBEDDER = "some-embedder"


def points(count: int, seed: int = 0, dimension: int = 8) -> tuple[list[dict[str, str]], np.ndarray]:
    """``count`` points with the service's payload, in three packs and two kinds, of random vectors."""
    payloads = [
        {"id": f"E{i}", "pack": f"p{i % 3}", "kind": f"k{i % 2}", "title": f"t{i}", "path": f"{i}.md", "sha256": str(i)}
        for i in range(count)
    ]
    return payloads, np.random.default_rng(seed).standard_normal((count, dimension)).astype(np.float32)


def _python(code: str, home: Path) -> subprocess.Popen[str]:
    """Another process of this project on the same GRAPHRAG_HOME; it prints ``ready`` once it holds what it
    opens, then waits for a line on stdin before it closes."""
    script = textwrap.dedent(code)
    return subprocess.Popen(
        [sys.executable, "-c", script, str(home)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def test_filters_run_in_the_engine_on_indexed_fields(settings: Settings) -> None:
    from qdrant_edge import EdgeShard

    payloads, vectors = points(60)
    with VectorStore.open(settings) as store:
        store.ensure_collection(EMBEDDER, 8)
        store.upsert(payloads, vectors)
        store.optimize()
        hits = store.search(vectors[4], 5, ["p1"], ["k0"], EMBEDDER)
        unfiltered = store.search(vectors[4], 1, None, None, EMBEDDER)
    assert hits[0][0]["id"] == "E4"
    numbers = [int(payload["id"][1:]) for payload, _ in hits]
    assert len(numbers) == 5 and all(n % 3 == 1 and n % 2 == 0 for n in numbers)  # pack p1, kind k0
    assert unfiltered[0][0]["id"] == "E4" and unfiltered[0][1] == pytest.approx(1.0, abs=1e-5)
    shard = EdgeShard.load(str(settings.qdrant_path / "shard"))
    try:
        assert set(shard.info().payload_schema) == {"pack", "kind"}
    finally:
        shard.close()


def test_a_new_shard_keeps_its_floats_on_disk_and_an_int8_copy_in_memory(settings: Settings) -> None:
    with VectorStore.open(settings) as store:
        store.ensure_collection(EMBEDDER, 8)
    config = json.loads((settings.qdrant_path / "shard" / "edge_config.json").read_text())  # as Edge persists it
    assert config["vectors"][""]["memory"] == "cold"
    assert config["quantization_config"] == {"scalar": {"type": "int8", "quantile": 0.99, "memory": "pinned"}}
    assert (config["hnsw_config"]["m"], config["hnsw_config"]["ef_construct"]) == (16, 512)


def test_a_shard_built_from_edges_default_candidates_is_searched_with_a_longer_list(
    settings: Settings, tmp_path: Path
) -> None:
    from qdrant_edge import Distance, EdgeConfig, EdgeShard, EdgeVectorParams, HnswIndexConfig

    with VectorStore.open(settings) as store:
        store.ensure_collection(EMBEDDER, 8)
    older = tmp_path / "older"  # as a release before HNSW_EF_CONSTRUCT made it: with Edge's own HNSW settings
    hnsw = HnswIndexConfig(m=16, ef_construct=100, full_scan_threshold=10_000)
    EdgeShard.create(str(older), EdgeConfig(vectors=EdgeVectorParams(8, Distance.Cosine), hnsw_config=hnsw)).close()

    assert search_ef(settings.qdrant_path / "shard") == SEARCH_EF
    assert search_ef(older) == OLDER_BUILD_SEARCH_EF


@pytest.mark.engines
def test_vectors_of_another_embedder_are_refused_to_queries(settings: Settings) -> None:
    payloads, vectors = points(3)
    with VectorStore.open(settings) as store:
        store.ensure_collection(EMBEDDER, 8)
        store.upsert(payloads, vectors)
        with pytest.raises(StoreUnavailable, match="GRAPHRAG_EMBEDDER"):
            store.search(vectors[0], 3, None, None, "another-embedder")


def test_another_process_writes_through_the_holder_and_takes_over_when_it_closes(settings: Settings) -> None:
    """The holder (here a second process) keeps the shard loaded; this process's writes go through it, are
    searchable there at once, and after the holder closes this process loads the shard itself."""
    payloads, vectors = points(20)
    holder = _python(
        """
        import sys
        from pathlib import Path
        from graphrag.config import Settings
        from graphrag.stores.vectors import VectorStore
        with VectorStore.open(Settings(graphrag_home=Path(sys.argv[1]))) as store:
            store.ensure_collection("some-embedder", 8)
            print("ready", flush=True)
            sys.stdin.readline()
            print(len(store.payloads()), flush=True)
        """,
        settings.graphrag_home,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "ready"
    with VectorStore.open(settings) as store:
        store.upsert(payloads, vectors)
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "20"  # the holder sees this process's write, no reload
        assert holder.wait(30) == 0
        store.delete(["E0"])  # the holder is gone: this process takes the shard over
        assert sorted(store.payloads()) == sorted(p["id"] for p in payloads[1:])


def test_a_holder_that_does_not_share_is_waited_for_then_named(settings: Settings) -> None:
    """A process that locks the shard without serving it (a release before this one) is waited for
    briefly; then the error names the folder and what to do."""
    settings.qdrant_path.mkdir(parents=True)
    with (settings.qdrant_path / "owner.lock").open("wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        started = time.monotonic()
        with pytest.raises(StoreUnavailable) as failure:
            VectorStore.open(settings)
    assert time.monotonic() - started >= LOCK_WAIT_SECONDS - 0.5
    assert str(settings.qdrant_path) in str(failure.value) and "QDRANT_URL" in str(failure.value)


@pytest.mark.engines
def test_a_collection_without_points_snapshots_as_empty(settings: Settings) -> None:
    """A first ingest whose every file is rejected leaves an empty collection."""
    with VectorStore.open(settings) as store:
        store.ensure_collection(EMBEDDER, 8)
        embedder, payloads, vectors = store.snapshot()
    assert (embedder, payloads, vectors.shape) == (EMBEDDER, [], (0, 0))


def test_a_local_mode_folder_moves_into_the_shard_once(settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    from qdrant_client import QdrantClient, models

    payloads, vectors = points(25)
    old = settings.graphrag_home / "qdrant"
    client = QdrantClient(path=str(old))
    client.create_collection(
        COLLECTION,
        vectors_config=models.VectorParams(size=8, distance=models.Distance.COSINE),
        metadata={"embedder": EMBEDDER, "dimension": 8},
    )
    client.upsert(
        COLLECTION,
        points=models.Batch(ids=_ids(payloads), vectors=vectors.tolist(), payloads=payloads),
    )
    client.close()

    with caplog.at_level(logging.INFO, logger="graphrag.stores.vectors"), VectorStore.open(settings) as store:
        assert store.ensure_collection(EMBEDDER, 8) is None  # same embedder: nothing to rebuild
        embedder, moved, matrix = store.snapshot()
    lines = [r.getMessage() for r in caplog.records if "moved" in r.getMessage()]
    assert len(lines) == 1 and "25 vectors" in lines[0]
    assert embedder == EMBEDDER and sorted(p["id"] for p in moved) == sorted(p["id"] for p in payloads)
    by_id = {p["id"]: row for p, row in zip(moved, matrix, strict=True)}
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    assert np.allclose(by_id["E7"], unit[7], atol=1e-5)
    assert not old.exists() and (old.parent / ("qdrant" + MIGRATED_SUFFIX)).is_dir()

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="graphrag.stores.vectors"), VectorStore.open(settings) as store:
        assert len(store.payloads()) == 25
    assert not [r for r in caplog.records if "moved" in r.getMessage()]


def _ids(payloads: list[dict[str, str]]) -> list[str]:
    return [point_id(p["id"]) for p in payloads]


def test_edge_loading_a_shard_another_process_holds_breaks_the_holder(tmp_path: Path) -> None:
    """Why the shard is shared through its holder and never loaded twice (qdrant-edge-py 0.9.0): a second
    process's ``EdgeShard.load`` fails on the write-ahead log's lock, but only after it touched the payload
    index, and the holder's next flush fails. When this test fails, Edge no longer does that: the holder's
    socket may then give way to a plain load per process."""
    shard = str(tmp_path / "shard")
    holder = _python(
        """
        import sys
        from qdrant_edge import *
        s = EdgeShard.create(sys.argv[1], EdgeConfig(vectors=EdgeVectorParams(size=4, distance=Distance.Cosine)))
        s.update(UpdateOperation.create_field_index("pack", PayloadSchemaType.Keyword))
        s.update(UpdateOperation.upsert_points([Point(i, [1.0, i, 0.0, 1.0], {"pack": "a"}) for i in range(50)]))
        s.flush()
        print("ready", flush=True)
        sys.stdin.readline()
        s.update(UpdateOperation.upsert_points([Point(i, [1.0, i, 1.0, 1.0], {"pack": "b"}) for i in range(50, 60)]))
        try:
            s.flush()
            print("flushed", flush=True)
        except Exception as exc:
            print("flush failed:", str(exc).splitlines()[0], flush=True)
        """,
        Path(shard),
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "ready"
    from qdrant_edge import EdgeShard

    with pytest.raises(Exception, match="WAL"):
        EdgeShard.load(shard)
    holder.stdin.write("go\n")
    holder.stdin.flush()
    outcome = holder.stdout.readline().strip()
    holder.wait(30)
    assert outcome.startswith("flush failed:") and "payload_index" in outcome


def _garble(shard: Path, damage: str) -> None:
    if damage == "wal":
        for part in (shard / "shard" / "wal").iterdir():
            part.write_bytes(b"\x13garbage" * 10)
    elif damage == "segment":
        for state in (shard / "shard" / "segments").glob("*/segment.json"):
            state.write_text("not json")
    elif damage == "edge_config":
        (shard / "shard" / "edge_config.json").write_text("")
    else:
        (shard / "embedder.json").write_text("{garbage")


@pytest.mark.parametrize("damage", ["wal", "segment", "edge_config", "embedder"])
def test_serve_on_a_damaged_shard_is_one_line_naming_how_to_rebuild(
    run_ingest: Any, settings: Settings, damage: str
) -> None:
    run_ingest(EXAMPLES / "space-missions")
    _garble(settings.qdrant_path, damage)
    env = {**os.environ, "GRAPHRAG_HOME": str(settings.graphrag_home)}
    served = subprocess.run(
        [sys.executable, "-m", "graphrag.cli", "serve"], input="", capture_output=True, text=True, env=env, timeout=120
    )
    assert served.returncode == 2, served.stderr
    lines = served.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in served.stderr, served.stderr
    assert lines[0].startswith(f"error: unavailable: the vector shard in {settings.qdrant_path} cannot be opened (")
    assert lines[0].endswith(
        "rebuild it: move that folder aside and run `graphrag ingest` on your packs (the graph keeps every entity)"
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="runs the ingest as another user, which needs root")
def test_an_ingest_that_cannot_write_the_shard_is_one_line_and_leaves_the_graph(graph: GraphStore) -> None:
    """The home's folders belong to root; the ingest runs as ``nobody``, who may read but not write them."""
    shared = Path(tempfile.mkdtemp(prefix="graphrag-readonly-"))
    try:
        shared.chmod(0o755)
        pack = shared / "pack"
        shutil.copytree(EXAMPLES / "space-missions", pack)
        home = shared / "home"
        env = {**os.environ, "GRAPHRAG_HOME": str(home), "HOME": str(shared)}
        command = [sys.executable, "-m", "graphrag.cli", "ingest", str(pack)]
        assert subprocess.run(command, env=env, capture_output=True, timeout=300).returncode == 0
        for folder in (shared, *shared.rglob("*")):
            folder.chmod(0o755 if folder.is_dir() else 0o644)
        (pack / "missions" / "apollo-11.md").write_text(
            (pack / "missions" / "apollo-11.md").read_text() + "\nA new line.\n"
        )
        before = graph._driver.execute_query("MATCH (e:Entity {id: 'SM.MISSION.APOLLO11'}) RETURN e.sha256 AS s")
        nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        ran = subprocess.run(nobody, env=env, capture_output=True, text=True, timeout=300)
        after = graph._driver.execute_query("MATCH (e:Entity {id: 'SM.MISSION.APOLLO11'}) RETURN e.sha256 AS s")
    finally:
        shutil.rmtree(shared)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.strip().splitlines() == [
        f"error: unavailable: the vector shard in {home / 'qdrant-edge'} cannot be opened: Permission denied "
        f"({home / 'qdrant-edge' / 'owner.lock'}); let this user write that folder, or set GRAPHRAG_HOME to one it can"
    ]
    assert before.records == after.records
