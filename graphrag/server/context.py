"""What every tool reaches through the FastMCP lifespan: the settings, the open stores, team sources.

Tools read it with ``services_of(ctx)``; the server's lifespan creates it once per process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fastmcp import Context

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.github.sources import TeamSources
from graphrag.memory.expansion import QueryExpander
from graphrag.retrieval.config import SearchConfig
from graphrag.retrieval.search import PackSearch
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.vector_index import VectorIndex
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.server.live import LiveIndex
from graphrag.stores.graph import GraphStore
from ingest.team_indexer import Indexer

if TYPE_CHECKING:
    from graphrag.github.client import GitHubApp

VECTOR_COUNT_SECONDS = 5.0  # how long a count of the stored vectors stands for every call
KEPT_SEARCHES = 32  # sets of hidden packs whose PackSearch is kept built


class VectorGap:
    """Whether the vector store holds fewer vectors than the graph has real entities, counted at most every
    ``VECTOR_COUNT_SECONDS``: a count is a request to a Qdrant server (or to the process owning the shard), too
    dear for every search, and a gap lasts until an ingest embeds the missing entities."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counted = -VECTOR_COUNT_SECONDS
        self._note = ""

    def note(self, snapshot: GraphSnapshot, vectors: VectorIndex) -> str:
        with self._lock:
            if time.monotonic() - self._counted >= VECTOR_COUNT_SECONDS:
                self._note = _gap_note(int((~snapshot.current().entities.missing).sum()), vectors.count())
                self._counted = time.monotonic()
            return self._note


def _gap_note(expected: int, held: int) -> str:
    if held >= expected:
        return ""
    return (
        f"vectors_lost: the vector store holds vectors for {held:,} of {expected:,} entities; the others are "
        "found by words and links only until `graphrag ingest` on their packs embeds them again"
    )


@dataclass(frozen=True)
class Services:
    settings: Settings
    graph: GraphStore
    embedder: Embedder
    vectors: VectorIndex
    relations: RelationVocabulary
    search: SearchConfig  # what shapes every ranking (GRAPHRAG_SEARCH_CONFIG, or the default)
    snapshot: GraphSnapshot  # the in-memory graph the retrievers share
    live: LiveIndex  # this process's own writes (serve --watch, team sources)
    teams: TeamSources
    indexer: Indexer
    expander: QueryExpander | None  # the optional language model that widens memory searches
    gap: VectorGap = field(default_factory=VectorGap)
    searches: dict[frozenset[str], PackSearch] = field(default_factory=dict)  # by the packs hidden from the caller
    searches_lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def open(
        cls,
        settings: Settings,
        graph: GraphStore,
        embedder: Embedder,
        vectors: VectorIndex,
        relations: RelationVocabulary,
        search: SearchConfig,
        expander: QueryExpander | None,
    ) -> Services:
        """Each collaborator built from the ones it needs, lowest first, so none reaches a half-built whole."""
        snapshot = GraphSnapshot(graph, relations)
        live = LiveIndex(graph, snapshot)
        teams = TeamSources(graph, _github_app(settings))
        indexer = Indexer(settings, graph, embedder, live.write, teams)
        return cls(settings, graph, embedder, vectors, relations, search, snapshot, live, teams, indexer, expander)

    def pack_search(self, hidden: frozenset[str] = frozenset()) -> PackSearch:
        """Hybrid search for callers who may not see ``hidden``, kept for the ``KEPT_SEARCHES`` sets asked for
        last: its tables live in the shared graph copy, so building one per call only repeated the retrievers'
        set-up, and callers of ever new access (team sources) must not grow the server without end."""
        with self.searches_lock:
            found = self.searches.pop(hidden, None) or PackSearch(
                self.graph, self.embedder, self.vectors, self.snapshot, self.relations, self.search, hidden
            )
            self.searches[hidden] = found  # the last asked for goes last; the first is the least recent
            while len(self.searches) > KEPT_SEARCHES:
                del self.searches[next(iter(self.searches))]
            return found

    def vectors_lost(self) -> str:
        """A coded note for answers by meaning when the vector store holds fewer vectors than the graph has
        entities (a shard that lost points): the rest are found by words and links only, until an ingest of
        their packs embeds them again (the server marked them at start). Empty when nothing is lost."""
        return self.gap.note(self.snapshot, self.vectors)


def _github_app(settings: Settings) -> GitHubApp | None:
    """The App when one is configured; without it, team sources stay closed and local packs work as ever, and
    githubkit (about 0.3 s of every start) is never imported."""
    if settings.github_app_id is None or settings.github_app_private_key is None:
        return None
    from graphrag.github.client import GitHubApp

    return GitHubApp(settings)


Background = Callable[[Services, threading.Event], None]  # runs beside the server until the event is set


def services_of(ctx: Context) -> Services:
    services = ctx.lifespan_context["services"]
    assert isinstance(services, Services)
    return services
