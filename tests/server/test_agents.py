"""What an agent meets first, through FastMCP's client: a tool list it can afford, a catalog of what the packs
hold, filters that never answer a silent empty list, ids in any case, and words that say what each tool is for."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastmcp import Client
from fastmcp.exceptions import ToolError
from mcp.types import ListToolsResult

import graphrag
from graphrag.cli import main
from graphrag.server.app import create_server
from tests.server.conftest import TEAM_TOOLS, team_settings, write_entity

TOOLS_LIST_BYTES = 12_000  # issue 19: the tool list, compact JSON, on a default install


async def error(client: Client[Any], tool: str, **arguments: Any) -> str:
    with pytest.raises(ToolError) as caught:
        await client.call_tool(tool, arguments)
    return str(caught.value)


async def structured(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    result = (await client.call_tool(tool, arguments)).structured_content
    assert isinstance(result, dict)
    return result


def compact_size(listed: Any) -> int:
    """tools/list's result as it travels: compact JSON of the MCP result."""
    wire = ListToolsResult(tools=listed).model_dump(by_alias=True, exclude_none=True, mode="json")
    return len(json.dumps(wire, separators=(",", ":"), ensure_ascii=False).encode())


async def test_the_tool_list_is_small_and_says_every_argument_type(example: Client[Any]) -> None:
    listed = await example.list_tools()
    assert compact_size(listed) <= TOOLS_LIST_BYTES, compact_size(listed)
    names = {tool.name for tool in listed}
    assert names == {
        "pack_context", "pack_search", "pack_graph", "pack_get", "pack_catalog",
        "search", "save_memory", "validate_memory", "run_archivist",
    }  # fmt: skip
    for tool in listed:
        assert tool.output_schema is not None and tool.output_schema["type"] == "object", tool.name
        for name, schema in tool.input_schema["properties"].items():
            assert isinstance(schema.get("type"), str), (tool.name, name, schema)  # what clients build values by


