"""The archivist's links and marks, built after each save and rebuilt on demand, deterministically."""

from __future__ import annotations

from typing import Any

from fastmcp import Client

from graphrag.memory.archivist import Item, similarity_links, stale_mark, version_links
from graphrag.stores.graph import GraphStore
from tests.memory.conftest import save, search


def relations(hit: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(r["relation"], r["direction"], r["target_id"]) for r in hit["graph_relations"]}


async def test_supersedes_chain_and_superseded_by(client: Client[Any]) -> None:
    v1 = await save(client, "backups at 01:00", fact_key="backup-time")
    v2 = await save(client, "backups at 02:00", fact_key="backup-time")
    v3 = await save(client, "backups at 03:00", fact_key="backup-time")

    hits = {h["id"]: h for h in await search(client, "backups")}
    assert hits[v1["id"]]["superseded_by"] == v2["id"] and hits[v2["id"]]["superseded_by"] == v3["id"]
    assert hits[v3["id"]]["superseded_by"] is None
    assert ("supersedes", "outgoing", v2["id"]) in relations(hits[v3["id"]])
    assert ("supersedes", "incoming", v3["id"]) in relations(hits[v2["id"]])
    assert all(r[0] == "supersedes" for r in relations(hits[v3["id"]]))  # versions are not also relates_to


async def test_fixes_issue_links_a_fix_to_an_older_problem(client: Client[Any]) -> None:
    issue = await save(client, "Ошибка: сборка падает из-за устаревшего node 16")
    fix = await save(client, "Исправлено: сборка переведена на node 20")
    unrelated = await save(client, "Fixed: the office printer is back")

    assert ("fixes_issue", "outgoing", issue["id"]) in relations(fix)
    assert not relations(unrelated) & {("fixes_issue", "outgoing", issue["id"])}


async def test_on_demand_run_is_deterministic_and_matches_incremental(
    client: Client[Any], memory_graph: GraphStore
) -> None:
    texts = [
        "staging выкатывается через systemd-юнит app-staging",
        "staging deploys through the systemd unit app-staging",
        "测试环境通过 systemd 单元 app-staging 部署",
        "The login page crashes with error 500 when the password is empty",
        "Fixed: login page no longer crashes on empty password",
        "The team lunch is on Friday",
    ]
    for text in texts:
        await save(client, text)
    before = {h["id"]: relations(h) for h in await search(client, "", limit=50)}

    first = (await client.call_tool("run_archivist", {})).structured_content
    after = {h["id"]: relations(h) for h in await search(client, "", limit=50)}
    second = (await client.call_tool("run_archivist", {})).structured_content

    assert first == second and first is not None
    assert after == before
    assert first["records"] == 6 and first["relates_to"] >= 3 and first["fixes_issue"] == 1


async def test_records_link_to_pack_entities_and_go_stale_when_they_change(
    client: Client[Any], memory_graph: GraphStore, run_ingest: Any, pack_copy: Any
) -> None:
    run_ingest(pack_copy)
    entity = next(r for r in _entities(memory_graph) if r["id"] == "SM.AGENCY.NASA")
    fresh = await save(
        client, "NASA was founded in 1958", source_id="SM.AGENCY.NASA", source_hash=f"sha256:{entity['sha256'][:8]}"
    )
    by_path = await save(client, "NASA ran Apollo", source_id=entity["path"], source_hash="sha256:0000000")

    assert fresh["status"] == "unverified"
    assert by_path["status"] == "stale"  # linked through the entity's path; its hash is not the file's

    nasa = pack_copy / entity["path"]
    nasa.write_text(nasa.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    run_ingest(pack_copy)
    run = (await client.call_tool("run_archivist", {})).structured_content
    assert run is not None and run["stale"] == 2
    assert {h["status"] for h in await search(client, "NASA")} == {"stale"}


def _entities(graph: GraphStore) -> list[dict[str, Any]]:
    records, _, _ = graph._driver.execute_query(
        "MATCH (e:Entity) RETURN e.id AS id, e.path AS path, e.sha256 AS sha256"
    )
    return [r.data() for r in records]


def test_rules_without_a_database() -> None:
    old = Item("a", "k", "Ошибка: сервис падает", "2026-01-01T00:00:00+00:00")
    new = Item("b", "k", "Исправлено: сервис не падает", "2026-01-02T00:00:00+00:00")
    fix = Item("c", None, "Fix: the service no longer fails", "2026-01-03T00:00:00+00:00")
    links, newer = version_links([new, old, fix])
    assert [(k.source, k.target, k.type) for k in links] == [("b", "a", "SUPERSEDES")]
    assert newer == {"b": None, "a": "b", "c": None}
    # same fact key: no similarity link; a fix to an older issue: fixes_issue; ties broken by id
    assert similarity_links(new, [(0.9, old)]) == []
    assert [(k.target, k.type) for k in similarity_links(fix, [(0.6, old), (0.6, new), (0.3, old)])] == [
        ("a", "FIXES_ISSUE"),
        ("b", "RELATES_TO"),
    ]
    hashed = Item("d", None, "x", "t", source_hash="sha256:abcdef01", entity_hashes=("abcdef0123",))
    assert stale_mark(hashed) is None
    assert stale_mark(Item("e", None, "x", "t", source_hash="sha256:1111111", entity_hashes=("abcdef0123",))) == (
        "entity_changed"
    )
    assert stale_mark(Item("f", None, "x", "t", source_hash="md5:1111111", entity_hashes=("abc",))) is None
    assert stale_mark(Item("g", None, "x", "t", stale_mark="source_changed")) == "source_changed"
