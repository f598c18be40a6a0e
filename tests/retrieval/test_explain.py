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


def test_explain_says_when_full_text_s_clear_first_hit_lifts_what_the_script_says(
    run_ingest, settings, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """Titles in Russian, summaries in English: by its script an English question is little read by full text,
    but its clear first hit shows it read this one, and the reading says so."""
    pack = tmp_path / "ru"
    pack.mkdir()
    summaries = {
        "вечер": "Evening plans to read collapse into aimless scrolling once willpower runs out.",
        "утро": "A morning routine starts with water, light and a short walk.",
        "сон": "Sleep comes easier at a fixed hour in a dark, cool room.",
        "обед": "Lunch plans away from the desk restore attention for the afternoon.",
    }
    for n, (title, summary) in enumerate(summaries.items()):
        (pack / f"e{n}.md").write_text(f"---\nid: E{n}\ntitle: {title}\nsummary: {summary}\n---\n{summary}\n")
    run_ingest(pack)

    result = explain(settings, "Which entry says evening plans collapse into aimless scrolling?", "--limit", "1")

    assert result.returncode == 0, result.stderr
    covered = next(line for line in result.stdout.splitlines() if line.startswith("full text reads"))
    assert covered.startswith("full text reads the question's script over these packs: 1.00 (the script alone says 0.")
    assert covered.endswith("; full text's first hit stands apart)")
