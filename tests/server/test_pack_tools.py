"""pack_search, pack_graph and pack_get on the example pack, through the in-process MCP client."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.retrieval.models import EntityPage, GraphResult
from graphrag.retrieval.vocabulary import Described, RelationVocabulary, Step
from graphrag.server.answers import SearchAnswer
from graphrag.server.budget import MARKER
from ingest.pipeline import DESCRIPTION_CHARS
from tests.conftest import EXAMPLES
from tests.server.conftest import write_entity


async def call(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def error(client: Client[Any], tool: str, **arguments: Any) -> str:
    with pytest.raises(ToolError) as caught:
        await client.call_tool(tool, arguments)
    return str(caught.value)


async def test_tools_are_typed_read_only_with_output_schemas(example: Client[Any]) -> None:
    tools = {tool.name: tool for tool in await example.list_tools()}

    assert set(tools) >= {"pack_context", "pack_search", "pack_graph", "pack_get"}
    for name in ("pack_context", "pack_search", "pack_graph", "pack_get"):
        assert tools[name].annotations is not None and tools[name].annotations.read_only_hint
        assert tools[name].output_schema is not None
        assert tools[name].input_schema["additionalProperties"] is False
    assert tools["pack_graph"].input_schema["properties"]["direction"]["enum"] == ["out", "in", "both"]


async def test_search_ranks_across_languages_with_provenance(example: Client[Any]) -> None:
    found = SearchAnswer.model_validate(
        await call(example, "pack_search", query="first soft landing on the Moon", mode="vector")
    )

    assert found.results[0].id == "SM.MISSION.LUNA9"  # a Russian summary found by an English query
    top = found.results[0]
    assert (top.pack, top.kind, top.path) == ("space-missions", "mission", "missions/luna-9.md")
    assert len(top.sha256) == 64 and top.summary.startswith("Первая мягкая посадка")
    assert [h.score for h in found.results] == sorted((h.score for h in found.results), reverse=True)


async def test_search_filters_and_clamps(example: Client[Any]) -> None:
    vehicles = await call(example, "pack_search", query="rocket", kinds=["launch_vehicle"], limit=500)
    assert {h["kind"] for h in vehicles["results"]} == {"launch_vehicle"}
    assert len(vehicles["results"]) == 4
    one = await call(example, "pack_search", query="rocket", limit=0, packs=["space-missions"])
    assert len(one["results"]) == 1
    message = await error(example, "pack_search", query="rocket", packs=["space-missions"], kinds=["nothing"])
    assert message.startswith("invalid_argument: unknown kind 'nothing'; nearest known kinds: ")
    message = await error(example, "pack_search", query="rocket", packs=["no-such-pack"])
    assert message == "invalid_argument: unknown pack 'no-such-pack'; nearest known packs: space-missions"


async def test_relation_path_reaches_the_chief_designers(example: Client[Any]) -> None:
    answer = GraphResult.model_validate(
        await call(example, "pack_graph", id="SM.MISSION.LUNA9", path=["part_of", "operated_by", "led_by"])
    )

    assert answer.reached == ["SM.PERSON.BABAKIN", "SM.PERSON.KOROLEV"]
    assert answer.paths is not None
    assert [
        "SM.MISSION.LUNA9", "part_of", "SM.PROGRAM.LUNA", "operated_by", "SM.AGENCY.OKB1", "led_by", "SM.PERSON.KOROLEV"
    ] in answer.paths  # fmt: skip
    assert {(e.source, e.relation, e.target) for e in answer.edges} >= {
        ("SM.AGENCY.OKB1", "led_by", "SM.PERSON.KOROLEV")
    }
    assert answer.nodes[0].id == "SM.MISSION.LUNA9" and answer.nodes[0].depth == 0


async def test_relation_path_lists_placeholders_reached_apart(example: Client[Any]) -> None:
    crew = GraphResult.model_validate(await call(example, "pack_graph", id="SM.MISSION.APOLLO11", path=["crewed_by"]))

    assert crew.reached == ["SM.PERSON.ALDRIN", "SM.PERSON.ARMSTRONG"]
    assert crew.reached_missing == ["SM.PERSON.COLLINS"]  # linked to, but no file defines him
    assert {n.id for n in crew.nodes if n.missing} == {"SM.PERSON.COLLINS"}
    only_him = await call(example, "pack_graph", id="SM.MISSION.APOLLO11", path=["crewed_by"], to="SM.PERSON.COLLINS")
    assert (only_him["reached"], only_him["reached_missing"]) == ([], ["SM.PERSON.COLLINS"])
    assert only_him["paths"] == [["SM.MISSION.APOLLO11", "crewed_by", "SM.PERSON.COLLINS"]]
    assert {n["id"] for n in only_him["nodes"]} == {"SM.MISSION.APOLLO11", "SM.PERSON.COLLINS"}


async def test_backward_steps_and_declared_inverse_names(example: Client[Any]) -> None:
    # who flew on missions that Korolev's bureau operated programmes for: ^led_by, ^operated_by, has_part
    chain = await call(example, "pack_graph", id="SM.PERSON.KOROLEV", path=["^led_by", "operates", "has_part"])
    assert "SM.MISSION.LUNA9" in chain["reached"] and "SM.MISSION.VOSTOK1" in chain["reached"]
    assert chain["paths"][0][1::2] == ["^led_by", "^operated_by", "^part_of"]  # inverse names spelled as walked
    parts = await call(example, "pack_graph", id="SM.PROGRAM.LUNA", relations=["has_part"], direction="out", depth=1)
    assert {n["id"] for n in parts["nodes"]} == {
        "SM.PROGRAM.LUNA",
        "SM.MISSION.LUNA3",
        "SM.MISSION.LUNA9",
        "SM.MISSION.LUNA17",
    }
    assert {e["relation"] for e in parts["edges"]} == {"part_of"}


async def test_neighbourhood_depth_limit_and_placeholders(example: Client[Any]) -> None:
    near = await call(example, "pack_graph", id="SM.MISSION.APOLLO11", depth=1)
    collins = next(n for n in near["nodes"] if n["id"] == "SM.PERSON.COLLINS")
    assert collins == {
        "id": "SM.PERSON.COLLINS",
        "kind": None,
        "title": "SM.PERSON.COLLINS",
        "depth": 1,
        "missing": True,
    }
    assert near["truncated"] is False and near["omitted"] == 0
    assert {n["depth"] for n in near["nodes"]} == {0, 1}

    cut = await call(example, "pack_graph", id="SM.MISSION.APOLLO11", depth=9, limit=3)  # depth clamps to 4
    assert len(cut["nodes"]) == 4 and cut["truncated"] is True
    deep = await call(example, "pack_graph", id="SM.MISSION.APOLLO11", depth=4, limit=500)
    # the walk stops where the limit falls: omitted counts the entities left out at that depth
    assert cut["omitted"] == sum(n["depth"] == 1 for n in deep["nodes"]) - 3
    assert max(n["depth"] for n in deep["nodes"]) == 4

    outgoing = await call(example, "pack_graph", id="SM.MISSION.LUNA9", depth=1, direction="out")
    assert {n["id"] for n in outgoing["nodes"]} == {
        "SM.MISSION.LUNA9", "SM.PROGRAM.LUNA", "SM.VEHICLE.MOLNIYA", "SM.BODY.MOON", "SM.TECH.SOFTLANDING",
        "SM.MISSION.LUNA17",
    }  # fmt: skip
    # edges are every link among the listed entities (Luna 17 also studies the Moon), not only those walked
    assert {"source": "SM.MISSION.LUNA17", "relation": "studies", "target": "SM.BODY.MOON", "weight": None} in outgoing[
        "edges"
    ]


async def test_shortest_typed_paths(example: Client[Any]) -> None:
    answer = await call(example, "pack_graph", id="SM.MISSION.LUNA9", to="SM.PERSON.KOROLEV", depth=3)
    assert answer["paths"] == [
        [
            "SM.MISSION.LUNA9",
            "launched_by",
            "SM.VEHICLE.MOLNIYA",
            "built_by",
            "SM.AGENCY.OKB1",
            "led_by",
            "SM.PERSON.KOROLEV",
        ],
        [
            "SM.MISSION.LUNA9",
            "part_of",
            "SM.PROGRAM.LUNA",
            "operated_by",
            "SM.AGENCY.OKB1",
            "led_by",
            "SM.PERSON.KOROLEV",
        ],
    ]
    assert (await call(example, "pack_graph", id="SM.MISSION.LUNA9", to="SM.PERSON.KOROLEV", depth=2))["paths"] == []


async def test_graph_errors_carry_codes_and_help(example: Client[Any]) -> None:
    message = await error(example, "pack_graph", id="SM.MISSION.LUNA-9")
    assert message.startswith(
        "not_found: no entity has the id 'SM.MISSION.LUNA-9'; nearest known ids: SM.MISSION.LUNA9"
    )
    assert (await error(example, "pack_graph", id="SM.MISSION.LUNA9", to="SM.PERSON.NOBODY")).startswith("not_found:")
    message = await error(example, "pack_graph", id="SM.MISSION.LUNA9", relations=["flies_to"])
    assert message.startswith("invalid_argument: unknown relation 'flies_to'; nearest known relations: flew, ")
    assert message.endswith("(20 known; pack_catalog lists them all)")
    assert (await error(example, "pack_graph", id="SM.MISSION.LUNA9", path=["part_of", "x"])).startswith(
        "invalid_argument: unknown relation 'x'"
    )
    assert (await error(example, "pack_graph", id="SM.MISSION.LUNA9", depth="deep")).startswith("invalid_argument:")
    assert (await error(example, "pack_get", id="SM.NOPE")).startswith("not_found:")


async def test_get_returns_the_whole_entity(example: Client[Any]) -> None:
    page = EntityPage.model_validate(await call(example, "pack_get", id="SM.MISSION.APOLLO11"))

    assert page.complete and page.next_cursor is None
    assert page.content.startswith("\n# Apollo 11\n") and "Sea of Tranquility" in page.content
    assert page.properties == {"aliases": [], "date": "1969-07-16", "language": "en", "tags": []}
    assert page.outgoing is not None and page.incoming is not None
    eagle = next(link for link in page.outgoing if link.id == "SM.CRAFT.EAGLE")
    assert (eagle.relation, eagle.weight, eagle.note, eagle.declared_in) == ("carries", 1.0, "the lunar module", None)
    assert eagle.summary and eagle.title == "Eagle (lunar module)"
    assert any(link.id == "SM.PERSON.COLLINS" and link.missing for link in page.outgoing)
    assert {link.id for link in page.incoming} == {"SM.MISSION.APOLLO8"}
    metadata = await call(example, "pack_get", id="SM.MISSION.APOLLO11", format="metadata")
    assert metadata["content"] == "" and metadata["complete"] is True and metadata["revision"] == page.revision


async def test_a_name_two_packs_declare_differently_keeps_both_meanings(
    run_ingest, client_for, graph, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    # space-missions declares `required_by` as the inverse of depends_on; this pack as that of requires
    pack = tmp_path / "standards"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: standards\nrelations:\n  requires: {inverse: required_by}\n", encoding="utf-8")
    write_entity(pack, "STD.BASE", summary="The base standard.")
    write_entity(pack, "STD.EXT", summary="An extension.", related="{requires: [STD.BASE]}")
    run_ingest(EXAMPLES / "space-missions", pack)
    async with client_for() as client:
        ours = await call(client, "pack_graph", id="STD.BASE", path=["required_by"])
        theirs = await call(client, "pack_graph", id="SM.TECH.SOFTLANDING", path=["required_by"])
        asked = await call(client, "pack_search", query="Which standards is STD.BASE required by?", packs=["standards"])

    assert ours["reached"] == ["STD.EXT"] and ours["paths"] == [["STD.BASE", "^requires", "STD.EXT"]]
    assert {"SM.CRAFT.EAGLE", "SM.MISSION.LUNA9"} <= set(theirs["reached"])  # the missions' meaning walks too
    assert [h["id"] for h in asked["results"]][:2] == ["STD.BASE", "STD.EXT"]
    assert asked["results"][1]["via"] == ["STD.BASE", "^requires", "STD.EXT"]
    # a relationship type is one across packs, so any pack's name for it serves all (required_by for
    # depends_on): a search reads every pack's names, each with all its meanings
    assert RelationVocabulary(graph).names()["required_by"] == (Step("DEPENDS_ON", False), Step("REQUIRES", False))


async def test_relation_words_no_name_spells_are_read_from_the_relations_descriptions(
    run_ingest, client_for, graph, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    # Spack's recipes say "depends_on(type=build)": the relation's name has no "needed to build" in it
    pack = tmp_path / "recipes"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: recipes\nrelations:\n"
        "  depends_on: {description: Needed at link or run time.}\n"
        "  build_depends_on: {description: Needed only to build the package.}\n"
        "  test_depends_on: {description: Needed only to test the package.}\n",
        encoding="utf-8",
    )
    links = "{depends_on: [pkg.abseil], build_depends_on: [pkg.yacc, pkg.zig], test_depends_on: [pkg.bats]}"
    write_entity(pack, "pkg.app", kind="package", summary="An application.", related=links)
    write_entity(pack, "pkg.consumer", kind="package", summary="Builds on it.", related="{build_depends_on: [pkg.app]}")
    for name in ("abseil", "yacc", "zig", "bats"):
        write_entity(pack, f"pkg.{name}", kind="package", summary=f"The {name} package.")
    run_ingest(pack)
    async with client_for() as client:
        asked = await call(client, "pack_search", query="What is needed to build pkg.app?", packs=["recipes"])

    assert [h["id"] for h in asked["results"]][:3] == ["pkg.app", "pkg.yacc", "pkg.zig"]
    assert asked["results"][1]["via"] == ["pkg.app", "build_depends_on", "pkg.yacc"]
    described = RelationVocabulary(graph).described()
    assert (
        Described("build_depends_on", Step("BUILD_DEPENDS_ON", True), "Needed only to build the package.") in described
    )


async def test_a_wordy_relation_description_is_clipped_in_the_catalog(run_ingest, client_for, graph, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "wordy"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        f"id: wordy\nrelations:\n  cites: {{description: {'word ' * 5000}}}\n", encoding="utf-8"
    )
    write_entity(pack, "W.A", summary="One entity.")
    run_ingest(pack)
    async with client_for() as client:
        catalog = await call(client, "pack_catalog")

    described = catalog["packs"][0]["relation_descriptions"]["cites"]
    assert described.startswith("word word") and described.endswith(MARKER) and len(described) == 300 + len(MARKER)
    (stored,) = RelationVocabulary(graph).described()  # the graph keeps what search and the catalog read
    assert len(stored.description) == DESCRIPTION_CHARS
