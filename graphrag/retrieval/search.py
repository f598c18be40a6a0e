"""``pack_search``: rank entities by one retriever (``vector``, ``text``) or by all of them fused (``hybrid``).

Hybrid, in order: the entities the question names (linking); the best text and vector candidates; a
walk over the typed links from the named entities; then weighted reciprocal rank fusion of text, vector
and graph, named entities first. When the question names an entity, the walk's list weighs most (a
multi-hop question starts there). When it names none, text and vector alone decide: walking from their
best hits measured worse on single-hop questions (docs/mcp.md). Text weighs by how well the question's
script matches the packs' (an English question over English packs: fully; a Russian one: little, and
meaning, the multilingual vector, takes over).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from graphrag.embedding import Embedder
from graphrag.errors import InvalidArgument, name_list
from graphrag.retrieval.candidates import Candidate, Evidence, Query
from graphrag.retrieval.fusion import reciprocal_rank
from graphrag.retrieval.lexical import PackScripts, TextSearch
from graphrag.retrieval.linking import EntityLinker
from graphrag.retrieval.models import SearchHit, SearchResult
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.vectors import VectorIndex
from graphrag.retrieval.walk import GraphWalk
from graphrag.stores.graph import GraphStore

Mode = Literal["hybrid", "vector", "text"]
POOL = 30  # candidates each retriever hands the fusion
WEIGHTS_NAMED: dict[Evidence, float] = {"text": 0.3, "vector": 0.3, "graph": 1.0}
WEIGHTS_UNNAMED: dict[Evidence, float] = {"text": 1.0, "vector": 0.3}
VECTOR_GAIN = 1.0  # the vector list weighs up to this much more when full text cannot match the question's script
LINKED_BONUS = 1.0  # a named entity's fused score is raised by this, so it ranks first


@dataclass(frozen=True)
class Ranked:
    id: str
    score: float
    matched: list[Evidence]
    via: list[str] | None = None


@dataclass(frozen=True)
class Ranking:
    """The best ``hits``, and how many entities the ranking held before it was cut to the limit."""

    hits: list[Ranked]
    available: int


class VectorSearch:
    """The ``vector`` retriever: entities whose summary is closest in meaning to the question."""

    evidence: Evidence = "vector"

    def __init__(self, embedder: Embedder, index: VectorIndex) -> None:
        self._embedder = embedder
        self._index = index

    def retrieve(self, query: Query) -> list[Candidate]:
        vector = self._embedder.embed([query.text])[0]
        return [
            Candidate(hit.id, hit.score) for hit in self._index.search(vector, query.limit, query.packs, query.kinds)
        ]


class PackSearch:
    def __init__(
        self,
        graph: GraphStore,
        embedder: Embedder,
        index: VectorIndex,
        snapshot: GraphSnapshot,
        hidden: frozenset[str] = frozenset(),
    ) -> None:
        """``hidden``: packs the caller may not see (team sources it may not read now)."""
        self._graph = graph
        self._hidden = hidden
        self.vector = VectorSearch(embedder, index)
        self.text = TextSearch(graph)
        self.linker = EntityLinker(snapshot)
        self.walk = GraphWalk(snapshot)
        self._snapshot = snapshot

    def search(
        self,
        query: str,
        limit: int,
        packs: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        mode: Mode = "hybrid",
    ) -> SearchResult:
        ranking = self.rank(query, limit, packs, kinds, mode)
        by_id = {r.id: r for r in ranking.hits}
        rows = self._graph.read("search_entities", ids=list(by_id)) if by_id else []
        if not rows and packs:
            self._check_packs(packs)
        return SearchResult(
            results=[
                SearchHit(
                    **row,
                    score=round(by_id[row["id"]].score, 4),
                    matched=by_id[row["id"]].matched,
                    via=by_id[row["id"]].via,
                )
                for row in rows
            ],
            available=ranking.available,
        )

    def rank(
        self, text: str, limit: int, packs: Sequence[str] | None, kinds: Sequence[str] | None, mode: Mode
    ) -> Ranking:
        if not text.strip():
            raise InvalidArgument("query is empty: say what to look for")
        if self._hidden:
            packs = [p for p in (packs if packs is not None else self._known()) if p not in self._hidden]
        if mode != "hybrid":
            retriever = self.vector if mode == "vector" else self.text
            found = retriever.retrieve(Query(text, limit, packs, kinds, hidden=self._hidden))
            return Ranking([Ranked(c.id, c.score, [retriever.evidence]) for c in found], len(found))
        pool = Query(text, max(POOL, limit), packs, kinds, hidden=self._hidden)
        linked = self.linker.retrieve(pool)
        lists: dict[Evidence, list[Candidate]] = {
            "text": self.text.retrieve(pool),
            "vector": self.vector.retrieve(pool),
        }
        if linked:
            lists["graph"] = self.walk.retrieve(replace(pool, seeds={c.id: 1.0 for c in linked}))
        weights = dict(WEIGHTS_NAMED if linked else WEIGHTS_UNNAMED)
        coverage = self._snapshot.derived("scripts", PackScripts.of).coverage(text, packs)
        weights["text"] *= coverage
        weights["vector"] *= 1 + VECTOR_GAIN * (1 - coverage)
        fused = dict(reciprocal_rank([*lists.values(), linked], [*(weights[e] for e in lists), 0.0]))
        named = {c.id for c in linked}
        via = {c.id: c.via for c in lists.get("graph", [])}
        matched: dict[str, list[Evidence]] = {c.id: ["linked"] for c in linked}
        for evidence, found in lists.items():
            for candidate in found:
                matched.setdefault(candidate.id, []).append(evidence)
        ranked = [
            Ranked(i, score + (LINKED_BONUS if i in named else 0.0), matched[i], via.get(i) if i not in named else None)
            for i, score in fused.items()
        ]
        ranked.sort(key=lambda r: (-r.score, r.id))
        return Ranking(ranked[:limit], len(ranked))

    def _check_packs(self, packs: Sequence[str]) -> None:
        """An empty answer because a pack filter names no pack is a mistake worth saying."""
        known = self._known()
        unknown = sorted(set(packs) - set(known))
        if unknown:
            raise InvalidArgument(f"unknown packs: {name_list(unknown)}; known packs: {name_list(known)}")

    def _known(self) -> list[str]:
        return [row["id"] for row in self._graph.read("search_packs") if row["id"] not in self._hidden]
