"""The pack tools: thin typed shells over the retrievers, each declared with the fit that cuts its answer to the
response budget (``declaring``)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastmcp import Context
from pydantic import Field

from graphrag.errors import ResponseTooLarge
from graphrag.retrieval.catalog import Catalog, CatalogResult
from graphrag.retrieval.context import PackContext
from graphrag.retrieval.graph import MAX_DEPTH, PackGraph
from graphrag.retrieval.models import ATTRIBUTE_UNITS, EntityPage, GraphResult
from graphrag.retrieval.search import Mode
from graphrag.server.answers import ContextAnswer, SearchAnswer, context_answer, search_answer
from graphrag.server.budget import clip, clip_value, fit_items, fit_list, largest_fitting, wire_bytes
from graphrag.server.context import Services, services_of
from graphrag.server.declaring import Tools
from graphrag.server.paging import EntityPager, Format
from graphrag.server.schemas import READ_ONLY, Cursor, EntityId, Name, Query
from graphrag.server.visibility import Indexed, Scope, caller_view, current_reader

MAX_HITS = 50
MAX_NODES = 500
DESCRIPTION_UNITS = 300  # UTF-16 units of a relation description in the catalog
PACK_TOOLS = Tools()


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _fit_context(answer: ContextAnswer, budget: int) -> ContextAnswer:
    """Each attribute value is capped at ``ATTRIBUTE_UNITS``; then passages are shortened (they are the longest
    fields), then the last ones left out and counted; entities and paths are never dropped
    (``response_too_large`` if they alone cannot fit)."""
    for entity in answer.entities:
        entity.attributes = {name: clip_value(value, ATTRIBUTE_UNITS) for name, value in entity.attributes.items()}
    passages = answer.passages
    for kept in range(len(passages), -1, -1):
        trimmed = answer.model_copy(update={"passages": passages[:kept], "omitted_passages": len(passages) - kept})
        try:
            return fit_items(trimmed, [*trimmed.passages, *trimmed.entities], budget, "the context")
        except ResponseTooLarge:
            if kept == 0:
                raise
    raise AssertionError("unreachable: the loop returns or raises at kept == 0")


@PACK_TOOLS.tool(READ_ONLY, fit=_fit_context, observed="question")
def pack_context(
    question: Annotated[Query, Field(min_length=1, description="The question, in any language.")],
    packs: Annotated[list[EntityId] | None, Field(description="Only entities of these packs (ids).")] = None,
    kinds: Annotated[
        list[Name] | None, Field(description="Only entities of these kinds (any case, plural too).")
    ] = None,
    *,
    ctx: Context,
) -> ContextAnswer:
    """Call this first for a question about the packs. What a multi-hop answer needs in one call: entities
    (named first, each with why and its frontmatter: authors, status, dates), the typed paths connecting them,
    and the body passages that hold the question's words (path, lines and sha256 to cite)."""
    scope = Scope.of(ctx, packs, kinds)
    services = scope.services
    result = PackContext(services.graph, scope.search(), services.search.context).build(
        question, scope.packs, scope.kinds
    )
    answer = context_answer(result, scope.stale(Indexed(e.id, e.pack, e.path, e.sha256) for e in result.entities))
    answer.hint = " ".join(filter(None, (services.vectors_lost(), answer.hint)))
    return answer


def _fit_search(answer: SearchAnswer, budget: int) -> SearchAnswer:
    return fit_list(answer, "results", budget, "the search results")


@PACK_TOOLS.tool(READ_ONLY, fit=_fit_search, observed="query")
def pack_search(
    query: Annotated[Query, Field(min_length=1, description="What to look for, in any language.")],
    limit: Annotated[int, Field(description="Most hits; clamped to 1..50.")] = 10,
    packs: Annotated[list[EntityId] | None, Field(description="Only these packs (ids; see pack_catalog).")] = None,
    kinds: Annotated[
        list[Name] | None, Field(description="Only these kinds, e.g. ['mission'] (any case, plural too).")
    ] = None,
    mode: Annotated[
        Mode,
        Field(
            description="hybrid: names, words, meaning and the typed links around them, fused; "
            "vector: the summary's meaning; text: the words of title, aliases, summary and body."
        ),
    ] = "hybrid",
    *,
    ctx: Context,
) -> SearchAnswer:
    """Entities for a query, best first, each saying why (matched; via: the typed path from a named entity).
    Hits past the response budget are counted in omitted."""
    scope = Scope.of(ctx, packs, kinds)
    result = scope.search().search(query, _clamp(limit, 1, MAX_HITS), scope.packs, scope.kinds, mode)
    answer = search_answer(result, scope.stale(Indexed(h.id, h.pack, h.path, h.sha256) for h in result.results), mode)
    if mode != "text":
        answer.hint = scope.services.vectors_lost()
    return answer


