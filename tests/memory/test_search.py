"""``search`` as docs/memory.md specifies it, through the in-process MCP client on the real Neo4j."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.exceptions import ToolError

from graphrag.memory.text import PREVIEW_CHARS
from tests.conftest import EXAMPLES
from tests.memory.conftest import save, search

CONTRACT_EXAMPLE = {
    "id": "4d428a41-e7b0-4f81-a886-f40c6f6c766c",
    "workspace": "default",
    "scope": "shared",
    "content": "staging выкатывается через systemd-юнит app-staging",
    "source": "agent",
    "source_id": "docs/deploy.md",
    "source_hash": "sha256:9f2c4e1a",
    "source_revision": "a1b2c3d",
    "fact_key": "deploy-staging",
    "confidence": 0.9,
    "status": "unverified",
    "derived_from": [],
    "score": 2,
    "graph_relations": [
        {
            "relation": "relates_to",
            "direction": "outgoing",
            "weight": 0.8,
            "target_id": "b7e1d0c2-5a44-4f0e-8f3a-2c9d1e6f0a11",
            "preview": "prod выкатывается через релизный пайплайн",
        }
    ],
    "created_at": "2026-10-05T09:12:00.412345+00:00",
    "updated_at": "2026-10-05T09:12:00.412345+00:00",
}
DEPLOY = {"source_id": "docs/deploy.md", "source_hash": "sha256:9f2c4e1a", "source_revision": "a1b2c3d"}


def shape(value: Any) -> Any:
    """Keys and JSON types, not values (a float weight and a null-or-string stay apart)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value[:1]]
    return type(value).__name__


async def test_contract_example_round_trips(client: Client[Any]) -> None:
    prod = await save(client, "prod выкатывается через релизный пайплайн", fact_key="deploy-prod", **DEPLOY)
    staging = await save(
        client, CONTRACT_EXAMPLE["content"], fact_key="deploy-staging", confidence=0.9, scope="shared", **DEPLOY
    )

    hits = await search(client, "staging выкатывается", workspace="default", limit=5)

    first = hits[0]
    assert first["id"] == staging["id"] and first["score"] == 2 and first["status"] == "unverified"
    expected = shape(CONTRACT_EXAMPLE)
    # superseded_by (listed in the field table, missing from the example) and the response budget's content_truncated
    assert shape(first) == {**expected, "superseded_by": "NoneType", "content_truncated": "bool"}
    relation = first["graph_relations"][0]
    assert relation["relation"] == "relates_to" and relation["direction"] == "outgoing"
    assert relation["target_id"] == prod["id"] and relation["preview"] == prod["content"]
    assert 0.4 <= relation["weight"] <= 1.0
    assert hits[1]["id"] == prod["id"] and hits[1]["score"] == 1
    assert hits[1]["graph_relations"][0]["direction"] == "incoming"


async def test_score_counts_matched_words_in_content_and_source(client: Client[Any]) -> None:
    await save(client, "Бэкапы базы делаются каждую ночь", source="telegram")
    await save(client, "Backups of the database run nightly", source="owner")
    await save(client, "数据库每天夜里备份", source="agent")

    assert [h["score"] for h in await search(client, "бэкапы базы telegram")] == [3]
    assert [h["source"] for h in await search(client, "database owner")] == ["owner"]
    chinese = await search(client, "数据库备份")
    assert chinese[0]["content"] == "数据库每天夜里备份" and chinese[0]["score"] >= 2
    # case, ё/е and stop words do not matter
    assert len(await search(client, "КАК ДЕЛАЮТСЯ бэкапы?")) == 1


async def test_ordering_by_score_then_recency_and_newest_version_first(client: Client[Any]) -> None:
    old = await save(client, "the build uses node 16", fact_key="node-version")
    other = await save(client, "the build cache lives in redis")
    new = await save(client, "the build uses node 20 now", fact_key="node-version")

    hits = await search(client, "build node")

    assert [h["id"] for h in hits] == [new["id"], old["id"], other["id"]]
    assert hits[1]["superseded_by"] == new["id"] and hits[0]["superseded_by"] is None
    assert [h["score"] for h in hits] == [2, 2, 1]


async def test_limit_is_clamped_and_empty_query_lists_latest(client: Client[Any]) -> None:
    saved = [await save(client, f"fact number {n}") for n in range(3)]

    assert len(await search(client, "fact", limit=0)) == 1
    assert len(await search(client, "fact", limit=-5)) == 1
    assert len(await search(client, "fact", limit=500)) == 3
    latest = await search(client, "", limit=2)
    assert [h["id"] for h in latest] == [saved[2]["id"], saved[1]["id"]]
    assert all(h["score"] == 0 for h in latest)


