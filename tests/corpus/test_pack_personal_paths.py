"""Relation-path questions over the real pack, answered by ``pack_graph(id, path=[...])`` and checked
against a reading of the frontmatter that does not use the ingester (``--corpus CORPORA``)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from tests.corpus.test_pack_personal import frontmatters, pack  # noqa: F401 - pack is the fixture

Graph = dict[str, dict[str, set[str]]]


def frontmatter_graph(root: Path) -> Graph:
    """id -> relation -> target ids, for targets written as ids in a `related` mapping."""
    graph: Graph = {}
    for data in frontmatters(root):
        if not isinstance(data.get("related"), dict):
            continue
        links = graph.setdefault(str(data.get("id")), {})
        for relation, targets in data["related"].items():
            values = targets if isinstance(targets, list) else [targets]
            links.setdefault(str(relation), set()).update(str(v) for v in values if isinstance(v, str) and " " not in v)
    return graph


def follow(graph: Graph, start: str, path: list[str]) -> set[str]:
    current = {start}
    for relation in path:
        current = {t for node in current for t in graph.get(node, {}).get(relation, set())}
    return current


def questions(graph: Graph, relations: list[str], limit: int = 25) -> list[tuple[str, list[str]]]:
    """Starts and two-step paths that reach something, taken in a stable order."""
    found = []
    for start, (first, second) in itertools.product(sorted(graph), itertools.permutations(relations, 2)):
        if follow(graph, start, [first, second]):
            found.append((start, [first, second]))
    return found[:limit]


async def test_relation_paths_are_answered_exactly(pack: Path, run_ingest, client_for) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    run_ingest(pack)
    graph = frontmatter_graph(pack)
    asked = questions(graph, ["uses", "consumed_by", "applies_to", "violates", "produces"])
    asked.append(("PD.CAT.003", ["uses", "consumed_by"]))
    assert len(asked) > 10
    defined = {str(data.get("id")) for data in frontmatters(pack)}
    async with client_for() as client:
        for start, path in asked:
            result: Any = await client.call_tool("pack_graph", {"id": start, "path": path, "limit": 500})
            expected = follow(graph, start, path)
            answer = result.structured_content
            assert set(answer["reached"]) == expected & defined, (start, path)
            assert set(answer["reached_missing"]) == expected - defined, (start, path)  # ids no file defines
