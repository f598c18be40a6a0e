"""The Browser guide: every question is a cypher/ file that runs on the example pack, and the guide and the style
are served where Browser fetches them."""

from __future__ import annotations

import json
import urllib.request
from html import escape
from pathlib import Path
from threading import Thread

import pytest

from graphrag.cli.guide import guide_server
from graphrag.guide.content import (
    EXAMPLES,
    PANEL_TIP,
    QUESTIONS,
    guide_html,
    parameters_command,
    post_connect_command,
    style_grass,
    style_json,
    title_and_text,
)
from graphrag.neo4j_local import browser
from graphrag.neo4j_local.distribution import Layout
from graphrag.stores.cypher import cypher_dir, query
from graphrag.stores.graph import GraphStore
from tests.analysts.conftest import MEMORY_ABOUT
from tests.conftest import EXAMPLES as EXAMPLE_PACKS


def test_every_browser_file_is_a_question_of_the_guide() -> None:
    files = {path.stem for path in cypher_dir().glob("browser_*.cypher")}
    assert files == {*QUESTIONS, EXAMPLES}


@pytest.mark.parametrize("name", QUESTIONS)
def test_each_question_has_a_title_and_says_what_it_answers(name: str) -> None:
    title, text = title_and_text(query(name))
    assert 1 <= len(title.split()) <= 8 and len(text) > 40, (title, text)
    assert escape(title) in guide_html() and escape(query(name).body) in guide_html()


def test_the_first_slide_sets_every_parameter_the_questions_use() -> None:
    used = {p for name in QUESTIONS for p in query(name).parameters}
    assert parameters_command().startswith(f":param [{{{', '.join(sorted(used))}}}] => {{ MATCH (e:Entity) ")
    page = guide_html()
    assert page.index(":param [") < page.index("<slide>", page.index("<slide>") + 1), "on the first slide"


def test_the_first_slide_is_short_enough_to_show_the_first_question() -> None:
    """The parameters on one line, so the first question is on screen; header text has no stray backticks."""
    first = guide_html().split("</slide>", 1)[0]
    runnable = first.split('<pre mode="cypher" class="runnable">')
    assert "\n" not in runnable[1].split("</pre>", 1)[0]  # the :param block: one line
    assert first.count("\n") <= 12 + query(QUESTIONS[0]).body.count("\n")
    assert "`" not in first and "<code>id</code>" in first
    assert "//" not in parameters_command()  # a comment would swallow the rest of the one line


def test_the_first_slide_says_how_to_close_the_overview_panel() -> None:
    """Browser draws the Overview panel over the picture's right third and has no setting to close it."""
    first = guide_html().split("</slide>", 1)[0]
    assert first.index(PANEL_TIP) > first.index(escape(query(QUESTIONS[0]).body))


def test_the_examples_pick_a_real_entity_and_the_farthest_one(example_graph: GraphStore) -> None:
    assert example_graph.read(EXAMPLES) == [
        {"id": "SM.MISSION.APOLLO11", "other": "SM.CRAFT.LUNOKHOD1", "examples": ["SM.MISSION.APOLLO11"]}
    ]


def test_with_two_packs_the_guide_shows_an_example_of_each(
    graph: GraphStore,
    run_ingest,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    """The first question draws one pack's entity; the second draws each pack's most linked entity."""
    run_ingest(EXAMPLE_PACKS / "space-missions")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "pack.yaml").write_text("id: notes\n", encoding="utf-8")
    (notes / "a.md").write_text("---\nid: N.A\nrelated: {cites: [N.B, N.C]}\n---\n", encoding="utf-8")
    for name in ("N.B", "N.C"):
        (notes / f"{name}.md").write_text(f"---\nid: {name}\n---\n", encoding="utf-8")
    run_ingest(notes)

    (row,) = graph.read(EXAMPLES)
    drawn = graph.read("browser_pack_examples", examples=row["examples"])

    assert row["examples"] == ["N.A", "SM.MISSION.APOLLO11"]
    starts = {path["p"][0]["id"] for path in drawn}
    assert starts == {"N.A", "SM.MISSION.APOLLO11"} and len(drawn) == 2 + 8  # every direct link of each


