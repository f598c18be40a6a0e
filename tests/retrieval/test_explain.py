"""`graphrag explain QUESTION`: how a question is read and why each hit ranks where it does, from the stores."""

from __future__ import annotations

import subprocess
import sys

from graphrag.config import Settings
from tests.conftest import EXAMPLES, store_env


def explain(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "graphrag.cli", "explain", *args]
    return subprocess.run(command, env=store_env(settings), capture_output=True, text=True, timeout=300)


def test_explain_says_how_a_question_was_read_and_where_each_hit_stood(run_ingest, settings: Settings) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")

    result = explain(settings, "Which programme is Apollo 11 part of?", "--limit", "3")

    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "words asking for relation steps: part" in lines
    assert any(
        line.startswith("  SM.MISSION.APOLLO11  confidence")
        and line.endswith(": a start (ranks first; steps and walks go out from it)")
        for line in lines
    )
    assert "relation steps: part_of" in lines
    assert "  chain     1.50: SM.PROGRAM.APOLLO" in lines
    second = next(i for i, line in enumerate(lines) if line.startswith("   2. SM.PROGRAM.APOLLO  'Apollo programme'"))
    assert "chain #1" in lines[second + 1] and lines[second + 1].endswith(
        "via SM.MISSION.APOLLO11 part_of SM.PROGRAM.APOLLO"
    )


def test_explain_refuses_a_pack_that_does_not_exist(run_ingest, settings: Settings) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")

    result = explain(settings, "Apollo 11", "--pack", "space-mision")

    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "error: invalid_argument: unknown packs: space-mision; known packs: space-missions"
    )
