"""A hub (an entity hundreds of others link to, each linking on) read through pack_graph: the walk is bounded
by what it may return, so any depth answers with the limit's entities and ``truncated``, never every path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphrag.retrieval import graph
from tests.server.conftest import write_entity

SPOKES = 400


def hub_pack(root: Path) -> Path:
    root.mkdir()
    write_entity(root, "HUB", kind="index", title="Hub", summary="Everything links here.")
    for i in range(SPOKES):
        onward = f"[HUB, S.{(i + 1) % SPOKES}]"
        write_entity(root, f"S.{i:03}", kind="spoke", title=f"Spoke {i}", related=f"{{part_of: {onward}}}")
    return root


async def test_a_deep_walk_from_a_hub_stops_at_the_limit(tmp_path: Path, run_ingest, client_for) -> None:  # type: ignore[no-untyped-def]
    run_ingest(hub_pack(tmp_path / "hub"))
    async with client_for() as client:
        for depth in (1, 4):
            answer: dict[str, Any] = (
                await client.call_tool("pack_graph", {"id": "HUB", "depth": depth, "limit": 10})
            ).structured_content
            assert [n["id"] for n in answer["nodes"]] == ["HUB", *(f"S.{i:03}" for i in range(10))]
            assert answer["truncated"] is True and answer["omitted"] == SPOKES - 10
        who = {"id": "HUB", "relations": ["part_of"], "depth": 1, "limit": 50}
        inward = (await client.call_tool("pack_graph", {**who, "direction": "in"})).structured_content
        assert len(inward["nodes"]) == 51 and inward["omitted"] == SPOKES - 50
        outward = (await client.call_tool("pack_graph", {**who, "direction": "out"})).structured_content
        assert [n["id"] for n in outward["nodes"]] == ["HUB"] and outward["truncated"] is False


async def test_a_relation_path_through_a_hub_goes_on_from_a_bounded_frontier(  # type: ignore[no-untyped-def]
    tmp_path: Path, run_ingest, client_for, monkeypatch
) -> None:
    run_ingest(hub_pack(tmp_path / "hub"))
    monkeypatch.setattr(graph, "MAX_FRONTIER", 100)
    async with client_for() as client:
        answer = (
            await client.call_tool("pack_graph", {"id": "HUB", "path": ["^part_of", "part_of"], "limit": 50})
        ).structured_content
    assert answer["truncated"] is True
    assert set(answer["reached"]) <= {"HUB", *(f"S.{i:03}" for i in range(101))}


async def test_a_hubs_links_read_in_pages_of_hundreds(tmp_path: Path, run_ingest, client_for) -> None:  # type: ignore[no-untyped-def]
    run_ingest(hub_pack(tmp_path / "hub"))
    pages: list[list[dict[str, Any]]] = []
    cursor = "start"
    async with client_for() as client:
        while cursor:
            page = (await client.call_tool("pack_get", {"id": "HUB", "cursor": cursor})).structured_content
            pages.append(page.get("incoming") or [])
            cursor = page["next_cursor"]
    assert [link["id"] for page in pages for link in page] == [f"S.{i:03}" for i in range(SPOKES)]
    # with summaries a page would hold fewer than 200 links: previews go without them, and without the fields
    # at their defaults (each preview travels twice: structured and text content); 70 a page before
    assert [len(page) for page in pages] == [195, 195, 10]
    assert pages[0][0] == {"relation": "part_of", "id": "S.000", "kind": "spoke", "title": "Spoke 0"}


async def test_a_link_says_its_file_only_when_its_source_did_not_declare_it(  # type: ignore[no-untyped-def]
    tmp_path: Path, run_ingest, client_for
) -> None:
    pack = tmp_path / "parts"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: parts\nrelations:\n  part_of: {inverse: has_part}\n", encoding="utf-8")
    write_entity(pack, "WHOLE", title="Whole", related="{has_part: [WHEEL]}")  # declared by the target
    write_entity(pack, "WHEEL", title="Wheel")
    write_entity(pack, "AXLE", title="Axle", related="{part_of: [WHOLE]}")
    run_ingest(pack)
    async with client_for() as client:
        whole = (await client.call_tool("pack_get", {"id": "WHOLE"})).structured_content
    assert {link["id"]: link.get("declared_in") for link in whole["incoming"]} == {"AXLE": None, "WHEEL": "whole.md"}
