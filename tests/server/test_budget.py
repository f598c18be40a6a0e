"""The response budget and paged reading (docs/mcp.md) on packs built to break them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastmcp.exceptions import ToolError

from graphrag.server.budget import FIELD_UNITS, MARKER, clip, utf16_units
from tests.server.conftest import wire_bytes, write_entity

HITS = 300
SMILE = "\U0001f600"  # two UTF-16 code units


@pytest.mark.fast
def test_clip_counts_utf16_and_never_splits_a_surrogate_pair() -> None:
    text = "a" * 1999 + SMILE + "b"
    assert utf16_units(text) == 2002
    assert clip(text, 2000) == "a" * 1999 + MARKER
    assert clip(text, 2001) == "a" * 1999 + SMILE + MARKER
    assert clip(text, 2002) == text
    assert clip("", 0) == ""


@pytest.fixture
def crowded(tmp_path: Path) -> Path:
    """Hundreds of entities with long summaries (surrogate pairs everywhere), one hub linked to all."""
    root = tmp_path / "crowded"
    root.mkdir()
    (root / "pack.yaml").write_text("id: crowded\n")
    for i in range(HITS):
        summary = f"Rocket engine {i} " + (SMILE + "тяга ") * 360
        write_entity(root, f"C.{i:03d}", kind="engine", title=f'"Engine {i}"', summary=f'"{summary}"')
    targets = ", ".join(f"C.{i:03d}" for i in range(HITS))
    write_entity(root, "C.HUB", kind="hub", title="Hub", related=f"{{relates_to: [{targets}]}}")
    return root


async def test_a_crowded_pack_within_budgets(crowded: Path, run_ingest, client_for) -> None:
    """One ingest (embedding hundreds of long summaries is slow) for the three crowded cases."""
    run_ingest(crowded)
    await hundreds_of_hits_keep_order_and_metadata(client_for)
    await hits_that_cannot_fit_are_left_out_from_the_end_and_counted(client_for)
    await graph_answer_is_cut_by_the_budget_and_says_so(client_for)
    await links_read_in_pages_even_at_the_smallest_budget(client_for)


async def hundreds_of_hits_keep_order_and_metadata(client_for) -> None:  # type: ignore[no-untyped-def]
    async with client_for() as client:
        result = await client.call_tool(
            "pack_search", {"query": "rocket engine thrust", "limit": 50, "kinds": ["engine"]}
        )
    hits = result.structured_content["results"]

    assert len(hits) == 50 and result.structured_content["omitted"] == 0
    assert wire_bytes(result) <= 32_000
    assert all(h["content_truncated"] and h["summary"].endswith(MARKER) for h in hits)
    assert all(utf16_units(h["summary"]) <= FIELD_UNITS + len(MARKER) for h in hits)
    for hit in hits:
        hit["summary"].encode("utf-8")  # strict: a lone surrogate would raise
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


async def hits_that_cannot_fit_are_left_out_from_the_end_and_counted(client_for) -> None:  # type: ignore[no-untyped-def]
    """limit=50 always answers: when even empty summaries leave 50 hits too large, the best ones are listed."""
    search = {"query": "rocket engine thrust", "limit": 50, "kinds": ["engine"]}
    async with client_for() as client:
        whole = (await client.call_tool("pack_search", search)).structured_content["results"]
    async with client_for(graphrag_response_budget_bytes=8_000) as client:
        result = await client.call_tool("pack_search", search)
    answer = result.structured_content

    assert wire_bytes(result) <= 8_000
    assert 0 < answer["omitted"] < 50 and len(answer["results"]) + answer["omitted"] == 50
    assert [h["id"] for h in answer["results"]] == [h["id"] for h in whole[: len(answer["results"])]]
    assert all(h["content_truncated"] for h in answer["results"])


async def graph_answer_is_cut_by_the_budget_and_says_so(client_for) -> None:  # type: ignore[no-untyped-def]
    async with client_for(graphrag_response_budget_bytes=8_000) as client:
        result = await client.call_tool("pack_graph", {"id": "C.HUB", "depth": 1, "limit": 500})
    answer = result.structured_content

    assert wire_bytes(result) <= 8_000
    assert answer["truncated"] is True
    assert len(answer["nodes"]) - 1 + answer["omitted"] == HITS
    kept = {n["id"] for n in answer["nodes"]}
    assert all(e["source"] in kept and e["target"] in kept for e in answer["edges"])


async def links_read_in_pages_even_at_the_smallest_budget(client_for) -> None:  # type: ignore[no-untyped-def]
    async with client_for(graphrag_response_budget_bytes=2_000) as client:
        whole = (await client.call_tool("pack_get", {"id": "C.HUB"})).structured_content
        pages = await read_pages(client, "C.HUB", 2_000)
        assert whole == pages[0]  # too large for one answer: its first page, with the cursor of the next
    links = [link for page in pages for link in page["outgoing"] or []]
    assert [link["id"] for link in links] == [f"C.{i:03d}" for i in range(HITS)]
    assert pages[0]["title"] == "Hub" and all(page["title"] is None for page in pages[1:])
    # fewer than 200 links fit a page with summaries: the previews go without them
    assert all(set(link) == {"relation", "id", "kind", "title"} for link in links)


async def read_pages(client, entity_id: str, budget: int) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    """Every page of ``pack_get(entity_id)``, each checked against the budget and the previous page's promises."""
    result = await client.call_tool("pack_get", {"id": entity_id, "cursor": "start"})
    pages = [result.structured_content]
    assert wire_bytes(result) <= budget
    while not pages[-1]["complete"]:
        result = await client.call_tool("pack_get", {"id": entity_id, "cursor": pages[-1]["next_cursor"]})
        assert wire_bytes(result) <= budget
        page = result.structured_content
        if not pages[-1]["links_complete"]:
            assert page["outgoing"] or page["incoming"], "a page after links_complete: false carries links"
        else:
            assert page["outgoing"] is None and page["incoming"] is None and page["content"]
        pages.append(page)
    assert pages[-1]["next_cursor"] is None and pages[-1]["links_complete"]
    return pages


