"""``graphrag watch``: a saved file is ingested again without a new command."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from graphrag.stores.graph import GraphStore
from tests.ingest.test_ingest_stores import count


def test_saved_file_is_ingested_again(graph: GraphStore, pack_copy: Path, tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "graphrag.cli", "watch", str(pack_copy)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "GRAPHRAG_HOME": str(tmp_path / "home")},
    )
    try:
        assert process.stderr is not None
        first_lines = [process.stderr.readline() for _ in range(2)]  # the first run's log line, then this
        assert "watching" in first_lines[-1], first_lines
        moon = pack_copy / "bodies" / "moon.md"
        moon.write_text(moon.read_text().replace('title: "Moon"', 'title: "The Moon"'))
        deadline = time.monotonic() + 60
        while (
            time.monotonic() < deadline and count(graph, "MATCH (e:Entity {id: 'SM.BODY.MOON'}) RETURN e.revision") < 2
        ):
            time.sleep(0.5)
        assert count(graph, "MATCH (e:Entity {id: 'SM.BODY.MOON', title: 'The Moon'}) RETURN count(e)") == 1
    finally:
        process.terminate()
        process.wait(timeout=30)
