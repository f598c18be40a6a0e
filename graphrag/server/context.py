"""What every tool reaches through the FastMCP lifespan: the settings, the open stores, team sources.

Tools read it with ``services(ctx)``; the server's lifespan creates it once per process.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastmcp import Context

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.github.client import app_of
from graphrag.github.sources import TeamSources
from graphrag.retrieval.config import SearchConfig
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.vectors import VectorIndex
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.server.live import LiveIndex
from graphrag.stores.graph import GraphStore
from ingest.team_indexer import Indexer


@dataclass
class Services:
    settings: Settings
    graph: GraphStore
    embedder: Embedder
    vectors: VectorIndex
    relations: RelationVocabulary
    search: SearchConfig  # what shapes every ranking (GRAPHRAG_SEARCH_CONFIG, or the default)
    snapshot: GraphSnapshot = field(init=False)  # the in-memory graph the retrievers share
    live: LiveIndex = field(init=False)  # this process's own writes (serve --watch, team sources)
    teams: TeamSources = field(init=False)
    indexer: Indexer = field(init=False)

    def __post_init__(self) -> None:
        self.snapshot = GraphSnapshot(self.graph, self.relations)
        self.live = LiveIndex(self)
        self.teams = TeamSources(self.graph, app_of(self.settings))
        self.indexer = Indexer(self.settings, self.graph, self.embedder, self.live.write, self.teams)


def services(ctx: Context) -> Services:
    found = ctx.lifespan_context["services"]
    assert isinstance(found, Services)
    return found
