"""What every tool reaches through the FastMCP lifespan: the settings and the open stores.

Tools read it with ``services(ctx)``; the server's lifespan creates it once per process.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastmcp import Context

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.vectors import VectorIndex
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.stores.graph import GraphStore


@dataclass
class Services:
    settings: Settings
    graph: GraphStore
    embedder: Embedder
    vectors: VectorIndex
    relations: RelationVocabulary
    snapshot: GraphSnapshot = field(init=False)  # the in-memory graph the retrievers share

    def __post_init__(self) -> None:
        self.snapshot = GraphSnapshot(self.graph, self.relations)


def services(ctx: Context) -> Services:
    found = ctx.lifespan_context["services"]
    assert isinstance(found, Services)
    return found