def test_the_first_question_starts_where_it_draws_a_picture_not_a_hairball(
    graph: GraphStore,
    run_ingest,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    """On a real pack the most linked entity drew 152 nodes. A hub with 45 links, each of whose leaves reaches the
    other 44 through it, is passed over for an entity with fewer links and a neighbourhood one can read; the hub
    itself, asked for by hand, draws at most 40 paths."""
    pack = tmp_path / "hub"
    pack.mkdir()
    leaves = [f"H.LEAF.{i:02d}" for i in range(45)]
    (pack / "hub.md").write_text(f"---\nid: H.HUB\nrelated: {{uses: [{', '.join(leaves)}]}}\n---\n", encoding="utf-8")
    for leaf in leaves:
        (pack / f"{leaf}.md").write_text(f"---\nid: {leaf}\n---\n", encoding="utf-8")
    (pack / "mid.md").write_text("---\nid: H.MID\nrelated: {uses: [H.A, H.B], part_of: [H.C]}\n---\n", encoding="utf-8")
    for name in ("H.A", "H.B", "H.C"):
        (pack / f"{name}.md").write_text(f"---\nid: {name}\n---\n", encoding="utf-8")
    run_ingest(pack)

    assert graph.read(EXAMPLES)[0]["id"] == "H.MID"
    assert len(graph.read("browser_neighbourhood", id="H.HUB")) == 40


@pytest.mark.parametrize("name", QUESTIONS)
def test_each_question_runs_on_the_example_pack(example_graph: GraphStore, name: str) -> None:
    params = example_graph.read(EXAMPLES)[0]
    rows = example_graph.read(name, **{p: params[p] for p in query(name).parameters})
    assert rows or name == "browser_orphans", f"{name} returned nothing on the example pack (which has no orphan)"


def neighbours(graph: GraphStore, entity_id: str) -> dict[str, dict[str, object]]:
    """The nodes of the neighbourhood's paths by id (a path reads as [node, type, node, ...])."""
    rows = graph.read("browser_neighbourhood", id=entity_id)
    return {step["id"]: step for row in rows for step in row["p"] if isinstance(step, dict)}


def test_the_neighbourhood_never_runs_through_the_pack_hub(example_graph: GraphStore) -> None:
    nodes = neighbours(example_graph, MEMORY_ABOUT)
    assert not any("relation_types" in node for node in nodes.values()), "a pack node was reached"
    placeholders = sorted(i for i, node in nodes.items() if "kind" not in node)
    assert placeholders == ["SM.AGENCY.GRUMMAN", "SM.PERSON.COLLINS"]  # Collins: crewed_by; Grumman: via Eagle
    assert len(nodes) == 15


def test_the_neighbourhood_leaves_out_entities_that_only_share_the_pack(example_graph: GraphStore) -> None:
    """Gagarin is in the pack but nowhere near Apollo 11: a walk through the hub would reach him in two hops."""
    ids = set(neighbours(example_graph, MEMORY_ABOUT))
    assert "SM.PERSON.GAGARIN" not in ids and "SM.MISSION.LUNA9" not in ids


def test_dangling_links_name_the_declaring_file(example_graph: GraphStore) -> None:
    rows = example_graph.read("browser_dangling")
    assert [(r["file"], r["relation"], r["missing_target"]) for r in rows] == [
        ("craft/eagle.md", "BUILT_BY", "SM.AGENCY.GRUMMAN"),
        ("missions/apollo-11.md", "CREWED_BY", "SM.PERSON.COLLINS"),
    ]


def test_the_memory_question_finds_the_record_about_the_entity(example_graph: GraphStore) -> None:
    rows = example_graph.read("browser_memory", id=MEMORY_ABOUT)
    assert [(r["project"], r["workspace"]) for r in rows] == [("analysts", "notes")]


def test_placeholders_are_styled_apart_and_titles_are_captions() -> None:
    style = style_grass()
    missing = style[style.index("node.Missing {") :].split("\n}", 1)[0]
    assert "color: #FFFFFF" in missing and "border-color: #D0342C" in missing
    assert 'caption: "{id}"' in missing  # a placeholder has no title of its own
    assert 'caption: "{title}"' in style[style.index("node.Entity {") :].split("\n}", 1)[0]
    assert style.index("node.Entity {") < style.index("node.Missing {"), "Browser applies later rules last"


def test_the_guide_server_answers_any_origin() -> None:
    server = guide_server("127.0.0.1", 0)
    Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        with urllib.request.urlopen(f"{base}/guide.html", timeout=5) as answer:
            assert answer.headers["Access-Control-Allow-Origin"] == "*"
            assert answer.read().decode() == guide_html()
        with urllib.request.urlopen(f"{base}/style.grass", timeout=5) as answer:
            assert answer.read().decode() == style_grass()
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(f"{base}/../etc/passwd", timeout=5)
    finally:
        server.shutdown()
        server.server_close()


def test_the_local_bundle_puts_the_guide_beside_browser(tmp_path: Path) -> None:
    import zipfile

    layout = Layout(tmp_path)
    layout.lib.mkdir(parents=True)
    with zipfile.ZipFile(layout.lib / "neo4j-browser-5.24.0.jar", "w") as jar:
        for name in ("META-INF/", "browser/", "browser/index.html", "browser/assets/", "browser/assets/a.js"):
            jar.writestr(name, b"" if name.endswith("/") else b"x")
    assert browser.ensure_bundle(layout) is True
    assert browser.ensure_bundle(layout) is False, "an unchanged bundle is not written again"
    with zipfile.ZipFile(browser.web_dir(layout) / browser.BUNDLE) as bundle:
        names = bundle.namelist()
        assert names[0] == "browser/", "Neo4j serves the zip's first entry as Browser's root"
        assert "META-INF/" not in names and "browser/assets/" in names and "browser/graphrag/" in names
        assert bundle.read("browser/graphrag/guide.html").decode() == guide_html()
    lines = browser.config_lines(layout, 7474)
    assert f"internal.dbms.web_dir_path={browser.web_dir(layout)}" in lines
    assert f"browser.post_connect_cmd={post_connect_command('http://127.0.0.1:7474/browser/graphrag')}" in lines


def test_the_style_is_applied_inline_and_its_frame_cleared_before_the_guide_opens() -> None:
    """Fetched from a URL, the style came in a frame a screen high showing its text, after any `clear` had run."""
    commands = post_connect_command("http://127.0.0.1:7474/browser/graphrag").split(";")  # as Browser splits it
    assert [c.strip().split(" ", 1)[0] for c in commands] == ["style", "clear", "guide"]
    assert commands[0].strip() == f"style {style_json()}"
    rules = json.loads(style_json())
    assert rules["node.Missing"]["caption"] == "{id}" and rules["node.Entity"]["caption"] == "{title}"
    assert rules["node"]["diameter"] == "50px" and list(rules) == [
        "node", "relationship", "node.Entity", "node.Pack", "node.Missing", "node.MemoryRecord"
    ]  # fmt: skip