def _fit_graph(result: GraphResult, budget: int) -> GraphResult:
    """The start and as many of the nearest entities as fit, with the edges among them."""
    others = len(result.nodes) - 1

    def first(count: int) -> GraphResult:
        kept = result.nodes[: count + 1]
        ids = {node.id for node in kept}
        return result.model_copy(
            update={
                "nodes": kept,
                "edges": [e for e in result.edges if e.source in ids and e.target in ids],
                "truncated": result.truncated or count < others,
                "omitted": result.omitted + others - count,
            }
        )

    return largest_fitting(first, 0, others, budget, "the graph answer")


@PACK_TOOLS.tool(READ_ONLY, fit=_fit_graph)
def pack_graph(
    id: Annotated[EntityId, Field(min_length=1, description="The start entity's id.")],
    depth: Annotated[int, Field(description="Most hops; clamped to 1..4.")] = 2,
    relations: Annotated[
        list[Name] | None,
        Field(description="Only these relations (e.g. part_of, or an inverse such as has_part)."),
    ] = None,
    direction: Annotated[
        Literal["out", "in", "both"], Field(description="Follow links as declared (out), backwards (in), or both.")
    ] = "both",
    limit: Annotated[int, Field(description="Most entities besides the start; clamped to 1..500.")] = 100,
    to: Annotated[EntityId | None, Field(description="Also list the shortest typed paths to this entity.")] = None,
    path: Annotated[
        list[Name] | None,
        Field(description="Follow these relations in order (^name walks one backwards); answers `reached`."),
    ] = None,
    *,
    ctx: Context,
) -> GraphResult:
    """The typed-link neighbourhood of an entity, shortest paths to another, or where a chain of relations leads."""
    scope = Scope.of(ctx)
    return PackGraph(scope.services.graph, scope.services.relations, scope.view.hidden).explore(
        id, _clamp(depth, 1, MAX_DEPTH), relations, direction, _clamp(limit, 1, MAX_NODES), to, path
    )


@PACK_TOOLS.tool(READ_ONLY)
def pack_get(
    id: Annotated[EntityId, Field(min_length=1, description="The entity's id.")],
    cursor: Annotated[
        Cursor | None, Field(description="'start' to read in pages, then each page's next_cursor until complete.")
    ] = None,
    format: Annotated[Format, Field(description="full: with the body; metadata: frontmatter and links only.")] = "full",
    *,
    ctx: Context,
) -> EntityPage:
    """The whole entity: frontmatter, body, and its links both ways with a preview of the other end. One too
    large comes as its first page: read on with next_cursor."""
    services = services_of(ctx)
    return EntityPager(current_reader(services), services.settings.graphrag_response_budget_bytes).get(
        id, cursor, format
    )


@PACK_TOOLS.tool(READ_ONLY)
def pack_catalog(*, ctx: Context) -> CatalogResult:
    """The packs and their kinds, and the relations (and declared inverses) pack_graph follows, with counts:
    the names the filters take."""
    return catalog_of(services_of(ctx))


def catalog_of(services: Services) -> CatalogResult:
    """The catalog as this caller may see it (``pack_catalog``, ``packs://catalog``), within the response budget;
    a relation's description is clipped to ``DESCRIPTION_UNITS``, so one wordy pack.yaml cannot crowd it out."""
    result = Catalog(services.graph, services.relations, services.snapshot, caller_view(services).hidden).result()
    for pack in result.packs:
        pack.relation_descriptions = {n: clip(d, DESCRIPTION_UNITS) for n, d in pack.relation_descriptions.items()}
    budget = services.settings.graphrag_response_budget_bytes
    if wire_bytes(result) > budget:
        raise ResponseTooLarge(
            f"the catalog is {wire_bytes(result):,} bytes, past the response budget of {budget:,} bytes "
            "(GRAPHRAG_RESPONSE_BUDGET_BYTES)"
        )
    return result
