"""MCP resources (``pack://{id}`` as markdown) and the multi-hop prompt, through FastMCP's real client against
the real server and stores: content, the response budget, coded errors and hostile ids."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from mcp.types import TextResourceContents

from tests.server.conftest import write_entity


async def read(client: Client[Any], uri: str) -> str:
    contents = await client.read_resource(uri)
    assert len(contents) == 1 and isinstance(contents[0], TextResourceContents)
    assert contents[0].mime_type == "text/markdown"
    return contents[0].text


async def refused(client: Client[Any], uri: str) -> str:
    with pytest.raises(Exception) as caught:
        await client.read_resource(uri)
    return str(caught.value)


async def test_entities_are_markdown_resources_by_template(example: Client[Any]) -> None:
    templates = {t.uri_template: t for t in await example.list_resource_templates()}
    assert templates["pack://{id}"].mime_type == "text/markdown"

    apollo = await read(example, "pack://SM.MISSION.APOLLO11")
    assert apollo.startswith("# Apollo 11\n")
    assert "- kind: mission" in apollo and "- path: `missions/apollo-11.md`" in apollo
    assert "## Body" in apollo and "Apollo 11 landed in the Sea of Tranquility." in apollo
    # said once: the body holds the title heading and the summary; empty values are left out
    assert apollo.count("Apollo 11\n") == 1 and apollo.count("The first crewed lunar landing") == 1
    assert "aliases" not in apollo and "tags" not in apollo
    assert await read(example, "pack://sm.mission.apollo11") == apollo  # an id in another case
    assert "- → crewed_by [SM.PERSON.COLLINS](pack://SM.PERSON.COLLINS) (placeholder)" in apollo
    assert "- ← precedes [Apollo 8](pack://SM.MISSION.APOLLO8)" in apollo
    assert "- date: 1969-07-16" in apollo

    collins = await read(example, "pack://SM.PERSON.COLLINS")
    assert "placeholder: linked to, but no file defines it" in collins
    assert "- ← crewed_by [Apollo 11](pack://SM.MISSION.APOLLO11)" in collins


@pytest.mark.parametrize(
    ("uri", "code"),
    [
        ("pack://bad%20id", "invalid_argument: 'bad id' is not an entity id"),
        ("pack://%00", "invalid_argument: '\\x00' is not an entity id"),
        ("pack://%ED%A0%80", "invalid_argument: "),  # a lone surrogate, UTF-8 encoded: not text
        ("pack://" + "L" * 600, "invalid_argument: 'LLLL"),
        ("pack://SM.MISSION.LUNA-9", "not_found: no entity has the id 'SM.MISSION.LUNA-9'; nearest known ids: "),
        ("other://SM.MISSION.LUNA9", "not_found: no resource has the address 'other://SM.MISSION.LUNA9'"),
    ],
)
async def test_hostile_and_unknown_addresses_are_coded(example: Client[Any], uri: str, code: str) -> None:
    message = await refused(example, uri)
    assert code in message, message
    assert len(message) < 1_000


async def test_a_large_entity_fits_the_budget_and_says_what_is_left_out(tmp_path: Path, run_ingest, client_for) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "notes"
    root.mkdir()
    targets = ", ".join(f"N.T{i:04d}" for i in range(2_000))
    write_entity(
        root, "N.HUB", body="A line of the hub's body.\n" * 4_000, title="Hub", related=f"{{uses: [{targets}]}}"
    )
    (root / "plain.md").write_text("---\ntitle: Plain note\nrelated: {uses: [N.HUB]}\n---\nShort.\n")
    run_ingest(root)
    async with client_for(graphrag_response_budget_bytes=8_000) as client:
        contents = await client.read_resource("pack://N.HUB")
        hub = contents[0].text  # type: ignore[union-attr]
        size = len(json.dumps(contents[0].model_dump(mode="json", exclude_none=True)).encode())
        plain = await read(client, "pack://notes%2Fplain")  # the default id <pack>/<path>, its '/' encoded
    assert size <= 8_000
    assert "[… the body goes on for " in hub and "pack_get(id='N.HUB', cursor='start')" in hub
    assert "## Links (2001)" in hub and "more links: pack_get(id='N.HUB', cursor='start') lists them all" in hub
    assert "# Plain note" in plain and "- → uses [Hub](pack://N.HUB)" in plain


async def test_multi_hop_prompt_guides_through_the_tools(example: Client[Any]) -> None:
    prompts = {p.name: p for p in await example.list_prompts()}
    assert {a.name for a in prompts["multi_hop_answer"].arguments or []} == {"question", "packs"}

    result = await example.get_prompt(
        "multi_hop_answer", {"question": "Who led the bureau behind Luna 9?", "packs": "space-missions"}
    )
    text = result.messages[0].content.text  # type: ignore[union-attr]
    assert 'pack_context(question="Who led the bureau behind Luna 9?", packs=["space-missions"])' in text
    assert text.index("pack_context") < text.index("pack_graph") < text.index("pack_get(id)")
    assert "reached_missing" in text and "cursor='start'" in text


async def test_prompt_arguments_are_checked(example: Client[Any], client_for) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Exception, match="invalid_argument: packs: 'no such pack!' is not a pack id"):
        await example.get_prompt("multi_hop_answer", {"question": "x", "packs": "space-missions, no such pack!"})
    with pytest.raises(Exception, match="invalid_argument: "):
        await example.get_prompt("multi_hop_answer", {})
    with pytest.raises(Exception, match="not_found: no prompt is named 'nothing'"):
        await example.get_prompt("nothing", {})
    async with client_for(graphrag_response_budget_bytes=2_000) as small:
        with pytest.raises(Exception, match="response_too_large: the prompt for a question of 3,000 characters"):
            await small.get_prompt("multi_hop_answer", {"question": "why " * 750})
