"""``search``: word matching, one offline expansion when nothing matched or the query was abstract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphrag.embedding import Embedder
from graphrag.memory.expansion import BESIDE, QueryExpander, expansion_words
from graphrag.memory.model import MemoryRecord
from graphrag.memory.records import Selection, has_candidates, select
from graphrag.names import query_words
from graphrag.stores.graph import GraphStore

MIN_LIMIT, MAX_LIMIT = 1, 50


@dataclass(frozen=True)
class SearchRequest:
    query: str
    workspace: str = "default"
    scope: str | None = None
    limit: int = 10
    current_source_hash: str | None = None
    exclude_stale: bool = False
    team_repositories: Sequence[str] | None = None  # the team repositories the caller may read (None: no filter)


def clamp_limit(limit: int) -> int:
    return min(MAX_LIMIT, max(MIN_LIMIT, limit))


def search(
    graph: GraphStore,
    embedder: Embedder,
    project: str,
    request: SearchRequest,
    expander: QueryExpander | None = None,
) -> list[MemoryRecord]:
    """An empty query lists the latest records. When the words match nothing, or the query is "abstract"
    (stop words only), the search runs once more with the expansion's words added, and this time the
    fact key counts as text too (unless that cannot find anything: no new word, and no fact key holds one)."""

    def run(words: list[str], with_fact_key: bool) -> list[MemoryRecord]:
        selection = Selection(
            scope=request.scope,
            words=words,
            with_fact_key=with_fact_key,
            current_source_hash=request.current_source_hash,
            exclude_stale=request.exclude_stale,
            limit=clamp_limit(request.limit),
            team_repositories=request.team_repositories,
        )
        return [found.record for found in select(graph, project, request.workspace, selection)]

    if not request.query.strip():
        return run([], with_fact_key=False)
    words = query_words(request.query)
    hits = run(words, with_fact_key=False) if words else []
    if hits:
        return hits
    # No record's text holds a word (the first pass is exact), so the second pass can only find one through a fact
    # key or a new word: whether a fact key may hold a word is asked while the expansion runs.
    in_fact_keys = BESIDE.submit(has_candidates, graph, project, request.workspace, words, True) if words else None
    extra = expansion_words(graph, embedder, project, request.workspace, request.query, words, expander)
    if not extra and (in_fact_keys is None or not in_fact_keys.result()):
        return []
    return run([*words, *extra], with_fact_key=True)
