"""The ``vector`` retriever: entities whose summary is closest in meaning to the question.

The question is embedded whole and, when it has several clauses, each clause alone too (a two-part
question's second part is otherwise drowned by the first); the lists of the parts merge by standard
score, so a part whose nearest summary stands apart brings it in.
"""

from __future__ import annotations

from graphrag.embedding import Embedder, Vectors
from graphrag.names import clauses
from graphrag.retrieval.candidates import Candidate, Evidence, Query
from graphrag.retrieval.config import DEFAULT, VectorConfig
from graphrag.retrieval.fusion import Ranked, fuse
from graphrag.retrieval.registry import Registration, register
from graphrag.retrieval.vector_index import VectorIndex


class VectorSearch:
    """Nearest summaries to the question and to each of its clauses, from the vector index."""

    evidence: Evidence = "vector"

    def __init__(self, embedder: Embedder, index: VectorIndex, config: VectorConfig = DEFAULT.vector) -> None:
        self._embedder = embedder
        self._index = index
        self._config = config

    def retrieve(self, query: Query) -> list[Candidate]:
        parts = clauses(query.text, self._config.min_clause_words)[: self._config.clauses]
        whole, *alone = self._embedder.embed([query.text, *parts])
        found = self._nearest(whole, query, None)
        if not alone:
            return found
        weight, ef = self._config.clause_weight, self._config.clause_ef
        each = [Ranked(self._nearest(vector, query, ef), weight) for vector in alone]
        ranked = fuse([Ranked(found, 1.0), *each], "standard", 0, query.limit)
        return [Candidate(i, score) for i, score in ranked[: query.limit]]

    def _nearest(self, vector: Vectors, query: Query, ef: int | None) -> list[Candidate]:
        hits = self._index.search(vector, query.limit, query.packs, query.kinds, ef)
        return [Candidate(hit.id, hit.score) for hit in hits]


register(
    "vector",
    Registration(
        lambda sources, config: VectorSearch(sources.embedder, sources.index, config.vector),
        "The question's meaning against each embedded summary (multilingual).",
        script="gains",
    ),
)
