"""Kill ``graphrag ingest`` (SIGKILL) at several points of a real run; the next complete run must leave
Neo4j and Qdrant exactly as a clean ingest of the same files does, vectors included."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from bench.synthetic import write_synthetic_pack
from graphrag.config import Settings
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore

ENTITIES = 2_300  # three embedding batches
VECTORS_WRITTEN = "vectors written"  # between a batch's Qdrant upsert and its graph transaction
ENTITIES_WRITTEN = "entities embedded and written"


def run(home: Path, pack: Path, kill_at: tuple[str, int] | None = None) -> int:
    """``graphrag ingest`` in a process of its own; with ``kill_at`` (log line, occurrence), SIGKILL it
    as soon as that debug line appears."""
    env = {**os.environ, "GRAPHRAG_HOME": str(home), "GRAPHRAG_LOG_LEVEL": "DEBUG"}
    command = [sys.executable, "-m", "graphrag.cli", "ingest", str(pack)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    seen = 0
    for line in process.stderr:
        if kill_at and kill_at[0] in line:
            seen += 1
            if seen == kill_at[1]:
                process.send_signal(signal.SIGKILL)
                break
    process.stderr.close()
    code = process.wait(timeout=600)
    if kill_at:
        assert code == -signal.SIGKILL, f"the run ended ({code}) before {kill_at}"
    return code


def snapshot(graph: GraphStore, home: Path) -> dict[str, Any]:
    nodes = graph.read("test_snapshot_nodes")
    for node in nodes:
        for varies in ("ingested_at", "revision", "root", "file_stamp"):  # when, how often, from where: not what
            node["properties"].pop(varies, None)
    with VectorStore.open(Settings(graphrag_home=home)) as vectors:
        _, payloads, matrix = vectors.snapshot()
    order = sorted(range(len(payloads)), key=lambda i: payloads[i]["id"])
    return {
        "nodes": sorted((sorted(n["labels"]), sorted(n["properties"].items())) for n in nodes),
        "links": graph.read("test_snapshot_links"),
        "payloads": [payloads[i] for i in order],
        "vectors": matrix[order] if len(order) else matrix,
    }


def clean_ingest(graph: GraphStore, home: Path, pack: Path) -> dict[str, Any]:
    graph.run_auto_commit("test_wipe")
    graph.write("test_mark")
    shutil.rmtree(home)
    assert run(home, pack) == 0
    return snapshot(graph, home)


def assert_same(recovered: dict[str, Any], clean: dict[str, Any]) -> None:
    assert recovered["nodes"] == clean["nodes"]
    assert recovered["links"] == clean["links"]
    assert recovered["payloads"] == clean["payloads"]
    # the same text embedded in another batch differs in the last bits; another text, entirely
    assert np.allclose(recovered["vectors"], clean["vectors"], atol=1e-5)


def edit(pack: Path) -> None:
    """An author's large change: new summaries for many files, some files gone, some new."""
    files = sorted(pack.rglob("*.md"))
    for path in files[:1_200]:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace('summary: "', 'summary: "revised ', 1), encoding="utf-8")
    for path in files[1_200:1_250]:
        path.unlink()
    for path in files[1_250:1_300]:
        path.with_name("copy-" + path.name).write_text(
            path.read_text(encoding="utf-8").replace("id: BENCH.", "id: COPY."), encoding="utf-8"
        )


def test_killed_runs_recover_to_a_clean_ingest(graph: GraphStore, tmp_path: Path) -> None:
    home, pack = tmp_path / "home", tmp_path / "pack"
    write_synthetic_pack(pack, ENTITIES, sections=1)
    first = sorted(pack.rglob("*.md"))[:30]  # in the first batch
    run(home, pack, kill_at=(VECTORS_WRITTEN, 1))  # vectors of batch 1 stored, its graph batch not
    for path in first:
        path.unlink()  # the author deletes files whose vectors the graph never learnt of
    run(home, pack, kill_at=(ENTITIES_WRITTEN, 1))  # part of the rest stored
    assert run(home, pack) == 0
    assert_same(snapshot(graph, home), clean_ingest(graph, home, pack))

    before = {path: path.read_bytes() for path in sorted(pack.rglob("*.md"))[:30]}
    edit(pack)
    run(home, pack, kill_at=(VECTORS_WRITTEN, 1))  # vectors of new versions, the graph's still old
    for path, content in before.items():
        path.write_bytes(content)  # the author takes some edits back: the graph's version is current again
    assert run(home, pack) == 0
    assert_same(snapshot(graph, home), clean_ingest(graph, home, pack))
