"""Statuses (conflict > stale > unverified), inheritance through derived_from, and validate_memory."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.memory.records import NewRecord, save_steps
from graphrag.server.access import LOCAL_PROJECT
from graphrag.stores.graph import GraphStore
from tests.memory.conftest import save, search


async def statuses(client: Client[Any], **params: Any) -> dict[str, str]:
    return {h["content"]: h["status"] for h in await search(client, "", limit=50, **params)}


async def test_conflict_needs_same_key_same_workspace_and_other_content_or_hash(client: Client[Any]) -> None:
    await save(client, "on-call rotates weekly", fact_key="oncall")
    await save(client, "on-call rotates every two weeks", fact_key="oncall")
    await save(client, "vpn uses wireguard", fact_key="vpn", source_hash="sha256:1111111")
    await save(client, "vpn uses wireguard", fact_key="vpn", source_hash="sha256:1111111")  # identical twin
    await save(client, "vpn uses wireguard", fact_key="oncall-elsewhere", workspace="other")

    assert await statuses(client) == {
        "on-call rotates weekly": "conflict",
        "on-call rotates every two weeks": "conflict",
        "vpn uses wireguard": "unverified",
    }


async def test_same_content_other_source_hash_is_a_conflict(client: Client[Any]) -> None:
    await save(client, "logs are kept 14 days", fact_key="logs", source_hash="sha256:aaaaaaa")
    await save(client, "logs are kept 14 days", fact_key="logs", source_hash="sha256:bbbbbbb")
    assert set((await statuses(client)).values()) == {"conflict"}


async def test_conflict_outranks_stale(client: Client[Any]) -> None:
    await save(client, "retention is 7 days", fact_key="retention", source_hash="sha256:0000001")
    await save(client, "retention is 30 days", fact_key="retention", source_hash="sha256:0000002")

    found = await statuses(client, current_source_hash="sha256:0000002")
    assert found == {"retention is 7 days": "conflict", "retention is 30 days": "conflict"}
    # exclude_stale drops status "stale" only; a conflict that is also stale stays visible
    assert len(await search(client, "", current_source_hash="sha256:0000002", exclude_stale=True)) == 2


async def test_conflict_is_inherited_through_two_levels(client: Client[Any]) -> None:
    a = await save(client, "the cache TTL is 60 s", fact_key="cache-ttl")
    await save(client, "the cache TTL is 300 s", fact_key="cache-ttl")
    summary = await save(client, "caching summary: short TTLs", derived_from=[a["id"]])
    digest = await save(client, "weekly digest of infra facts", derived_from=[summary["id"]])
    clean = await save(client, "an unrelated summary", derived_from=[])

    assert summary["status"] == "conflict"
    assert digest["status"] == "conflict" and digest["derived_from"] == [summary["id"]]
    assert clean["status"] == "unverified"


async def test_records_saved_in_one_transaction_are_each_saved_as_alone(
    client: Client[Any], memory_graph: GraphStore
) -> None:
    """The save tool's queries take many records at once (the memory benchmark seeds with them)."""
    issue = await save(client, "the cache TTL is 60 s", fact_key="cache-ttl")
    await save(client, "the cache TTL is 300 s", fact_key="cache-ttl")
    together = [
        NewRecord(content=f"caching summary {n}", scope="shared", source="agent", derived_from=(issue["id"],))
        for n in range(3)
    ]
    ids, steps = save_steps(LOCAL_PROJECT, True, "default", together)
    memory_graph.write_together(steps)

    hits = await search(client, "caching summary", limit=10)
    assert sorted((h["id"], h["status"], tuple(h["derived_from"])) for h in hits) == sorted(
        (id_, "conflict", (issue["id"],)) for id_ in ids
    )


async def test_inheritance_stops_after_three_levels(client: Client[Any]) -> None:
    root = await save(client, "root fact", source_hash="sha256:abcdef0")
    chain = [root]
    for level in range(4):
        chain.append(await save(client, f"summary level {level + 1}", derived_from=[chain[-1]["id"]]))

    found = await statuses(client, current_source_hash="sha256:fffffff")
    assert found["root fact"] == "stale"
    assert [found[f"summary level {n}"] for n in (1, 2, 3, 4)] == ["stale", "stale", "stale", "unverified"]


async def test_validate_memory_marks_drift_persistently_and_clears_it(client: Client[Any]) -> None:
    first = await save(client, "the api base is /v1", source_id="docs/api.md", source_hash="sha256:1234567")
    await save(client, "the api uses bearer tokens", source_id="docs/api.md", source_hash="sha256:7654321")
    await save(client, "unrelated source", source_id="docs/other.md", source_hash="sha256:1234567")

    checked = (
        await client.call_tool("validate_memory", {"source_id": "docs/api.md", "current_source_hash": "sha256:7654321"})
    ).structured_content
    assert checked is not None
    assert checked["checked"] == 2 and checked["counts"] == {"unverified": 1, "stale": 1, "conflict": 0}
    stale = next(r for r in checked["records"] if r["status"] == "stale")
    assert stale["id"] == first["id"] and stale["stale_reason"] == "source_changed"
    # the mark persists: a later search without any hash still says stale
    assert (await statuses(client))["the api base is /v1"] == "stale"

    await client.call_tool("validate_memory", {"source_id": "docs/api.md", "current_source_hash": "sha256:1234567"})
    found = await statuses(client)
    assert found["the api base is /v1"] == "unverified" and found["the api uses bearer tokens"] == "stale"


async def test_validate_memory_errors(client: Client[Any]) -> None:
    await save(client, "something", source_id="docs/a.md")
    with pytest.raises(ToolError, match=r"^not_found: no records of source 'docs/b.md' in workspace 'default'$"):
        await client.call_tool("validate_memory", {"source_id": "docs/b.md"})
    expected = r"^workspace_inactive: workspace 'empty' is not active; nearest known workspaces: default$"
    with pytest.raises(ToolError, match=expected):
        await client.call_tool("validate_memory", {"source_id": "docs/a.md", "workspace": "empty"})


async def test_save_errors_carry_codes(client: Client[Any]) -> None:
    with pytest.raises(ToolError, match=r"^invalid_argument: content is empty"):
        await save(client, "   ")
    with pytest.raises(ToolError, match=r"^invalid_argument: confidence 1.5 is outside 0.0-1.0$"):
        await save(client, "x", confidence=1.5)
    with pytest.raises(ToolError, match=r"^not_found: derived_from names records not in workspace 'default'"):
        await save(client, "summary", derived_from=["no-such-id"])
    with pytest.raises(ToolError, match="workspace 'default' is not active"):
        await search(client, "x")  # failed saves activated nothing
