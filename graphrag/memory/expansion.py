"""Query expansion for a search that found nothing or was too abstract, offline by default.

Terms come from the project itself: titles and aliases of pack entities that share words with the query
(the entity full-text indexes), and the fact keys of the workspace records nearest to the query in
meaning (memory vector index). A language model may add synonyms and terms, but only when the operator plugs
one in (``GRAPHRAG_QUERY_EXPANDER``); when it fails, the search goes on with the project's own terms.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from typing import Protocol, runtime_checkable

from graphrag.embedding import Embedder
from graphrag.errors import InvalidArgument
from graphrag.memory.text import key_text
from graphrag.names import query_words
from graphrag.plugins import plugged
from graphrag.retrieval.lexical import TextQuery
from graphrag.stores.graph import GraphStore

ENTITY_LIMIT = 5
MAX_EXTRA_WORDS = 16
# A fact key gives at least one word and no more than 16 are kept; the vector index's time grows with k (at
# 100,000 records 7 ms for 16, 13 ms for 50). Records of other workspaces near the query may fill all k places:
# then k grows fourfold, up to NEAREST_MAX_K, until one of the workspace's is among them or they are too far.
NEAREST_K = MAX_EXTRA_WORDS
NEAREST_MAX_K = 256
NEAREST_MIN_COSINE = 0.4  # the archivist's relates_to threshold: "about the same thing"
# The query's embedding and its nearest fact keys are looked up beside the entity terms: the model computes while
# Neo4j answers. Their terms are joined in one order (entity terms first) whichever ends first. The search runs
# its fact-key check here too, beside the whole expansion.
BESIDE = ThreadPoolExecutor(max_workers=4, thread_name_prefix="memory-expansion")

log = logging.getLogger(__name__)


@runtime_checkable
class QueryExpander(Protocol):
    """An optional language model: given the query and the offline terms, it proposes more terms."""

    def expand(self, query: str, project_terms: Sequence[str]) -> list[str]: ...


def load_expander(spec: str | None) -> QueryExpander | None:
    """``GRAPHRAG_QUERY_EXPANDER``, ``package.module:factory`` whose ``factory()`` gives the expander; None: none."""
    if spec is None:
        return None
    expander = plugged("GRAPHRAG_QUERY_EXPANDER", spec)
    if not isinstance(expander, QueryExpander):
        raise InvalidArgument(f"GRAPHRAG_QUERY_EXPANDER={spec!r} did not give a query expander (expand)")
    return expander


def expansion_words(
    graph: GraphStore,
    embedder: Embedder,
    project: str,
    workspace: str,
    query: str,
    words: Sequence[str],
    expander: QueryExpander | None = None,
) -> list[str]:
    """New query words (none of ``words``), project terms first, at most ``MAX_EXTRA_WORDS``."""
    nearest = BESIDE.submit(copy_context().run, _nearest_fact_keys, graph, embedder, project, workspace, query)
    terms = _entity_terms(graph, words)
    terms.extend(nearest.result())
    if expander is not None:
        try:
            terms.extend(expander.expand(query, list(terms)))
        except Exception:  # the operator's model (often remote) is a bonus: the project's terms still count
            log.exception("query expander failed; expanding with the project's own terms only")
    extra: dict[str, None] = {}
    for term in terms:
        for word in query_words(term):
            if word not in words:
                extra.setdefault(word, None)
    return list(extra)[:MAX_EXTRA_WORDS]


def _entity_terms(graph: GraphStore, words: Sequence[str]) -> list[str]:
    """Titles and aliases of the pack entities that share words with the query."""
    terms: list[str] = []
    text = TextQuery.of(" ".join(words))
    if text is not None:
        for index in text.indexes("entity_text"):
            for row in graph.read("memory_entity_terms", index=index, lucene=text.lucene, limit=ENTITY_LIMIT):
                terms.extend([row["title"], *row["aliases"]])
    return terms


def _nearest_fact_keys(graph: GraphStore, embedder: Embedder, project: str, workspace: str, query: str) -> list[str]:
    """The fact keys of the workspace records nearest to the query in meaning, as words."""
    vector = embedder.embed([query])[0].tolist()
    k = NEAREST_K
    while True:
        (found,) = graph.read(
            "memory_nearest_facts",
            project=project,
            workspace=workspace,
            vector=vector,
            k=k,
            min_score=(1 + NEAREST_MIN_COSINE) / 2,  # Neo4j reports cosine as (1 + cos) / 2
        )
        if not found["crowded"] or k >= NEAREST_MAX_K:
            nearest = sorted(found["facts"], key=lambda fact: (-fact["score"], fact["fact_key"]))
            return [key_text(key) for key in dict.fromkeys(fact["fact_key"] for fact in nearest)]
        k *= 4
