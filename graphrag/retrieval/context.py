"""``pack_context``: what a multi-hop answer needs in one call: the entities (named and retrieved, each
with why and with its frontmatter attributes), the typed paths that connect them, and the body passages that
support the question.

An answer holds what supports the question, not as much as the budget allows. A passage comes only when it
shares the question's words about as well as the best one does (``context.passage_floor``), except that the
first entity always brings its best (its opening when none matches, e.g. a question in another language);
they come round by round: first the best passage of each entity in entity order, then each entity's next
best, so the top entities are all represented before any gets a second passage. Each is cut to its whole
lines around the question's words (``context.passage_chars``), so its line range stays exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphrag.retrieval.config import ContextConfig
from graphrag.retrieval.entity import NOT_FRONTMATTER, frontmatter
from graphrag.retrieval.lexical import PassageHit, PassageSearch
from graphrag.retrieval.models import ContextEntity, ContextPassage, ContextResult
from graphrag.retrieval.search import PackSearch
from graphrag.stores.graph import GraphStore

NAMES = frozenset({"aliases", "tags"})


class PackContext:
    def __init__(self, graph: GraphStore, search: PackSearch, config: ContextConfig) -> None:
        self._graph = graph
        self._search = search
        self._config = config
        self._passages = PassageSearch(graph)

    def build(self, question: str, packs: Sequence[str] | None, kinds: Sequence[str] | None) -> ContextResult:
        ranking = self._search.rank(question, self._config.entities, packs, kinds, "hybrid")
        ranked = ranking.hits
        rows = {row["id"]: row for row in self._graph.read("retrieval_entities", ids=[r.id for r in ranked])}
        attributes = self._attributes(list(rows))
        entities = [
            ContextEntity(
                id=r.id,
                kind=rows[r.id]["kind"],
                title=rows[r.id]["title"],
                summary=rows[r.id]["summary"] or "",
                matched=r.matched,
                via=r.via,
                score=round(r.score, 4),
                sha256=rows[r.id]["sha256"],
                pack=rows[r.id]["pack"],
                path=rows[r.id]["path"],
                attributes=attributes.get(r.id, {}),
            )
            for r in ranked
            if r.id in rows
        ]
        paths: list[list[str]] = []
        for entity in entities:
            if entity.via and len(entity.via) > 1 and entity.via not in paths:
                paths.append(entity.via)
        ids = [e.id for e in entities]
        return ContextResult(
            entities=entities,
            paths=paths,
            passages=self._choose_passages(question, ids),
            available=ranking.available,
            hint=self._search.outside(ranking.question, packs),
        )

    def _attributes(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """Each entity's frontmatter by pack_get's rule, but its aliases and tags: names, not facts to ask for."""
        rows = self._graph.read("retrieval_attributes", ids=ids, skip=sorted(NOT_FRONTMATTER | NAMES))
        return {row["id"]: frontmatter(dict(row["attributes"])) for row in rows}

    def _choose_passages(self, question: str, ids: list[str]) -> list[ContextPassage]:
        ranking = self._passages.ranked(question, ids)
        per_entity = ranking.passages
        best = max((hits[0].score for hits in per_entity.values()), default=0.0)
        floor = self._config.passage_floor * best
        kept = {i: [p for p in hits if p.score > 0 and p.score >= floor] for i, hits in per_entity.items()}
        first = next((i for i in ids if per_entity.get(i)), None)
        if first is not None and not kept[first]:
            kept[first] = per_entity[first][:1]
        chosen: list[PassageHit] = []
        depth = 0
        most = self._config.passages
        while len(chosen) < most and any(len(hits) > depth for hits in kept.values()):
            chosen += [hits[depth] for i in ids if len(hits := kept.get(i, [])) > depth]
            depth += 1
        return [
            ContextPassage(id=p.id, path=p.path, lines=p.lines, sha256=p.sha256, text=p.text)
            for p in (ranking.window(hit, self._config.passage_chars) for hit in chosen[:most])
        ]
