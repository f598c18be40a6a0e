"""Word queries find their candidates through the full-text index ``memory_record_text``: the answers must be
those of the contract (a word matches as a substring of the normalised content and source; score, then newest,
then id), whatever the index cuts, whoever owns other workspaces, and however many words a query has."""

from __future__ import annotations

import random
from typing import Any

from fastmcp import Client

from graphrag.memory.records import NewRecord, save_steps
from graphrag.memory.schema import ensure_memory_schema
from graphrag.names import fold, query_words
from graphrag.server.access import LOCAL_PROJECT
from graphrag.stores.graph import GraphStore
from tests.memory.conftest import save, search

COMMON = "deploy staging prod backup database cache token rotate nightly release".split()
RARE = "kubelet etcd ingress".split()


def seeded(graph: GraphStore, workspace: str, count: int, batches: int) -> list[dict[str, Any]]:
    """``count`` records saved in ``batches`` transactions (each its own ``updated_at``), as the save tool stores
    them; common words in every record (past the 2,000 index hits where the newest are read first), rare ones
    in a few."""
    rng = random.Random(18)
    stored: list[dict[str, Any]] = []
    size = count // batches
    for _ in range(batches):
        records = [
            NewRecord(
                content=" ".join([*rng.sample(COMMON, 4), *(rng.sample(RARE, 1) if rng.random() < 0.01 else [])]),
                scope="shared",
                source="test",
            )
            for _ in range(size)
        ]
        _, steps = save_steps(LOCAL_PROJECT, True, workspace, records)
        graph.write_together(steps)
        stored += steps[0][1]["records"]
    return stored


def contract_order(stored: list[dict[str, Any]], query: str, limit: int) -> list[tuple[str, int]]:
    """(id, score) of the first ``limit`` records by the contract's rule, computed here from what was saved."""
    words = query_words(query)
    scored = [(r, sum(w in fold(f"{r['content']}\n{r['source']}") for w in words)) for r in stored]
    ranked = sorted(((r, s) for r, s in scored if s > 0), key=lambda rs: rs[0]["id"])
    ranked.sort(key=lambda rs: rs[0]["updated_at"], reverse=True)  # stable: ties stay in id order
    ranked.sort(key=lambda rs: rs[1], reverse=True)
    return [(r["id"], s) for r, s in ranked[:limit]]


async def test_answers_are_the_contracts_for_common_rare_and_missing_words(
    client: Client[Any], memory_graph: GraphStore
) -> None:
    stored = seeded(memory_graph, "big", 2100, batches=3)
    for query in ["deploy staging", "deploy kubelet", "etcd ingress", "kubelet", "rotate zzzqqq", "zzzqqq"]:
        hits = await search(client, query, workspace="big", limit=10)
        assert [(h["id"], h["score"]) for h in hits] == contract_order(stored, query, 10), query


async def test_a_word_across_the_index_piece_cut_is_found(client: Client[Any]) -> None:
    """The index cuts a run of non-space characters every 255 UTF-16 units, or 254 where the next character is
    astral (two units): 127 Gothic letters."""
    latin = await save(client, "x" * 250 + "abcdefghij" + "y" * 300)
    gothic = await save(client, "𐌰" * 127 + "𐌱" * 100)

    assert [h["id"] for h in await search(client, "abcdefghij")] == [latin["id"]]
    assert [h["id"] for h in await search(client, "𐌰𐌱")] == [gothic["id"]]
    longer_than_a_piece = "x" * 240 + "abcdefghij" + "y" * 100
    assert [(h["id"], h["score"]) for h in await search(client, longer_than_a_piece)] == [(latin["id"], 1)]


async def test_records_saved_before_the_long_piece_marker_are_marked_once_at_start(
    client: Client[Any], memory_graph: GraphStore
) -> None:
    """A record of an earlier version (no ``text_pieces``) behind 2,100 newer ones is found only through the
    index, where its word is cut in two: the server's schema step marks it, and then it is found."""
    old = NewRecord(content="x" * 250 + "abcdefghij", scope="shared", source="test")
    (old_id,), steps = save_steps(LOCAL_PROJECT, True, "big", [old])
    for row in steps[0][1]["records"]:
        del row["text_pieces"]
    memory_graph.write_together(steps)
    seeded(memory_graph, "big", 2100, batches=3)
    assert await search(client, "abcdefghij", workspace="big") == []

    ensure_memory_schema(memory_graph)
    assert [h["id"] for h in await search(client, "abcdefghij", workspace="big")] == [old_id]


async def test_workspace_names_are_matched_exactly_and_never_read_as_lucene(client: Client[Any]) -> None:
    names = ["ops", "ops team", 'a "quoted" \\ name*', '"', "\\", "x AND y OR (z)", "ops*"]
    saved = {name: await save(client, f"deploy note of {name}", workspace=name) for name in names}

    for name in names:
        assert [h["id"] for h in await search(client, "deploy", workspace=name)] == [saved[name]["id"]], name


async def test_a_query_of_hundreds_of_words_is_asked_in_batches(client: Client[Any]) -> None:
    """Lucene refuses more than 1,024 clauses in one query."""
    kept = await save(client, "ответ 7q", source="бот")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    words = [a + b for a in digits for b in digits][:600]  # 2-character words, 7q among them

    assert [(h["id"], h["score"]) for h in await search(client, " ".join(words))] == [(kept["id"], 1)]


async def test_no_word_the_query_argument_allows_is_too_long_for_the_index(client: Client[Any]) -> None:
    """Lucene refuses ``*aaa…a*`` of some hundreds of characters as too complex: such a word is answered
    from the long pieces alone, for every length up to the argument's limit of 2,000 characters."""
    saved = await save(client, "deploy " + "x" * 700, workspace="w")
    lengths = sorted({*range(1, 2001, 37), 126, 127, 128, 400, 500, 1000, 1900, 2000})
    for length in lengths:
        assert await search(client, "a" * length, workspace="w") == [], length
    hits = await search(client, "deploy " + "x" * 700, workspace="w")
    assert [(h["id"], h["score"]) for h in hits] == [(saved["id"], 2)]
    assert [h["id"] for h in await search(client, "x" * 1993, workspace="w")] == []
