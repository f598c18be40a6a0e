"""``graphrag check`` and ``graphrag ingest`` as a user runs them: exit codes, one-line failures, JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from graphrag.stores.graph import GraphStore
from tests.conftest import EXAMPLES


def graphrag(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "graphrag.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def test_check_valid_pack_exits_0_and_lists_skipped_files() -> None:
    result = graphrag("check", str(EXAMPLES / "space-missions"))
    assert result.returncode == 0, result.stderr
    assert "skipped (no frontmatter): README.md" in result.stdout
    assert "dangling: SM.MISSION.APOLLO11 -[crewed_by]-> SM.PERSON.COLLINS" in result.stdout


def test_check_rejected_file_exits_1_with_path_line_field(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_text("---\nid: A\ntitle: [x, y]\n---\n")
    (tmp_path / "good.md").write_text("---\nid: B\n---\n")
    result = graphrag("check", str(tmp_path), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["errors"] == [
        {
            "severity": "error",
            "path": "bad.md",
            "line": 3,
            "field": "title",
            "message": "must be text, found ['x', 'y']",
        }
    ]
    assert report["added"] == ["B"]


def test_bad_invocation_exits_2(tmp_path: Path) -> None:
    assert graphrag("check", str(tmp_path / "nowhere")).returncode == 2
    (tmp_path / "pack.yaml").write_text("id: has space\n")
    result = graphrag("check", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {tmp_path / 'pack.yaml'}: [id] pack id 'has space'")


def test_unreachable_neo4j_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = graphrag(
        "ingest",
        str(EXAMPLES / "space-missions"),
        env={"NEO4J_URI": "bolt://127.0.0.1:9", "GRAPHRAG_HOME": str(tmp_path)},
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "unavailable: Neo4j at bolt://127.0.0.1:9 is not reachable" in lines[0]
    assert "graphrag neo4j start" in lines[0]


def test_ingest_json_report(graph: GraphStore, tmp_path: Path) -> None:
    result = graphrag("ingest", str(EXAMPLES / "space-missions"), "--json", env={"GRAPHRAG_HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["added"]) == 32 and report["embedded"] == 32 and report["links"] == 49


def test_ingest_logs_one_json_line_per_run(graph: GraphStore, tmp_path: Path) -> None:
    env = {"GRAPHRAG_HOME": str(tmp_path / "home"), "GRAPHRAG_LOG_FORMAT": "json"}
    result = graphrag("ingest", str(EXAMPLES / "space-missions"), env=env)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    assert [(line["logger"], line["added"], line["embedded"], line["errors"]) for line in lines] == [
        ("ingest.pipeline", 32, 32, 0)
    ]


def test_a_bad_setting_is_one_line_per_variable_without_its_value() -> None:
    result = graphrag("ingest", str(EXAMPLES), env={"NEO4J_HTTP_PORT": "seven", "GRAPHRAG_LOG_LEVEL": "secret-ish"})
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: setting NEO4J_HTTP_PORT: Input should be a valid integer, unable to parse string as an integer",
        "error: setting GRAPHRAG_LOG_LEVEL: Input should be 'DEBUG', 'INFO', 'WARNING' or 'ERROR'",
    ]
