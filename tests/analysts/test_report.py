"""`graphrag report`: what a pack holds and what is wrong with it, as one self-contained page that renders offline
in a real headless Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphrag.cli import main
from ingest.overview import overview
from ingest.overview_html import render_html
from scripts.check_report import check
from tests.conftest import EXAMPLES


def test_the_example_pack_counted() -> None:
    view = overview([EXAMPLES / "space-missions"])
    assert (view.entities, view.links, view.kinds["mission"], view.relations["part_of"]) == (32, 49, 7, 8)
    assert [(d.source, d.target) for d in view.dangling] == [
        ("SM.CRAFT.EAGLE", "SM.AGENCY.GRUMMAN"), ("SM.MISSION.APOLLO11", "SM.PERSON.COLLINS")
    ]  # fmt: skip
    assert view.most_connected[0].id == "SM.MISSION.APOLLO11" and view.most_connected[0].links == 8
    assert view.rejected == view.duplicate_ids == view.orphans == [] and view.exit_code == 0


def test_rejected_files_duplicates_and_orphans_are_named(pack_copy: Path) -> None:
    (pack_copy / "broken.md").write_text("---\nid: SM.BROKEN\ntitle: a: b\n---\n", encoding="utf-8")
    (pack_copy / "twin.md").write_text("---\nid: SM.MISSION.APOLLO8\ntitle: Twin\n---\n", encoding="utf-8")
    (pack_copy / "alone.md").write_text("---\nid: SM.ALONE\ntitle: Apollo 12\n---\nNo links.\n", encoding="utf-8")
    view = overview([pack_copy])
    assert [(p.path, p.line) for p in view.rejected] == [("broken.md", 3)]
    assert sorted(p.path for p in view.duplicate_ids) == ["missions/apollo-8.md", "twin.md"]
    assert [o.id for o in view.orphans] == ["SM.ALONE"]
    assert [(d.title, d.ids) for d in view.duplicate_titles] == [("Apollo 12", ["SM.ALONE", "SM.MISSION.APOLLO12"])]
    assert view.exit_code == 1
    page = render_html(view)
    assert "broken.md:3" in page and "twin.md" in page and "SM.ALONE" in page


def test_the_page_is_self_contained() -> None:
    page = render_html(overview([EXAMPLES / "space-missions"]))
    assert "<svg" in page and "part_of (7)" in page
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\(", page)
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?!#)", page.replace('xmlns:xlink="http', ""))


def test_the_command_writes_the_page_and_exits_by_what_it_found(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(EXAMPLES / "space-missions"), "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert "32 entities" in result.output and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_page_renders_offline_in_chromium(tmp_path: Path) -> None:
    assert check(EXAMPLES / "space-missions", tmp_path) == []
    assert (tmp_path / "report-space-missions.png").stat().st_size > 10_000


@pytest.mark.corpus
def test_pack_personal_names_its_three_rejected_files(corpus: Path, tmp_path: Path) -> None:
    pack = corpus / "pack-personal" / "pack" / "personal-development"
    view = overview([pack])
    assert sorted({p.path for p in view.rejected}) == [
        "02-domain-entities/formalizations/PD.FORM.094-development-directions.md",
        "02-domain-entities/formalizations/PD.FORM.105-msh-qualifications.md",
        "02-domain-entities/formalizations/PD.FORM.108-intellectual-rcs.md",
    ]
    assert check(pack, tmp_path) == []


def test_the_schema_draws_one_arrow_per_pair_of_kinds_and_lists_unlinked_kinds_apart(pack_copy: Path) -> None:
    """On a large pack a dozen self-loops on one kind drew their labels on top of each other, and kinds without
    links stood in a column of their own, widening the picture."""
    with (pack_copy / "pack.yaml").open("a", encoding="utf-8") as manifest:
        manifest.write("  near: {}\n  under: {}\n")
    (pack_copy / "hermit.md").write_text("---\nid: SM.HERMIT\nkind: hermit\ntitle: Hermit\n---\n", encoding="utf-8")
    (pack_copy / "cave-a.md").write_text(
        "---\nid: SM.CAVE.A\nkind: cave\ntitle: Cave A\nrelated: {near: [SM.CAVE.B], under: [SM.CAVE.B]}\n---\n",
        encoding="utf-8",
    )
    (pack_copy / "cave-b.md").write_text("---\nid: SM.CAVE.B\nkind: cave\ntitle: Cave B\n---\n", encoding="utf-8")
    view = overview([pack_copy])
    page = render_html(view)
    svg = page[page.index("<svg") : page.index("</svg>")]
    pairs = {(a.source, a.target) for a in view.diagram()[1]}
    assert svg.count('class="edge"') == len(pairs) < len(view.diagram()[1])
    assert "near (1)" in svg and "under (1)" in svg  # the two self-loops of cave, on one arrow
    assert "Kinds with no links: hermit (1)." in page and "hermit" not in svg


def test_dangling_links_are_grouped_by_target_and_a_skipped_file_naming_them_is_said(tmp_path: Path) -> None:
    """Hundreds of dangling links to headings of one file without frontmatter read as one finding."""
    pack = tmp_path / "terms"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: terms\n")
    (pack / "glossary.md").write_text("# Glossary\n\n## TD.D.001 Load\n\n## TD.D.002 Stress\n")  # no frontmatter
    for n in (1, 2):
        (pack / f"use-{n}.md").write_text(f"---\nid: TU.{n}\nrelated: {{uses: [TD.D.00{n}, TD.D.001]}}\n---\n")
    (pack / "other.md").write_text("---\nid: TU.3\nrelated: {uses: [ELSEWHERE.X]}\n---\n")

    view = overview([pack])
    page = render_html(view)

    [terms, elsewhere] = view.dangling_groups
    assert (terms.prefix, terms.links, terms.targets, terms.mentioned_in) == ("TD.D", 3, 2, ["glossary.md"])
    assert terms.declared_in == ["use-2.md", "use-1.md"]  # most first
    assert (elsewhere.prefix, elsewhere.links, elsewhere.mentioned_in) == ("ELSEWHERE", 1, [])
    assert "glossary.md (skipped: no frontmatter) names missing targets <code>TD.D…</code>" in page
