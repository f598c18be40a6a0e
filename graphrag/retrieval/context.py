"""``pack_context``: what a multi-hop answer needs in one call: the entities (named and retrieved, each
with why), the typed paths that connect them, and the body passages that best match the question.

Passages come round by round: first the best passage of each entity in entity order (its opening when
none matches the question's words, e.g. a question in another language), then each entity's next best,
so the top entities are all represented before any gets a second passage.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphrag.retrieval.config import ContextConfig
from graphrag.retrieval.lexical import PassageHit, PassageSearch
from graphrag.retrieval.models import ContextEntity, ContextPassage, ContextResult
from graphrag.retrieval.search import PackSearch
from graphrag.stores.graph import GraphStore


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
        )

    def _choose_passages(self, question: str, ids: list[str]) -> list[ContextPassage]:
        per_entity = self._passages.ranked(question, ids)
        chosen: list[PassageHit] = []
        depth = 0
        most = self._config.passages
        while len(chosen) < most and any(len(hits) > depth for hits in per_entity.values()):
            chosen += [hits[depth] for i in ids if len(hits := per_entity.get(i, [])) > depth]
            depth += 1
        return [
            ContextPassage(id=p.id, path=p.path, lines=p.lines, sha256=p.sha256, text=p.text) for p in chosen[:most]
        ]
