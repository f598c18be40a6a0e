"""``make demo``'s last step, ``python -m examples.ask``, as a user with their settings exported in the shell.

The stdio server it spawns must receive that environment: without it, the server would try the default
Neo4j address and password and the default ``GRAPHRAG_HOME``, none of which are this test's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from graphrag.config import Settings
from graphrag.stores.graph import GraphStore
from tests.conftest import EXAMPLES
from tests.ingest.test_ingest_stores import count


def test_ask_passes_the_callers_environment_to_the_server(run_ingest, graph: GraphStore, settings: Settings) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    env = {
        **os.environ,
        "GRAPHRAG_HOME": str(settings.graphrag_home),
        "NEO4J_URI": settings.neo4j_uri,
        "NEO4J_PASSWORD": settings.neo4j_password.get_secret_value(),
    }
    result = subprocess.run(
        [sys.executable, "-m", "examples.ask"],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
        timeout=300,
    )

    assert result.returncode == 0, result.stderr[-2000:]
    assert "SM.MISSION.LUNA9" in result.stdout
    assert "reached: SM.PERSON.BABAKIN, SM.PERSON.KOROLEV" in result.stdout
    # the record the demo saves is in this test's Neo4j, not in whatever the defaults would have reached
    saved = "MATCH (m:MemoryRecord) WHERE m.content STARTS WITH 'Demo: Luna 9' RETURN count(m)"
    assert count(graph, saved) == 1
