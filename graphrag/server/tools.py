"""The pack tools: thin typed shells over the retrievers, each answer cut to the response budget."""

from __future__ import annotations

from typing import Annotated, Literal

from fastmcp import Context, FastMCP
from pydantic import Field

from graphrag.errors import ResponseTooLarge
from graphrag.github.sources import View
from graphrag.retrieval.catalog import Catalog, CatalogResult
from graphrag.retrieval.context import PackContext
from graphrag.retrieval.graph import MAX_DEPTH, PackGraph
from graphrag.retrieval.models import ATTRIBUTE_UNITS, EntityPage, GraphResult
from graphrag.retrieval.search import Mode, PackSearch
from graphrag.server.answers import ContextAnswer, SearchAnswer, context_answer, search_answer
from graphrag.server.budget import clip, clip_value, fit_items, fit_list, largest_fitting, wire_bytes
from graphrag.server.context import Services, services_of
from graphrag.server.errors import coded
from graphrag.server.observing import current_observation
from graphrag.server.paging import EntityPager, Format
from graphrag.server.schemas import READ_ONLY, Cursor, EntityId, Name, Query, add_tool
from graphrag.server.visibility import Indexed, caller_view, current_reader, stale

MAX_HITS = 50
MAX_NODES = 500
DESCRIPTION_UNITS = 300  # UTF-16 units of a relation description in the catalog


def register_pack_tools(mcp: FastMCP) -> None:
    for tool in (pack_context, pack_search, pack_graph, pack_get, pack_catalog):
        add_tool(mcp, tool, READ_ONLY)


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


@coded
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
    services = services_of(ctx)
    view = caller_view(services)
    packs, kinds = Catalog(services.graph, services.relations, services.snapshot, view.hidden).filters(packs, kinds)
    result = _search(services, view).search(query, _clamp(limit, 1, MAX_HITS), packs, kinds, mode)
    left_out = stale(services, view, (Indexed(h.id, h.pack, h.path, h.sha256) for h in result.results))
    observed = current_observation()
    answer = search_answer(result, left_out, observed.observation_id if observed else None)
    if mode != "text":
        answer.hint = services.vectors_lost()
    if observed is not None:
        observed.stamp_search(answer, result.available, mode)
    fitted = fit_list(answer, "results", services.settings.graphrag_response_budget_bytes, "the search results")
    if observed is not None:
        observed.search_returned(fitted)
    return fitted


@coded
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
    services = services_of(ctx)
    view = caller_view(services)
    packs, kinds = Catalog(services.graph, services.relations, services.snapshot, view.hidden).filters(packs, kinds)
    result = PackContext(services.graph, _search(services, view), services.search.context).build(question, packs, kinds)
    left_out = stale(services, view, (Indexed(e.id, e.pack, e.path, e.sha256) for e in result.entities))
    observed = current_observation()
    answer = context_answer(result, left_out, observed.observation_id if observed else None)
    answer.hint = " ".join(filter(None, (services.vectors_lost(), answer.hint)))
    if observed is not None:
        observed.stamp_context(answer, result.available)
    fitted = _fit_context(answer, services.settings.graphrag_response_budget_bytes)
    if observed is not None:
        observed.context_returned(fitted)
    return fitted


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


def _search(services: Services, view: View) -> PackSearch:
    return PackSearch(
        services.graph,
        services.embedder,
        services.vectors,
        services.snapshot,
        services.relations,
        services.search,
        view.hidden,
    )


@coded
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
    services = services_of(ctx)
    result = PackGraph(services.graph, services.relations, caller_view(services).hidden).explore(
        id, _clamp(depth, 1, MAX_DEPTH), relations, direction, _clamp(limit, 1, MAX_NODES), to, path
    )
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

    return largest_fitting(first, 0, others, services.settings.graphrag_response_budget_bytes, "the graph answer")


@coded
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


@coded
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