async def test_scope_filters_by_label(client: Client[Any]) -> None:
    await save(client, "deploy keys rotate monthly", scope="private")
    await save(client, "deploy happens on fridays", scope="shared")

    assert [h["scope"] for h in await search(client, "deploy", scope="private")] == ["private"]
    assert len(await search(client, "deploy")) == 2


async def test_current_source_hash_marks_stale_and_exclude_stale_drops(client: Client[Any]) -> None:
    await save(client, "api tokens expire after 30 days", source_id="docs/api.md", source_hash="sha256:aaaa111")
    await save(client, "api rate limit is 100 per minute", source_id="docs/api.md", source_hash="sha256:bbbb222")
    await save(client, "api has no provenance")

    hits = await search(client, "api", current_source_hash="sha256:bbbb222")
    status = {h["content"]: h["status"] for h in hits}
    assert status == {
        "api tokens expire after 30 days": "stale",
        "api rate limit is 100 per minute": "unverified",
        "api has no provenance": "unverified",  # nothing to compare: no source_hash
    }
    kept = await search(client, "api", current_source_hash="sha256:bbbb222", exclude_stale=True)
    assert {h["content"] for h in kept} == {"api rate limit is 100 per minute", "api has no provenance"}


async def test_expansion_with_fact_keys_when_nothing_matches(client: Client[Any]) -> None:
    saved = await save(client, "the blue-green switch happens at 02:00 UTC", fact_key="release-window")

    hits = await search(client, "когда у нас релизное окно release window?")  # no word of the content
    assert [h["id"] for h in hits] == [saved["id"]]
    assert hits[0]["score"] >= 1


async def test_expansion_with_pack_titles_and_aliases(client: Client[Any], run_ingest: Any) -> None:
    report = run_ingest(EXAMPLES / "space-missions")
    assert report.exit_code == 0
    saved = await save(client, "ОКБ-1 отвечало за ракету Р-7")  # the pack's entity SM.AGENCY.OKB1 has alias OKB-1

    hits = await search(client, "OKB 1 rocket design bureau")
    assert [h["id"] for h in hits] == [saved["id"]]


async def test_abstract_query_goes_to_expansion(client: Client[Any]) -> None:
    """``как у нас это?`` is stop words only: the first pass has no word, so any hit comes from the expansion.
    The nearest fact keys by meaning (cosine >= 0.4) become words; the measured cosines are 0.76 and 0.04."""
    near = await save(client, "как у нас это делается", fact_key="release-process")  # cosine 0.76 to the query
    await save(client, "staging выкатывается через systemd-юнит app-staging", fact_key="deploy-staging")  # 0.04

    hits = await search(client, "как у нас это?")
    assert [(h["id"], h["score"]) for h in hits] == [(near["id"], 2)]  # "release" and "process" of its fact key
    assert await search(client, "zzzz qqqq") == []  # unknown words, no project term: an empty answer


async def test_expansion_reaches_the_workspaces_facts_behind_another_workspaces_nearer_records(
    client: Client[Any],
) -> None:
    """The memory vector index spans every workspace: 70 records of another one, nearer to the query than this
    workspace's record, fill the first neighbours, and the lookup widens until it reaches this workspace's."""
    near = await save(client, "как у нас это делается", fact_key="release-process")
    for n in range(70):
        await save(client, "как у нас это?", workspace="crowd", source=f"agent-{n}")

    hits = await search(client, "как у нас это?")
    assert [(h["id"], h["score"]) for h in hits] == [(near["id"], 2)]


@pytest.mark.parametrize(
    "content",
    [
        "😀" * 130,  # astral: a surrogate pair each in UTF-16
        "部署" * 70,  # CJK, one BMP code point each
        "a" * 119 + "👨‍👩‍👧" + "tail",  # the 120th code point starts an emoji ZWJ sequence
        "коротко",
    ],
)
async def test_preview_is_the_first_120_code_points(client: Client[Any], content: str) -> None:
    target = await save(client, content, fact_key="preview-test-a")
    await save(client, content + " again", fact_key="preview-test-b")  # similar: relates_to the first

    hits = await search(client, "", limit=1)
    previews = [r["preview"] for r in hits[0]["graph_relations"] if r["target_id"] == target["id"]]
    assert previews == [content[:PREVIEW_CHARS]]
    assert len(previews[0]) == min(len(content), PREVIEW_CHARS)
    previews[0].encode("utf-16-le", errors="strict")  # no lone surrogate survived


async def test_inactive_workspace_is_refused_and_search_creates_nothing(client: Client[Any]) -> None:
    with pytest.raises(ToolError, match=r"^workspace_inactive: workspace 'nowhere' is not active$"):
        await search(client, "anything", workspace="nowhere")
    with pytest.raises(ToolError, match="workspace 'nowhere' is not active"):
        await search(client, "", workspace="nowhere")