async def test_team_tools_are_listed_only_over_http_with_github_and_tokens(
    run_ingest, settings, embedder, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    served = team_settings(settings, tmp_path / "tokens.yaml")
    async with Client(create_server(served, embedder=embedder, transport="http")) as http:
        listed = await http.list_tools()
        assert {tool.name for tool in listed} >= TEAM_TOOLS
        message = await error(http, "connect_source", repository="acme/handbook")  # a caller without a token
        assert message.startswith("forbidden: team sources need a caller with a token") and "stdio" not in message
    for transport, without in (("stdio", served), ("http", served.model_copy(update={"graphrag_tokens_file": None}))):
        async with Client(create_server(without, embedder=embedder, transport=transport)) as client:
            assert not TEAM_TOOLS & {tool.name for tool in await client.list_tools()}, transport


async def test_every_tool_is_named_in_the_instructions_and_the_serve_help(
    run_ingest, settings, embedder, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Some clients drop server instructions and people read ``--help``: both name every tool there is."""
    served = team_settings(settings, tmp_path / "tokens.yaml")
    async with Client(create_server(served, embedder=embedder, transport="http")) as http:
        names = {tool.name for tool in await http.list_tools()}
        instructions = http.instructions or ""
    help_text = CliRunner().invoke(main, ["serve", "--help"]).output
    assert names > TEAM_TOOLS
    assert [n for n in sorted(names) if not re.search(rf"\b{n}\b", instructions)] == []
    assert [n for n in sorted(names) if not re.search(rf"\b{n}\b", help_text)] == []


async def test_server_info_is_this_projects(example: Client[Any]) -> None:
    assert example.server_info is not None
    assert (example.server_info.name, example.server_info.version) == ("graphrag", graphrag.__version__)


async def test_descriptions_say_what_each_tool_is_for(example: Client[Any]) -> None:
    tools = {tool.name: tool.description or "" for tool in await example.list_tools()}
    assert tools["pack_context"].startswith("Call this first for a question")
    assert "memory records" in tools["search"] and "not the packs" in tools["search"]
    assert "pack_context" in tools["search"] and "pack_search" in tools["search"]
    prompt = (await example.list_prompts())[0]
    assert [(a.name, a.required) for a in prompt.arguments or []] == [("question", True), ("packs", False)]
    assert all("JSON schema" not in (a.description or "") for a in prompt.arguments or [])


async def test_the_catalog_lists_packs_kinds_and_relations_with_counts(example: Client[Any]) -> None:
    catalog = await structured(example, "pack_catalog")
    (pack,) = catalog["packs"]
    assert (pack["id"], pack["title"], pack["entities"]) == ("space-missions", "Space missions", 32)
    assert pack["kinds"]["mission"] == 7 and next(iter(pack["kinds"])) == "mission"  # most first
    assert catalog["relations"]["part_of"] == 8 and catalog["inverses"]["has_part"] == "part_of"
    assert pack["relations"] == catalog["relations"]  # one pack: its own are all
    assert pack["relation_descriptions"]["part_of"] == "A mission belongs to a programme."  # the author's words
    assert "packs://catalog" in [str(r.uri) for r in await example.list_resources()]
    text = (await example.read_resource("packs://catalog"))[0]
    assert json.loads(getattr(text, "text", "")) == catalog


@pytest.mark.parametrize("tool", ["pack_search", "pack_context"])
async def test_pack_and_kind_filters_refuse_unknown_names_with_the_nearest(example: Client[Any], tool: str) -> None:
    ask = {"query": "rocket"} if tool == "pack_search" else {"question": "rocket"}
    message = await error(example, tool, **ask, packs=["space-mission"])
    assert message == "invalid_argument: unknown pack 'space-mission'; nearest known packs: space-missions"
    message = await error(example, tool, **ask, kinds=["misions"])
    assert message.startswith("invalid_argument: unknown kind 'misions'; nearest known kinds: mission, ")
    assert message.endswith("(9 known; pack_catalog lists them all)")
    for empty in ("packs", "kinds"):
        assert (await error(example, tool, **ask, **{empty: []})).startswith(f"invalid_argument: {empty} is empty")
    for spelling in ("Mission", "missions", "MISSIONS"):  # any case, plural too
        found = await structured(example, tool, **ask, kinds=[spelling])
        entities = found["results"] if tool == "pack_search" else found["entities"]
        assert entities and {e["kind"] for e in entities} == {"mission"}, spelling


async def test_relation_filters_refuse_unknown_names_with_the_nearest(example: Client[Any]) -> None:
    for argument in ("relations", "path"):
        message = await error(example, "pack_graph", id="SM.MISSION.LUNA9", **{argument: ["part_off"]})
        assert message.startswith("invalid_argument: unknown relation 'part_off'; nearest known relations: part_of, ")
    message = await error(example, "pack_graph", id="SM.MISSION.LUNA9", relations=[])
    assert message.startswith("invalid_argument: relations is empty")


async def test_memory_filters_name_the_known_workspaces_and_scopes(example: Client[Any]) -> None:
    for workspace in ("notes", "nodes-archive"):
        await example.call_tool("save_memory", {"content": "x", "workspace": workspace, "scope": "shared"})
    message = await error(example, "search", query="x", workspace="note")
    assert (
        message == "workspace_inactive: workspace 'note' is not active; nearest known workspaces: notes, nodes-archive"
    )
    message = await error(example, "search", query="x", workspace="notes", scope="privat")
    assert message == "invalid_argument: unknown scope 'privat'; nearest known scopes: shared"
    found = await structured(example, "search", query="", workspace="notes", scope="Shared")
    assert [record["scope"] for record in found["result"]] == ["shared"]


async def test_ids_and_kinds_in_another_case_resolve_when_one_fits(tmp_path: Path, run_ingest, client_for) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "cases"
    root.mkdir()
    (root / "upper").mkdir()
    write_entity(root, "C.ONE", title="One", kind="note")
    write_entity(root, "C.Two", title="Two", kind="note")
    write_entity(root / "upper", "C.TWO", title="TWO", kind="Note")
    run_ingest(root)
    async with client_for() as client:
        assert (await structured(client, "pack_get", id="c.one"))["id"] == "C.ONE"
        assert (await structured(client, "pack_graph", id="c.one"))["nodes"][0]["id"] == "C.ONE"
        text = (await client.read_resource("pack://c.One"))[0]
        assert "id: `C.ONE`" in getattr(text, "text", "")
        assert (await structured(client, "pack_get", id="C.Two"))["title"] == "Two"  # an exact id is exact
        message = await error(client, "pack_get", id="c.two")
        assert message == "invalid_argument: the id 'c.two' is ambiguous in case: it may be C.TWO, C.Two"
        assert (await error(client, "pack_get", id="C.THREE")).startswith("not_found: no entity has the id 'C.THREE'")
        for spelling in ("NOTES", "Note", "note"):  # kinds apart only by case are one kind
            found = await structured(client, "pack_search", query="two", kinds=[spelling], mode="text")
            assert {hit["id"] for hit in found["results"]} == {"C.TWO", "C.Two"}, spelling
        (pack,) = (await structured(client, "pack_catalog"))["packs"]
        assert (pack["kinds"], pack["kind_spellings"]) == ({"note": 3}, {"note": ["Note", "note"]})
