"""The ``vector`` retriever: entities whose summary is closest in meaning to the question.

The question is embedded whole and, when it has several clauses, each clause alone too (a two-part
question's second part is otherwise drowned by the first); the lists of the parts merge by standard
score, so a part whose nearest summary stands apart brings it in. Every text embedded leaves out the words
that name the searched packs as a whole, which no summary's meaning should be matched on.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from graphrag.embedding import Embedder, Vectors
from graphrag.names import WORD, clauses, fold, query_words
from graphrag.retrieval.candidates import Candidate, Evidence, Question, Starts
from graphrag.retrieval.config import DEFAULT, VectorConfig
from graphrag.retrieval.fusion import Ranked, fuse
from graphrag.retrieval.registry import Registration, register
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot
from graphrag.retrieval.vector_index import VectorIndex


class VectorSearch:
    """Nearest summaries to the question and to each of its clauses, from the vector index; each searched
    without the words that name the packs as a whole."""

    evidence: Evidence = "vector"

    def __init__(
        self, embedder: Embedder, index: VectorIndex, snapshot: GraphSnapshot, config: VectorConfig = DEFAULT.vector
    ) -> None:
        self._embedder = embedder
        self._index = index
        self._snapshot = snapshot
        self._config = config

    def warm(self) -> None:
        self._pack_words()

    def retrieve(self, question: Question, starts: Starts | None = None) -> list[Candidate]:
        parts = clauses(question.text, self._config.min_clause_words)[: self._config.clauses]
        common = self._pack_words()
        searched = question.packs if question.packs is not None else common
        words = frozenset().union(*(common.get(p, frozenset()) for p in searched))
        texts = [self._without(words, text) or text for text in [question.text, *parts]]
        whole, *alone = self._embedder.embed(texts)
        found = self._nearest(whole, question, None)
        if not alone:
            return found
        weight, ef = self._config.clause_weight, self._config.clause_ef
        each = [Ranked(self._nearest(vector, question, ef), weight) for vector in alone]
        ranked = fuse([Ranked(found, 1.0), *each], "standard", 0, question.limit)
        return [Candidate(i, score) for i, score in ranked[: question.limit]]

    def _without(self, words: frozenset[str], text: str) -> str | None:
        """The text without the words that name the searched packs as a whole (``PEP`` where the ids are
        ``PEP-0001``, ``PEP-0446``, ...): such a word says nothing of which entity is meant, yet it draws the
        question's meaning towards the summaries that talk about the pack itself (a template, an index).
        None when it holds none, or little else."""
        stripped = WORD.sub(lambda m: "" if fold(m.group()) in words else m.group(), text)
        if stripped == text or len(query_words(stripped)) < self._config.min_clause_words:
            return None
        return " ".join(stripped.split())

    def _pack_words(self) -> dict[str, frozenset[str]]:
        config = self._config
        key = f"pack words:{config.pack_words_share}:{config.pack_words_min}"
        found: dict[str, frozenset[str]] = self._snapshot.derived(key, lambda copy: _pack_words(copy, config))
        return found

    def _nearest(self, vector: Vectors, question: Question, ef: int | None) -> list[Candidate]:
        hits = self._index.search(vector, question.limit, question.packs, question.kinds, ef)
        return [Candidate(hit.id, hit.score) for hit in hits]


def _pack_words(copy: GraphCopy, config: VectorConfig) -> dict[str, frozenset[str]]:
    """Per pack of at least ``pack_words_min`` entities, the words that ``pack_words_share`` of its entities'
    ids or more hold."""
    held: defaultdict[str, Counter[str]] = defaultdict(Counter)
    sizes: Counter[str] = Counter()
    for entity, pack, missing in zip(copy.entities.ids, copy.entities.packs, copy.entities.missing, strict=True):
        if not missing:
            sizes[pack] += 1
            held[pack].update(set(query_words(entity)))
    return {
        pack: frozenset(w for w, n in words.items() if n >= config.pack_words_share * sizes[pack])
        for pack, words in held.items()
        if sizes[pack] >= config.pack_words_min and config.pack_words_share > 0
    }


register(
    "vector",
    Registration(
        lambda sources, config: VectorSearch(sources.embedder, sources.index, sources.snapshot, config.vector),
        "The question's meaning against each embedded summary (multilingual).",
        script="gains",
    ),
)
