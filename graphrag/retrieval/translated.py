"""Relation words in another script than the relation names (``заменило`` for ``replaced_by``, ``использует``
for ``uses``), read by meaning.

Relation names are identifiers in Latin letters, so a Russian question never spells one, and word forms
cannot bridge the languages; the embedding model reads both. A question word written in another script is
the relation name whose meaning is closest to it, when that closeness reaches the configured floor and no
entity kind is closer (``формализации`` is the kind ``formalization``, not the relation ``formalizes``).
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping, Sequence

import numpy as np

from graphrag.embedding import Embedder, Vectors
from graphrag.names import STOP_WORDS, query_words, script_of
from graphrag.retrieval.vocabulary import Step

MAX_WORDS = 16  # words of one question read by meaning: one call to the model, however long the question
MIN_CHARS = 4  # shorter words are mostly particles and pronouns
TABLES = 8  # vocabularies whose names' vectors are kept (one per set of packs searched)


class RelationMeanings:
    """The relation names a question's words in another script mean, by the embedding model."""

    def __init__(self, embedder: Embedder, floor: float) -> None:
        """``floor``: the least cosine between a word and a relation name (0: never read so)."""
        self._embedder = embedder
        self._floor = floor
        self._tables: dict[tuple[str, ...], Vectors] = {}
        self._lock = threading.Lock()

    def words(
        self, text: str, names: Mapping[str, Sequence[Step]], kinds: Collection[str]
    ) -> dict[str, tuple[Step, ...]]:
        """Each word of ``text`` that means a relation name, with that name's steps."""
        if self._floor <= 0 or not names:
            return {}
        asked = [
            word
            for word in dict.fromkeys(query_words(text))
            if script_of(word) not in (None, "latin") and len(word) >= MIN_CHARS and word not in STOP_WORDS
        ][:MAX_WORDS]
        if not asked:
            return {}
        labels = (*sorted(names), *sorted(set(kinds) - set(names)))
        closeness = self._embedder.embed(asked) @ self._table(labels).T
        found: dict[str, tuple[Step, ...]] = {}
        for word, row in zip(asked, closeness, strict=True):
            best = int(np.argmax(row))
            if best < len(names) and row[best] >= self._floor:
                found[word] = tuple(names[labels[best]])
        return found

    def _table(self, labels: tuple[str, ...]) -> Vectors:
        """The labels' vectors, each read as words (``replaced_by`` as "replaced by")."""
        with self._lock:
            table = self._tables.get(labels)
        if table is None:
            table = self._embedder.embed([label.replace("_", " ") for label in labels])
            with self._lock:
                if len(self._tables) >= TABLES:
                    self._tables.pop(next(iter(self._tables)))
                self._tables[labels] = table
        return table