async def test_search_is_read_only_with_an_output_schema(client: Client[Any]) -> None:
    tool = next(t for t in await client.list_tools() if t.name == "search")
    assert tool.annotations is not None and tool.annotations.read_only_hint is True
    assert tool.output_schema is not None and "result" in tool.output_schema["properties"]
    assert set(tool.input_schema["properties"]) == {
        "query", "workspace", "scope", "limit", "current_source_hash", "exclude_stale"
    }  # fmt: skip


TOPICS = [
    "kubernetes pods restart policy", "кошки спят на подоконнике", "数据库每天夜里备份", "quarterly tax filing dates",
    "рецепт борща со сметаной", "the office coffee machine descaling", "火星探测器着陆", "футбольный матч в субботу",
]  # fmt: skip


async def test_long_content_fits_the_response_budget(client: Client[Any]) -> None:
    for topic in TOPICS:
        await save(client, f"record {topic} 😀 " * 400)

    result = await client.call_tool("search", {"query": "record", "limit": 50})
    hits = result.structured_content["result"]  # type: ignore[index]
    assert len(hits) == len(TOPICS)
    assert all(h["content_truncated"] and h["content"].endswith("…[truncated]") for h in hits)
    structured = len(json.dumps(result.structured_content, ensure_ascii=False).encode())
    assert structured + len(result.content[0].text.encode()) < 32_000  # type: ignore[union-attr]
    for hit in hits:
        hit["content"].encode("utf-16-le", errors="strict")  # no surrogate pair was split


async def test_limit_50_answers_within_the_budget_and_counts_what_it_leaves_out(client: Client[Any]) -> None:
    """Fifty records with five links each cannot fit 32,000 bytes even with empty texts (about 2 kB of metadata
    each on the wire): the answer keeps the best ones and says how many follow, instead of failing."""
    for n in range(55):
        await save(client, f"deploy step {n}: the release pipeline runs the staging deploy job number {n}")

    result = await client.call_tool("search", {"query": "deploy", "limit": 50})
    answer = result.structured_content
    assert isinstance(answer, dict)
    hits = answer["result"]

    assert answer["omitted"] > 0 and len(hits) + answer["omitted"] == 50
    assert all(len(h["graph_relations"]) == 5 and h["content_truncated"] for h in hits)
    assert [h["id"] for h in hits] == [h["id"] for h in await search(client, "deploy", limit=len(hits))]
    structured = len(json.dumps(answer, ensure_ascii=False).encode())
    assert structured + len(result.content[0].text.encode()) < 32_000  # type: ignore[union-attr]


async def test_ranking_is_the_same_whichever_way_the_query_reads_the_workspace(client: Client[Any]) -> None:
    """Full matches found among the newest records, the score groups of a whole scan, and the newest records
    of an empty query all give the contract's order (score, then newest, then id)."""
    full = [await save(client, f"alpha beta note {n}", scope="shared" if n % 2 else "private") for n in range(4)]
    partial = [await save(client, f"alpha only note {n}", scope="team") for n in range(2)]
    newest_full = [r["id"] for r in reversed(full)]
    newest_partial = [r["id"] for r in reversed(partial)]

    assert [h["id"] for h in await search(client, "alpha beta", limit=2)] == newest_full[:2]  # read newest first
    both = await search(client, "alpha beta", limit=5)  # fewer full matches than the limit: a whole scan
    assert [h["id"] for h in both] == [*newest_full, newest_partial[0]]
    assert [h["score"] for h in both] == [2, 2, 2, 2, 1]
    assert [h["id"] for h in await search(client, "beta alpha", limit=2, scope="private")] == [
        full[2]["id"],
        full[0]["id"],
    ]
    assert [h["id"] for h in await search(client, "", limit=3)] == [*newest_partial, newest_full[0]]
    assert [h["id"] for h in await search(client, "", limit=2, scope="shared")] == [full[3]["id"], full[1]["id"]]


async def test_exclude_stale_still_fills_the_limit(client: Client[Any]) -> None:
    kept = await save(client, "alpha beta old", source_hash="sha256:1111111")
    for n in range(3):
        await save(client, f"alpha beta new {n}", source_hash="sha256:2222222")

    hits = await search(client, "alpha beta", limit=2, current_source_hash="sha256:1111111", exclude_stale=True)
    assert [h["id"] for h in hits] == [kept["id"]]
    latest = await search(client, "", limit=1, current_source_hash="sha256:1111111", exclude_stale=True)
    assert [h["id"] for h in latest] == [kept["id"]]
