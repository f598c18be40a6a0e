"""The vector list searches a question of several parts part by part: a quoted or leading description is
not drowned by the words that ask for the steps (real model, real embedded engine)."""

from __future__ import annotations

from typing import cast

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.retrieval.candidates import Question
from graphrag.retrieval.config import VectorConfig
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.vector import VectorSearch
from graphrag.retrieval.vector_index import open_vector_index
from graphrag.stores.vectors import VectorStore
from tests.retrieval.graphs import E, HeldCopy, graph_copy

SUMMARIES = {
    "PEP-0446": "Make newly created file descriptors non-inheritable by default",
    "PEP-0433": "Easier suppression of file descriptor inheritance",
    "PEP-0001": "PEP Purpose and Guidelines: what a PEP is, who its author is, and how it is replaced",
    "PEP-0009": "Sample Plaintext PEP Template for authors of a new PEP",
    "PEP-0012": "Sample reStructuredText PEP Template for authors of a new PEP",
    "PEP-0100": "Python Unicode Integration",
    "PEP-0008": "Style Guide for Python Code",
    "PEP-0020": "The Zen of Python",
}
QUESTION = (
    "Предложение, которое сделало новые файловые дескрипторы ненаследуемыми по умолчанию, заменило какой более "
    "ранний PEP, и кто автор того PEP?"
)


def _ranks(settings: Settings, embedder: Embedder, clauses: int) -> list[str]:
    index = open_vector_index(settings, embedder.id)
    snapshot = cast(GraphSnapshot, HeldCopy(graph_copy([E(i, pack="peps") for i in SUMMARIES])))
    search = VectorSearch(embedder, index, snapshot, VectorConfig(clauses=clauses))
    found = search.retrieve(Question(QUESTION, 5, None, None))
    return [candidate.id for candidate in found]


def test_a_description_beside_the_steps_is_searched_alone_too(settings: Settings, embedder: Embedder) -> None:
    payloads = [{"id": i, "pack": "peps", "kind": "pep"} for i in SUMMARIES]
    with VectorStore.open(settings) as store:
        store.ensure_collection(embedder.id, embedder.dimension)
        store.upsert(payloads, embedder.embed([f"{i}. {s}" for i, s in SUMMARIES.items()]))
    whole = _ranks(settings, embedder, clauses=0)
    parts = _ranks(settings, embedder, clauses=2)
    # embedded whole, the question's words about PEPs and their authors put the three PEPs about PEPs first
    assert whole.index("PEP-0446") == 3
    assert parts.index("PEP-0446") == 1