async def test_a_hub_with_five_thousand_links_reads_whole_page_by_page(tmp_path: Path, run_ingest, client_for) -> None:
    """5,000 links out (to ids no file defines: placeholders, nothing to embed), three in, and a long body."""
    root = tmp_path / "hub"
    root.mkdir()
    targets = ", ".join(f"H.T{i:04d}" for i in range(5_000))
    body = "".join(f"Paragraph {i} about the hub.\n\n" for i in range(3_000))
    write_entity(root, "H.HUB", body=body, kind="hub", title="Hub", related=f"{{relates_to: [{targets}]}}")
    for i in range(3):
        write_entity(root, f"H.SPOKE{i}", kind="spoke", title=f"Spoke {i}", related="{part_of: H.HUB}")
    run_ingest(root)

    async with client_for() as client:
        pages = await read_pages(client, "H.HUB", 32_000)
    outgoing = [link["id"] for page in pages for link in page["outgoing"] or []]
    incoming = [link["id"] for page in pages for link in page["incoming"] or []]
    assert outgoing == [f"H.T{i:04d}" for i in range(5_000)]
    assert incoming == ["H.SPOKE0", "H.SPOKE1", "H.SPOKE2"]
    assert "".join(page["content"] for page in pages) == body
    assert len({page["revision"] for page in pages}) == 1
    assert len(pages) < 200  # compact link previews: not a page per handful of links


async def test_a_body_of_megabytes_reads_in_pages_exactly(tmp_path: Path, run_ingest, client_for) -> None:
    root = tmp_path / "big"
    root.mkdir()
    body = "".join(f'Строка {i}: lunar {SMILE} regolith "quoted" \\ back\n' for i in range(60_000))
    assert len(body.encode()) > 3_000_000
    write_entity(root, "BIG.1", body=body, kind="report", title="Big")
    run_ingest(root)

    async with client_for() as client:
        whole = (await client.call_tool("pack_get", {"id": "BIG.1"})).structured_content
        result = await client.call_tool("pack_get", {"id": "BIG.1", "cursor": "start"})
        assert whole == result.structured_content  # a body past the budget: the first page, not an error
        first = result.structured_content
        assert first["title"] == "Big" and first["outgoing"] == [] and not first["complete"]
        parts, page, pages = [first["content"]], first, 1
        while not page["complete"]:
            result = await client.call_tool("pack_get", {"id": "BIG.1", "cursor": page["next_cursor"]})
            assert wire_bytes(result) <= 32_000
            page = result.structured_content
            assert page["revision"] == first["revision"] and "title" not in {k for k, v in page.items() if v}
            parts.append(page["content"])
            pages += 1
    assert page["next_cursor"] is None
    assert "".join(parts) == body
    assert pages > 100


async def test_an_edit_between_pages_is_document_changed(pack_copy: Path, run_ingest, client_for) -> None:
    apollo = pack_copy / "missions" / "apollo-11.md"
    apollo.write_text(apollo.read_text() + "The descent, minute by minute.\n" * 400)
    run_ingest(pack_copy)
    async with client_for(graphrag_response_budget_bytes=8_000) as client:
        first = (
            await client.call_tool("pack_get", {"id": "SM.MISSION.APOLLO11", "cursor": "start"})
        ).structured_content
        assert not first["complete"]
        apollo.write_text(apollo.read_text().replace("Sea of Tranquility", "Mare Tranquillitatis"))
        run_ingest(pack_copy)
        with pytest.raises(ToolError, match=r"^document_changed: entity 'SM.MISSION.APOLLO11' changed"):
            await client.call_tool("pack_get", {"id": "SM.MISSION.APOLLO11", "cursor": first["next_cursor"]})
        with pytest.raises(
            ToolError, match=r"^invalid_argument: the cursor belongs to pack_get\(id='SM.MISSION.APOLLO11'"
        ):
            await client.call_tool("pack_get", {"id": "SM.BODY.MOON", "cursor": first["next_cursor"]})
        with pytest.raises(ToolError, match=r"^invalid_argument: cursor is not one this server gave out"):
            await client.call_tool("pack_get", {"id": "SM.BODY.MOON", "cursor": "garbage!"})
