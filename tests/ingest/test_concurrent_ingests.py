"""Two `graphrag ingest` of one pack started together, as two shells or two CI jobs do: every link is
stored once, on a fresh pack, after a change and after a delete (CREATE wrote each link twice)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from graphrag.config import Settings
from graphrag.stores.graph import GraphStore

FILES = 200
LINKS = "MATCH (:Entity)-[r]->(:Entity) WHERE r.declared_by IS NOT NULL RETURN count(r) AS n"
DOUBLED = (
    "MATCH (s:Entity)-[r]->(t:Entity) WHERE r.declared_by IS NOT NULL "
    "WITH s, type(r) AS type, t, r.declared_by AS by, count(*) AS copies WHERE copies > 1 RETURN count(*) AS n"
)


def write_pack(root: Path, skip: int | None = None) -> None:
    root.mkdir(exist_ok=True)
    for i in range(FILES):
        path = root / f"n{i:03}.md"
        if i == skip:
            path.unlink(missing_ok=True)
            continue
        targets = [f"N.{(i + step) % FILES}" for step in (1, 2, 3)]
        path.write_text(f"---\nid: N.{i}\ntitle: Note {i}\nrelated:\n  uses: [{', '.join(targets)}]\n---\nBody {i}.\n")


def ingest_twice_at_once(root: Path, settings: Settings) -> None:
    env = {**os.environ, "GRAPHRAG_HOME": str(settings.graphrag_home)}
    command = [sys.executable, "-m", "graphrag.cli", "ingest", str(root)]
    runs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    for run in runs:
        _, err = run.communicate(timeout=600)
        assert run.returncode == 0, err.decode()


def count(graph: GraphStore, cypher: str) -> int:
    return int(graph._driver.execute_query(cypher).records[0]["n"])


def test_two_ingests_of_one_pack_at_once_store_each_link_once(
    tmp_path: Path, graph: GraphStore, settings: Settings
) -> None:
    root = tmp_path / "notes"
    write_pack(root)
    ingest_twice_at_once(root, settings)
    assert (count(graph, LINKS), count(graph, DOUBLED)) == (3 * FILES, 0)

    (root / "n000.md").write_text("---\nid: N.0\ntitle: Note 0\nrelated:\n  uses: [N.5, N.6, N.7, N.8]\n---\nNew.\n")
    ingest_twice_at_once(root, settings)
    assert (count(graph, LINKS), count(graph, DOUBLED)) == (3 * FILES + 1, 0)

    write_pack(root, skip=7)
    ingest_twice_at_once(root, settings)
    assert count(graph, DOUBLED) == 0
    assert count(graph, LINKS) == 3 * FILES - 3  # N.0's links are its original three again; N.7's are gone
