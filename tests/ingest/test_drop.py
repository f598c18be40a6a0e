"""`graphrag drop PACK_ID`: one pack leaves the graph and the vectors; the others stay as they were."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from graphrag.config import Settings
from graphrag.stores.graph import GraphStore
from graphrag.stores.vectors import VectorStore
from tests.conftest import EXAMPLES
from tests.server.conftest import write_entity


def drop(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GRAPHRAG_HOME": str(settings.graphrag_home)}
    command = [sys.executable, "-m", "graphrag.cli", "drop", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)


def entities(graph: GraphStore) -> dict[str, int]:
    rows = graph._driver.execute_query("MATCH (e:Entity) WHERE NOT e:Missing RETURN e.pack AS p, count(*) AS n").records
    return {row["p"]: row["n"] for row in rows}


def test_drop_removes_one_pack_and_leaves_the_other(
    tmp_path: Path, run_ingest, graph: GraphStore, settings: Settings
) -> None:  # type: ignore[no-untyped-def]
    notes = tmp_path / "notes"
    notes.mkdir()
    write_entity(notes, "N.1", kind="note", title="Moon notes", related="{studies: [SM.MISSION.APOLLO11]}")
    run_ingest(EXAMPLES / "space-missions")
    run_ingest(notes)

    unknown = drop(settings, "space-mision", "--yes")
    assert (unknown.returncode, unknown.stderr) == (
        2,
        "error: no pack has the id 'space-mision'; nearest: space-missions, notes\n",
    )
    unconfirmed = drop(settings, "space-missions")
    assert unconfirmed.returncode == 1 and entities(graph) == {"space-missions": 32, "notes": 1}

    dropped = drop(settings, "space-missions", "--yes")
    assert dropped.returncode == 0, dropped.stderr
    assert dropped.stdout == (
        "dropped pack space-missions: 32 entities with their links, passages and vectors; other packs untouched (1 left)\n"
    )
    assert entities(graph) == {"notes": 1}
    left = graph._driver.execute_query("MATCH (:Entity {id: 'N.1'})-[:STUDIES]->(t:Missing) RETURN t.id AS id").records
    assert [row["id"] for row in left] == ["SM.MISSION.APOLLO11"]  # the other pack's link stays, to a placeholder
    assert graph._driver.execute_query("MATCH (p:Pack) RETURN p.id AS id").records[0]["id"] == "notes"
    assert (
        graph._driver.execute_query("MATCH (p:Passage) WHERE p.entity STARTS WITH 'SM.' RETURN count(p) AS n").records[
            0
        ]["n"]
        == 0
    )
    with VectorStore.open(settings) as vectors:
        assert list(vectors.payloads()) == ["N.1"]
