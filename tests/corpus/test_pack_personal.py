"""The real pack-personal pack (387 files, errors included), given with ``--corpus CORPORA``.

CORPORA is the folder holding ``pack-personal/pack/personal-development``; without the option
these tests are skipped (the default suite runs on the project's own fixtures).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from graphrag.cli.packs import DANGLING_SHOWN
from graphrag.stores.graph import GraphStore
from ingest.pipeline import check
from tests.ingest.test_cli import graphrag
from tests.ingest.test_ingest_stores import count

BROKEN = {
    "02-domain-entities/formalizations/PD.FORM.094-development-directions.md:3",
    "02-domain-entities/formalizations/PD.FORM.105-msh-qualifications.md:3",
    "02-domain-entities/formalizations/PD.FORM.108-intellectual-rcs.md:3",
}


@pytest.fixture
def pack(corpus: Path) -> Path:
    path = corpus / "pack-personal" / "pack" / "personal-development"
    if not path.is_dir():
        pytest.skip(f"{path} not found")
    return path


def frontmatters(pack: Path) -> list[dict[str, Any]]:
    """Read independently of the ingester: every file whose frontmatter PyYAML reads as a mapping."""
    found = []
    for path in pack.rglob("*.md"):
        text = path.read_text(encoding="utf-8-sig")
        if not text.startswith("---\n"):
            continue
        try:
            data = yaml.safe_load(text[4:].split("\n---", 1)[0])
        except yaml.YAMLError:
            continue
        if isinstance(data, dict):
            found.append(data)
    return found


def test_real_pack_ingests_all_but_the_three_broken_files(run_ingest, pack: Path, graph: GraphStore) -> None:
    report = run_ingest(pack)

    assert report.exit_code == 1
    assert {f"{p.path}:{p.line}" for p in report.errors} == BROKEN
    assert len(report.added) == len(frontmatters(pack)) == 374
    assert count(graph, "MATCH (e:Entity {pack: 'personal-development'}) WHERE NOT e:Missing RETURN count(e)") == 374
    # typed links: the graph agrees with an ingest-free reading of the same frontmatter
    assert report.links == check([pack]).links
    assert (
        count(graph, "MATCH (:Entity {id: 'PD.CAT.003'})-[r]->() WHERE r.declared_by = 'PD.CAT.003' RETURN count(r)")
        == 10
    )

    again = run_ingest(pack)

    assert (again.added, again.updated, again.removed, again.embedded) == ([], [], [], 0)
    assert {f"{p.path}:{p.line}" for p in again.errors} == BROKEN
    assert count(graph, "MATCH (e:Entity {pack: 'personal-development'}) WHERE e.revision > 1 RETURN count(e)") == 0


def test_real_pack_messages_say_how_to_fix_and_the_terminal_report_stays_short(pack: Path) -> None:
    report = check([pack])
    text = graphrag("check", str(pack)).stdout.splitlines()
    github = graphrag("check", "--format", "github", str(pack)).stdout.splitlines()
    as_json = json.loads(graphrag("check", "--json", str(pack)).stdout)

    for error in report.errors:  # the three values written «…: …»
        assert 'quote the whole value, as in name_ru: "«' in error.message, error.message
    # errors come right after the pack's two lines, and hundreds of dangling links take two lines in all
    assert [line.split(": error")[0] for line in text[2:5]] == sorted(BROKEN)
    assert len(text) < 2 + len(report.errors) + len(report.warnings) + DANGLING_SHOWN + 3
    assert f"dangling: {len(report.dangling) - DANGLING_SHOWN} more links to ids no file defines" in text[-2]
    assert len(report.dangling) == len(as_json["dangling"]) == len([g for g in github if g.startswith("::notice")])
    assert len(report.dangling) == 361


def test_real_pack_kind_written_two_ways_names_the_usual_one(pack: Path) -> None:
    warnings = [p for p in check([pack]).warnings if p.field == "kind"]

    assert sorted(f"{p.path}:{p.line}" for p in warnings) == [
        "03-methods/PD.METHOD.030-anchored-quality-scale.md:4",
        "03-methods/PD.METHOD.031-form-slices-node-tree.md:4",
        "03-methods/PD.METHOD.059-skill-pipeline-four-nodes.md:7",
    ]
    assert {p.message for p in warnings} == {
        "kind 'Method' is written 'method' in 29 other files of the pack (one label, :Method, counted as two "
        "kinds); write 'method'"
    }
