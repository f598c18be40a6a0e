"""The MCP server: ``create_server(settings)`` builds it; the lifespan opens the stores once per process."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Literal

import anyio
from fastmcp import FastMCP
from starlette.requests import Request
from starlette.responses import JSONResponse

import graphrag
from graphrag.config import Settings
from graphrag.embedding import Embedder, load_embedder
from graphrag.memory.expansion import QueryExpander, load_expander
from graphrag.memory.schema import ensure_memory_schema
from graphrag.observations.admission import ObservationPolicy
from graphrag.retrieval.config import SearchConfig, configured
from graphrag.retrieval.vector_index import VectorIndex, open_vector_index
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.server.access import load_access
from graphrag.server.call_log import CallLog
from graphrag.server.context import Background, Services
from graphrag.server.deadline import CallDeadline
from graphrag.server.errors import ToolErrors
from graphrag.server.memory_tools import MEMORY_TOOLS
from graphrag.server.prompts import register_prompts
from graphrag.server.resources import register_resources
from graphrag.server.team_tools import TEAM_TOOLS
from graphrag.server.tools import PACK_TOOLS
from graphrag.server.webhook import Webhook
from graphrag.stores.graph import GraphStore

if TYPE_CHECKING:
    from graphrag.server.observing import ObservationRuntime

INSTRUCTIONS = """Knowledge packs as a typed graph. For a question, call pack_context first: it answers a multi-hop
question in one call (entities with their frontmatter attributes, connecting paths, citable passages).
pack_search finds entities by name, words and meaning; pack_graph follows typed links (neighbourhood, shortest
paths with `to`, relation chains with `path`); pack_get reads one entity whole (large ones in pages with
cursor='start'); pack_catalog lists the packs, their kinds and relation names with counts. Resources:
packs://catalog (the same), pack://{id} (an entity as markdown). Prompt: multi_hop_answer guides an answer
through these tools.
search finds saved memory records, not packs (with provenance, freshness status and graph_relations);
save_memory saves one; validate_memory checks all records of one source against its current hash;
run_archivist rebuilds a workspace's links between records and entities.
Errors start with a stable code: not_found, invalid_argument, forbidden, workspace_inactive, rate_limited,
response_too_large, document_changed, conflict, unavailable, internal; an unknown name lists the nearest ones."""
TEAM_INSTRUCTIONS = """
Team sources (packs github:owner/repo in GitHub repositories): github_connect, then connect_source; they are
seen only while GitHub lets you read them; reindex_source indexes one again, disconnect_source drops it.
get_document reads a file live (pages with cursor='start'), put_document writes it over the sha you read."""
Transport = Literal["stdio", "http"]
QUERY_RETRY_SECONDS = 3  # a call waits this long for a lost Neo4j before it answers `unavailable`
HEALTH_SECONDS = 1.5  # /health answers within this (load balancers time out at 2 s and more)
log = logging.getLogger(__name__)


class StoreLifespan:
    """Opens Neo4j, the vector index and the embedder and builds the in-memory tables of hybrid search before
    the first call (``/health`` says ok only then), and closes them at the end; a ``background`` task
    (``serve --watch``) runs in a thread of its own in between; with an observations journal configured,
    opens it too (without waiting for its database) and runs its cleanup."""

    def __init__(
        self,
        settings: Settings,
        embedder: Embedder | None,
        background: Background | None,
        observations: ObservationRuntime | None,
        search: SearchConfig,
        expander: QueryExpander | None,
    ) -> None:
        self._settings = settings
        self._search = search
        self._expander = expander
        self._embedder = embedder
        self._background = background
        self._observations = observations
        self._pings = anyio.CapacityLimiter(1)
        self.vectors_missing = 0  # entities without a vector, found at start (a shard that lost points)
        self.services: Services | None = None

    @asynccontextmanager
    async def __call__(self, server: FastMCP) -> AsyncIterator[dict[str, Any]]:
        opened = await anyio.to_thread.run_sync(self._open)
        self.services = opened
        stop = threading.Event()
        beside = None
        if self._background is not None:
            beside = threading.Thread(target=self._background, args=(opened, stop), name="background", daemon=True)
            beside.start()
        try:
            if self._observations is None:
                yield {"services": opened}
            else:
                async with self._observations.running():
                    yield {"services": opened, "observations": self._observations}
        finally:
            stop.set()
            if beside is not None:
                await anyio.to_thread.run_sync(beside.join)
            self.services = None
            await anyio.to_thread.run_sync(opened.indexer.stop)
            opened.vectors.close()
            opened.graph.close()

    def _open(self) -> Services:
        graph = GraphStore.connect(self._settings, retry_seconds=QUERY_RETRY_SECONDS)
        try:
            ensure_memory_schema(graph)
            graph.ensure_schema("github_schema")
            embedder = self._embedder or load_embedder(self._settings.graphrag_embedder)
            embedder.embed(["warm up"])  # the model loads lazily, without a lock: load it before concurrent calls
            vectors = open_vector_index(self._settings, embedder.id)
            self.vectors_missing = _vectors_missing(graph, vectors)
            relations = RelationVocabulary(graph)
            services = Services.open(self._settings, graph, embedder, vectors, relations, self._search, self._expander)
            started = time.perf_counter()
            services.pack_search().warm()
            log.info("warm-up: the tables of hybrid search built in %.2f s", time.perf_counter() - started)
        except BaseException:
            graph.close()
            raise
        return services

    async def health(self, request: Request) -> JSONResponse:
        """``GET /health`` for load balancers, unauthenticated: ``ok`` (200) or ``unavailable`` naming the store
        (503), within ``HEALTH_SECONDS``. Why a store failed goes to the log, never to the caller."""
        opened = self.services  # None until the stores are open (Neo4j is opened first)
        if opened is not None:
            with anyio.move_on_after(HEALTH_SECONDS):
                try:  # one ping at a time: a hanging Neo4j must not pile up threads, one per probe
                    await anyio.to_thread.run_sync(
                        lambda: opened.graph.read("server_ping"), abandon_on_cancel=True, limiter=self._pings
                    )
                    if self.vectors_missing:
                        return JSONResponse({"status": "degraded", "store": "qdrant"})
                    return JSONResponse({"status": "ok"})
                except Exception as exc:  # any failure means "not ready"
                    log.warning("health: Neo4j does not answer: %s", " ".join(str(exc).split()))
        return JSONResponse({"status": "unavailable", "store": "neo4j"}, status_code=503)


def _vectors_missing(graph: GraphStore, vectors: VectorIndex) -> int:
    """How many entities the vector store lost (a segment deleted, a shard replaced): logged, shown by /health
    as ``degraded``, and their packs marked so that the next ``graphrag ingest`` embeds them again."""
    expected = graph.read("vectors_expected")[0]
    missing = int(expected["entities"]) - vectors.count()
    if missing > 0:
        log.warning(
            "the vector store holds vectors for %d of %d entities: vector search misses the rest until "
            "`graphrag ingest` on their packs embeds them again",
            expected["entities"] - missing,
            expected["entities"],
        )
        graph.write("ingest_mark_vectors_pending", packs=expected["packs"])
    return max(missing, 0)


def create_server(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    background: Background | None = None,
    transport: Transport = "stdio",
    search: SearchConfig | None = None,
) -> FastMCP:
    """The server with every tool; ``embedder`` lets tests and benchmarks share one loaded model;
    ``search`` ranks instead of ``GRAPHRAG_SEARCH_CONFIG`` (the evaluator's recipes);
    ``background`` runs beside it with the open stores (``graphrag serve --watch`` ingests there).
    The team source tools are there only where a caller can use them (``team_sources_served``).

    A tokens file that cannot be used, an observations journal configured by halves, a search
    configuration that does not validate, or a query expander that cannot be loaded raises
    ``invalid_argument`` here, before anything is served.
    """
    if search is None:
        search = configured(settings.graphrag_search_config)
    access = load_access(settings.graphrag_tokens_file)
    policy = ObservationPolicy.from_settings(settings)
    dsn = settings.graphrag_observations_dsn
    teams = team_sources_served(settings, transport)
    served = [PACK_TOOLS, MEMORY_TOOLS, *([TEAM_TOOLS] if teams else [])]
    observations, hook = None, []
    if policy and dsn:  # PostgreSQL's client is imported only here: a start without a journal is 0.05 s faster
        from graphrag.server.observing import FEEDBACK_TOOLS, ObservationHook, ObservationRuntime

        observations = ObservationRuntime(policy, dsn.get_secret_value())
        served.append(FEEDBACK_TOOLS)
        observed = {name: argument for tools in served for name, argument in tools.observed().items()}
        hook = [ObservationHook(observations, observed)]
    expander = load_expander(settings.graphrag_query_expander)
    stores = StoreLifespan(settings, embedder, background, observations, search, expander)
    mcp = FastMCP(
        "graphrag",
        instructions=INSTRUCTIONS + (TEAM_INSTRUCTIONS if teams else ""),
        version=graphrag.__version__,
        lifespan=stores,
        mask_error_details=True,
        auth=access.auth,
        middleware=[
            CallLog(),
            CallDeadline(settings.graphrag_call_timeout_seconds),
            *access.middleware,
            *hook,
            ToolErrors(),
        ],
    )
    for tools in served:
        tools.register(mcp)
    register_resources(mcp)
    register_prompts(mcp)
    mcp.custom_route("/health", methods=["GET"])(stores.health)
    secret = settings.github_webhook_secret
    webhook = Webhook(secret.get_secret_value() if secret else None, lambda: stores.services)
    mcp.custom_route("/github/webhook", methods=["POST"])(webhook.receive)
    return mcp


def team_sources_served(settings: Settings, transport: Transport) -> bool:
    """Team sources need a GitHub App and a caller GitHub can be asked about: a token's account, over HTTP with a
    tokens file. Elsewhere (stdio, HTTP without tokens or without the App) every team tool could only answer
    ``forbidden``, so none is listed: six tool schemas in every conversation for nothing."""
    configured = settings.github_app_id is not None and settings.github_app_private_key is not None
    if configured and transport == "http" and settings.graphrag_tokens_file is None:
        log.warning("team sources are off: a GitHub App is set, but no GRAPHRAG_TOKENS_FILE gives callers accounts")
    return configured and transport == "http" and settings.graphrag_tokens_file is not None
