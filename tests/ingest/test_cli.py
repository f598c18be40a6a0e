"""``graphrag check`` and ``graphrag ingest`` as a user runs them: exit codes, one-line failures, JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_check_valid_pack_exits_0_and_lists_skipped_files(graph: GraphStore) -> None:
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
            "code": "E001",
            "path": "bad.md",
            "pack": tmp_path.name,
            "line": 3,
            "field": "title",
            "message": "must be text, found ['x', 'y']",
            "severity": "error",
        }
    ]
    assert report["added"] == ["B"]


def test_check_format_github_writes_escaped_workflow_commands(tmp_path: Path) -> None:
    pack = tmp_path / "pack, 100%"
    pack.mkdir()
    unnamed = subprocess.run(
        [sys.executable, "-m", "graphrag.cli", "check", "--format", "github", pack.name],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert unnamed.returncode == 2  # the folder name is no pack id: one annotation, no traceback
    assert unnamed.stdout.startswith("::error title=graphrag check::pack, 100%25: pack id 'pack, 100%25' must be")
    (pack / "pack.yaml").write_text("id: pack-1\n")
    (pack / "bad: one, two.md").write_text("---\nid: A\ntitle: [x, y]\n---\n")
    (pack / "good.md").write_text("---\nid: B\nrelated: {depends_on: [A, C.1], dependsOn: [Nothing here]}\n---\n")
    result = subprocess.run(
        [sys.executable, "-m", "graphrag.cli", "check", "--format", "github", pack.name],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    folder = "pack%2C 100%25"
    assert lines[0] == (
        f"::error file={folder}/bad%3A one%2C two.md,line=3,title=graphrag check E001 [title]::must be text, found ['x', 'y']"
    )
    assert f"::notice file={folder}/good.md,title=graphrag check L009%3A dangling link::" in result.stdout
    assert any(line.startswith(f"::warning file={folder}/good.md,line=3,") for line in lines), lines
    assert lines[-1].startswith("would add 1,")


def rule_pack(root: Path, manifest: str = "id: notes\n") -> Path:
    """One error (Y002, a tab), one warning (E009, names in the body), one dangling link (L009)."""
    root.mkdir()
    (root / "pack.yaml").write_text(manifest)
    (root / "tabbed.md").write_text("---\nid: T\n\ttitle: Tabbed\n---\n")
    (root / "named.md").write_text("---\nid: N\nrelated: {uses: [GONE]}\n---\nSynonyms: aubergine\n")
    return root


def codes(result: subprocess.CompletedProcess[str]) -> list[str]:
    report = json.loads(result.stdout)
    return [p["code"] for p in [*report["errors"], *report["warnings"], *report["dangling"]]]


def test_check_selects_and_ignores_rules_by_code(tmp_path: Path) -> None:
    pack = str(rule_pack(tmp_path / "notes"))
    assert codes(graphrag("check", pack, "--json")) == ["Y002", "E009", "L009"]
    only_links = graphrag("check", pack, "--json", "--select", "L")
    assert (only_links.returncode, codes(only_links)) == (0, ["L009"])  # the error is not shown: exit 0
    ignored = graphrag("check", pack, "--json", "--ignore", "e009,L009")
    assert (ignored.returncode, codes(ignored)) == (1, ["Y002"])
    text = graphrag("check", pack, "--ignore", "Y", "--ignore", "L009").stdout
    assert "named.md:5: warning[E009] [aliases]: the body lists other names ('aubergine')" in text
    unknown = graphrag("check", pack, "--ignore", "E0099")
    assert unknown.returncode == 2 and unknown.stderr.startswith("error: no rule has the code 'E0099' (nearest: E009")


def test_a_pack_silences_warning_rules_in_its_pack_yaml_never_errors(tmp_path: Path) -> None:
    silenced = graphrag("check", str(rule_pack(tmp_path / "a", "id: a\nignore: [E009, L00]\n")), "--json")
    assert (silenced.returncode, codes(silenced)) == (1, ["Y002"])  # L00 silences the link warnings only
    refused = graphrag("check", str(rule_pack(tmp_path / "b", "id: b\nignore: [Y002]\n")))
    assert refused.returncode == 2 and "'Y002' names only error rules, which cannot be silenced" in refused.stderr


def test_github_escaping_follows_the_runner_rules() -> None:
    from ingest.annotations import command

    assert command("error", "50% done\r\nnext: line, two", file="a:b,c%.md", line=7, title="t") == (
        "::error file=a%3Ab%2Cc%25.md,line=7,title=t::50%25 done%0D%0Anext: line, two"
    )
    assert command("warning", "plain") == "::warning::plain"


def test_pre_commit_hook_runs_graphrag_check(graph: GraphStore) -> None:
    """On an empty graph: one holding the example pack from another folder would rightly refuse its id."""
    import yaml

    hooks = yaml.safe_load((EXAMPLES.parent / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "graphrag-check")
    assert hook["entry"] == "graphrag check" and hook["pass_filenames"] is False
    result = subprocess.run(
        [sys.executable, "-m", "graphrag.cli", *hook["entry"].split()[1:], *hook["args"]],
        capture_output=True,
        text=True,
        cwd=EXAMPLES / "space-missions",  # a pack repository: the pack at its root
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


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


@pytest.mark.parametrize("pack_id", ["../x", "/x", "a//b", "a/./b", "x/.."])
def test_a_pack_id_that_reads_as_a_path_out_is_refused(tmp_path: Path, pack_id: str) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(f"id: '{pack_id}'\n")
    (pack / "a.md").write_text("---\nid: A\n---\n")
    result = subprocess.run(
        [sys.executable, "-m", "graphrag.cli", "check", str(pack)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 2
    assert (
        f"pack id '{pack_id}' must be letters, digits and . _ : / + - without spaces, and no empty"
        in result.stdout + result.stderr
    )


def test_a_nested_pack_is_skipped_with_a_warning_not_taken_in(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    (outer / "inner" / "deeper").mkdir(parents=True)
    (outer / "pack.yaml").write_text("id: outer\n")
    (outer / "a.md").write_text("---\nid: A\n---\n")
    (outer / "inner" / "pack.yaml").write_text("id: inner\n")
    (outer / "inner" / "b.md").write_text("---\nid: B\n---\n")
    (outer / "inner" / "deeper" / "c.md").write_text("---\nid: C\n---\n")
    result = graphrag("check", str(outer), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["added"] == ["A"]
    assert [(w["path"], w["message"]) for w in report["warnings"]] == [
        ("inner/", "a nested pack (its own pack.yaml): skipped; ingest it as a pack of its own")
    ]


def test_an_id_two_new_files_define_names_their_lines_and_keeps_neither(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("---\ntitle: First\nid: A\n---\n")
    (tmp_path / "b.md").write_text("---\nid: A\n---\n")
    result = graphrag("check", str(tmp_path))
    assert result.returncode == 1
    conflict = f"error[E002] [id]: id 'A' is defined by several files: {tmp_path.name}:a.md, {tmp_path.name}:b.md; "
    conflict += "none of them is ingested until the id is made unique"
    assert [line for line in result.stdout.splitlines() if ": error" in line] == [
        f"a.md:3: {conflict}",
        f"b.md:2: {conflict}",
    ]


def test_author_mistakes_each_get_a_line_that_says_the_fix(tmp_path: Path) -> None:
    (tmp_path / "programmes").mkdir()
    (tmp_path / "programmes" / "apollo.md").write_text("---\nid: P.APOLLO\n---\n")
    (tmp_path / "mission.md").write_text("---\nid: M.1\nrelated:\n  part_of: programmes/apollo.md\n---\n")
    (tmp_path / "deep.md").write_text("---\nid: M.2\nrelated:\n  part_of: [../nowhere.md]\n---\n")
    (tmp_path / "tabbed.md").write_text("---\nid: T.1\nrelated:\n\tpart_of: [P.APOLLO]\n---\n")
    (tmp_path / "empty.md").write_text("")
    (tmp_path / "long.md").write_text("---\nid: L.1\ntitle: " + "x" * 5_612 + "\n---\n")
    result = graphrag("check", str(tmp_path))
    problems = sorted(line for line in result.stdout.splitlines() if ": warning" in line or ": error" in line)
    assert problems == [
        "deep.md:4: warning[L008] [related.part_of]: target '../nowhere.md' is a file path, and no file of the pack at "
        "that path defines an entity: write an id; link skipped",
        "empty.md:1: warning[F003]: the file is empty: skipped (an entity needs frontmatter between --- lines)",
        "long.md:3: warning[E006] [title]: title is 5,612 characters long, more than 300: cut there",
        "mission.md:4: warning[L008] [related.part_of]: target 'programmes/apollo.md' is a file path; that file defines "
        "'P.APOLLO': write the id; link skipped",
        "tabbed.md:4: error[Y002]: invalid YAML: while scanning for the next token found character that cannot start any "
        "token; the line holds a tab, and YAML indents with spaces only: replace the tab with spaces",
    ]
