"""What ``check`` and ``ingest`` tell an author: each message carries its fix (issue 19's cases), errors come
first, a pack's hundreds of dangling links are summarised, and check refuses what ingest refuses."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from graphrag.cli.packs import DANGLING_SHOWN
from graphrag.stores.graph import GraphStore
from ingest.packs import PackError
from ingest.pipeline import check
from tests.conftest import EXAMPLES
from tests.ingest.test_cli import graphrag


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_value_holding_colon_space_says_to_quote_it(pack_copy: Path) -> None:
    edit(pack_copy / "missions" / "apollo-11.md", 'title: "Apollo 11"', "title: Apollo 11: the first landing")

    report = check([pack_copy])

    assert [p.render() for p in report.errors] == [
        "missions/apollo-11.md:4: error[Y002] [title]: invalid YAML: mapping values are not allowed in this context; "
        "the value holds ': ', which YAML reads as a new key: quote the whole value, as in "
        'title: "Apollo 11: the first landing"'
    ]


def test_a_misspelt_relation_names_the_declared_one_and_is_never_a_type(
    run_ingest,  # type: ignore[no-untyped-def]
    graph: GraphStore,
    pack_copy: Path,
) -> None:
    edit(pack_copy / "missions" / "apollo-11.md", "launched_by:", "lanched_by:")

    checked, ingested = check([pack_copy]), run_ingest(pack_copy)

    for report in (checked, ingested):
        assert [p.render() for p in report.errors] == [
            "missions/apollo-11.md:10: error[L001] [related.lanched_by]: relation 'lanched_by' is not declared in "
            "pack.yaml, so its links are not stored (the file is); did you mean 'launched_by'?"
        ]
        assert report.exit_code == 1
    assert "SM.MISSION.APOLLO11" in ingested.added  # the rest of the file is stored
    records, _, _ = graph._driver.execute_query("MATCH ()-[r]->() RETURN collect(DISTINCT type(r)) AS types")
    assert "LANCHED_BY" not in records[0]["types"]


def test_a_misspelt_target_dangles_with_the_nearest_known_id(run_ingest, pack_copy: Path) -> None:
    edit(pack_copy / "missions" / "apollo-11.md", "part_of: SM.PROGRAM.APOLLO", "part_of: SM.PROGRAM.APPOLO")

    checked = check([pack_copy])
    ingested = run_ingest(pack_copy)  # its dangling links are read back from the graph

    for report in (checked, ingested):
        misspelt = [d for d in report.dangling if d.target == "SM.PROGRAM.APPOLO"]
        assert [d.nearest for d in misspelt] == [["SM.PROGRAM.APOLLO"]]
        # a link to an entity not written yet is not offered the ids that merely look alike
        assert [d.nearest for d in report.dangling if d.target == "SM.PERSON.COLLINS"] == [[]]
    result = graphrag("check", str(pack_copy))
    assert (
        "dangling: SM.MISSION.APOLLO11 -[part_of]-> SM.PROGRAM.APPOLO (missions/apollo-11.md); "
        "nearest known ids: SM.PROGRAM.APOLLO"
    ) in result.stdout.splitlines()


def test_errors_print_before_warnings_per_file_and_overall(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "a.md").write_text("---\nid: A\nsummary: one\nsummary: two\n---\n")  # a warning
    (pack / "b.md").write_text("---\nid: B\nsummary: one\nsummary: two\ntitle: [x]\n---\n")  # a warning, an error

    lines = graphrag("check", str(pack)).stdout.splitlines()

    problems = [line.split(": ", 2)[:2] for line in lines if ".md:" in line]
    assert problems == [
        ["b.md:5", "error[E001] [title]"],
        ["a.md:4", "warning[Y006] [summary]"],
        ["b.md:4", "warning[Y006] [summary]"],
    ]


def test_many_dangling_links_are_summarised_and_listed_in_full_on_request(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    pack.mkdir()
    targets = [f"GONE.{n:02d}" for n in range(DANGLING_SHOWN + 5)]
    (pack / "a.md").write_text(f"---\nid: A\nrelated:\n  uses: [{', '.join(targets)}]\n---\n")

    text = graphrag("check", str(pack)).stdout.splitlines()
    every = graphrag("check", "--dangling", str(pack)).stdout.splitlines()
    as_json = json.loads(graphrag("check", "--json", str(pack)).stdout)
    github = graphrag("check", "--format", "github", str(pack)).stdout.splitlines()

    assert len([line for line in text if line.startswith("dangling: A -[uses]->")]) == DANGLING_SHOWN
    assert "dangling: 5 more links to ids no file defines; add --dangling to list them all (or --json)" in text
    assert text[-1].startswith("would add 1, ") and "dangling 15;" in text[-1]
    assert [line for line in every if line.startswith("dangling:")] == [
        f"dangling: A -[uses]-> {target} (a.md)" for target in targets
    ]
    assert [d["target"] for d in as_json["dangling"]] == targets
    assert len([line for line in github if line.startswith("::notice")]) == len(targets)


def test_ingest_prints_one_summary_line_and_logs_no_copy_of_it(graph: GraphStore, tmp_path: Path) -> None:
    result = graphrag("ingest", str(EXAMPLES / "space-missions"), env={"GRAPHRAG_HOME": str(tmp_path)})

    assert result.returncode == 0, result.stderr
    assert [line for line in result.stdout.splitlines() if line.startswith("added ")] == [
        result.stdout.splitlines()[-1]
    ]
    assert "ingest: packs" not in result.stderr


def test_kinds_written_two_ways_are_warned_with_the_usual_spelling(tmp_path: Path) -> None:
    pack = tmp_path / "p"
    pack.mkdir()
    for n in range(3):
        (pack / f"m{n}.md").write_text(f"---\nid: M{n}\nkind: method\n---\n")
    (pack / "odd.md").write_text("---\nid: ODD\ntitle: Odd\nkind: Method\n---\n")

    report = check([pack])

    assert [p.render() for p in report.warnings] == [
        "odd.md:4: warning[E007] [kind]: kind 'Method' is written 'method' in 3 other files of the pack "
        "(one label, :Method, counted as two kinds); write 'method'"
    ]


def test_check_refuses_a_pack_id_another_folder_holds_as_ingest_does(
    run_ingest, graph: GraphStore, tmp_path: Path
) -> None:
    run_ingest(EXAMPLES / "space-missions")
    copy = tmp_path / "copy"
    shutil.copytree(EXAMPLES / "space-missions", copy)

    with pytest.raises(PackError) as by_check:
        check([copy], graph)
    with pytest.raises(PackError) as by_ingest:
        run_ingest(copy)
    result = graphrag("check", str(copy))

    assert str(by_check.value) == str(by_ingest.value)
    assert f"pack id 'space-missions' belongs to the pack ingested from {EXAMPLES / 'space-missions'}" in str(
        by_check.value
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"error: {by_check.value}\n"


def test_check_without_neo4j_says_pack_ids_were_not_checked(tmp_path: Path) -> None:
    result = graphrag("check", str(EXAMPLES / "space-missions"), env={"NEO4J_URI": "bolt://127.0.0.1:9"})

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-2] == (
        "pack ids not checked against the graph (Neo4j not reachable): ingest refuses a pack id that another "
        "folder holds"
    )


def test_a_files_problems_are_reported_by_every_run_until_it_is_fixed(run_ingest, pack_copy: Path) -> None:  # type: ignore[no-untyped-def]
    apollo = pack_copy / "missions" / "apollo-11.md"
    edit(apollo, "  crewed_by:", "  crewedBy:")
    warning = "missions/apollo-11.md:11: warning[L005] [related.crewedBy]: relation 'crewedBy' read as 'crewed_by'"

    first, again = run_ingest(pack_copy), run_ingest(pack_copy)  # the second reads no file: all are stamped
    edit(apollo, "  crewedBy:", "  crewed_by:")
    fixed = run_ingest(pack_copy)

    assert [p.render() for p in first.warnings] == [p.render() for p in again.warnings] == [warning]
    assert again.unchanged == 32 and again.updated == []
    assert fixed.warnings == [] and fixed.updated == ["SM.MISSION.APOLLO11"]


def test_problems_held_without_rule_codes_are_read_again(run_ingest, graph: GraphStore, pack_copy: Path) -> None:  # type: ignore[no-untyped-def]
    """As an older release stored them: the file is read again, so its problems come back with their codes."""
    edit(pack_copy / "missions" / "apollo-11.md", "  crewed_by:", "  crewedBy:")
    run_ingest(pack_copy)
    old = json.dumps([{"severity": "warning", "line": 11, "message": "relation 'crewedBy' read as 'crewed_by'"}])
    graph._driver.execute_query("MATCH (e:Entity {id: 'SM.MISSION.APOLLO11'}) SET e.file_problems = $old", old=old)

    again = run_ingest(pack_copy)

    assert [p.code for p in again.warnings] == ["L005"] and again.unchanged == 32


def test_check_after_an_ingest_counts_what_an_ingest_would_change(
    run_ingest, graph: GraphStore, pack_copy: Path
) -> None:  # type: ignore[no-untyped-def]
    run_ingest(pack_copy)
    edit(pack_copy / "bodies" / "moon.md", "only natural satellite", "only large natural satellite")

    report = check([pack_copy], graph)

    assert (report.added, report.updated, report.unchanged) == ([], ["SM.BODY.MOON"], 31)


def test_a_link_to_a_rejected_files_id_says_that_file_defines_it(run_ingest, graph: GraphStore, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "t"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: t\n")
    (pack / "one.md").write_text("---\nid: T.ONE\ntitle: [One, first]\n---\n")
    (pack / "two.md").write_text("---\nid: T.TWO\ntitle: Two\nrelated: {uses: [T.ONE]}\n---\n")

    checked, ingested = check([pack], graph), run_ingest(pack)

    for report in (checked, ingested):
        assert [d.render() for d in report.dangling] == [
            "T.TWO -[uses]-> T.ONE (two.md); defined by one.md, which was rejected (line 3)"
        ]
        assert [p.render() for p in report.errors] == [
            "one.md:3: error[E001] [title]: must be text, found ['One', 'first']"
        ]
