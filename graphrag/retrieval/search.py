"""``pack_search``: vector hits first, then one graph query for what the graph holds about them."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag.embedding import Embedder
from graphrag.errors import InvalidArgument
from graphrag.retrieval.models import SearchHit, SearchResult
from graphrag.retrieval.vectors import VectorIndex
from graphrag.stores.graph import GraphStore


class PackSearch:
    """Entities ranked by the similarity of their summary to a query, with pack and kind filters."""

    def __init__(self, graph: GraphStore, embedder: Embedder, index: VectorIndex) -> None:
        self._graph = graph
        self._embedder = embedder
        self._index = index

    def search(
        self, query: str, limit: int, packs: Sequence[str] | None = None, kinds: Sequence[str] | None = None
    ) -> SearchResult:
        if not query.strip():
            raise InvalidArgument("query is empty: say what to look for")
        vector = self._embedder.embed([query])[0]
        hits = self._index.search(vector, limit, packs, kinds)
        scores = {hit.id: hit.score for hit in hits}
        rows = self._graph.read("search_entities", ids=list(scores)) if hits else []
        if not rows and packs:
            self._check_packs(packs)
        return SearchResult(results=[SearchHit(**row, score=round(scores[row["id"]], 4)) for row in rows])

    def _check_packs(self, packs: Sequence[str]) -> None:
        """An empty answer because a pack filter names no pack is a mistake worth saying."""
        known = [row["id"] for row in self._graph.read("search_packs")]
        unknown = sorted(set(packs) - set(known))
        if unknown:
            raise InvalidArgument(f"unknown packs {unknown}; known packs: {known}")
