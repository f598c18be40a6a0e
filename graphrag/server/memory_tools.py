"""The memory tools, MCP's side of ``graphrag.memory``: ``search`` (its contract: docs/memory.md),
``save_memory``, ``validate_memory`` and ``run_archivist``, declared in ``MEMORY_TOOLS``.

Who the caller is comes from ``access`` (its middleware has already refused an unlisted or inactive project).
"""

from __future__ import annotations

from typing import Annotated

from fastmcp import Context
from mcp.types import ToolAnnotations
from pydantic import Field

from graphrag.errors import InvalidArgument, NotFound, echo, name_list
from graphrag.memory.archivist import Archivist
from graphrag.memory.model import ArchivistRun, MemoryRecord, SearchResponse, StatusCounts, ValidatedRecord, Validation
from graphrag.memory.records import NewRecord, Selection, existing_ids, save, select
from graphrag.memory.search import SearchRequest
from graphrag.memory.search import search as run_search
from graphrag.memory.workspace import require_workspace
from graphrag.nearest import resolve
from graphrag.server.access import current_caller
from graphrag.server.budget import fit_items, fit_list
from graphrag.server.context import services_of
from graphrag.server.declaring import Tools
from graphrag.server.schemas import READ_ONLY, Bounded, Digest, Key, Name, Query
from graphrag.server.visibility import team_repositories
from graphrag.stores.graph import without_deadline

Content = Annotated[str, Bounded(20_000)]  # a memory record's text

WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
REBUILDS = ToolAnnotations(read_only_hint=False, idempotent_hint=True, open_world_hint=False)
MEMORY_TOOLS = Tools()


def _fit_search(response: SearchResponse, budget: int) -> SearchResponse:
    return fit_list(response, "result", budget, "search")


def _fit_record(record: MemoryRecord, budget: int) -> MemoryRecord:
    return fit_items(record, [record], budget, "the saved record")


@MEMORY_TOOLS.tool(READ_ONLY, fit=_fit_search)
def search(
    query: Annotated[Query, Field(description="Query text; empty lists the latest records.")],
    ctx: Context,
    workspace: Annotated[Name, Field(description="Workspace; it must exist (something was saved).")] = "default",
    scope: Annotated[Name | None, Field(description="Only records with this label, e.g. shared.")] = None,
    limit: Annotated[int, Field(description="How many records; clamped to 1..50.")] = 10,
    current_source_hash: Annotated[
        Digest | None, Field(description="Current source hash: records with another source_hash are stale.")
    ] = None,
    exclude_stale: Annotated[bool, Field(description="Leave out records whose status is stale.")] = False,
) -> SearchResponse:
    """Searches saved memory records, not the packs (for those: pack_context, pack_search). Records matching
    the query, with provenance, status and graph relations; those past the response budget count in `omitted`."""
    services = services_of(ctx)
    project = current_caller().project
    require_workspace(services.graph, project, workspace)
    if scope is not None:
        rows = services.graph.read("memory_scopes", project=project, workspace=workspace)
        scopes = [row["scope"] for row in rows]
        scope = resolve(scope, scopes, ("scope", "scopes"), listed_by="")[0]
    readable = team_repositories(services)
    request = SearchRequest(query, workspace, scope, limit, current_source_hash, exclude_stale, readable)
    return SearchResponse(result=run_search(services.graph, services.embedder, project, request, services.expander))


@MEMORY_TOOLS.tool(WRITES, fit=_fit_record)
def save_memory(
    content: Annotated[Content, Field(description="The fact, in any language.")],
    ctx: Context,
    workspace: Annotated[Name, Field(description="Workspace; created (activated) by the first save.")] = "default",
    scope: Annotated[Name, Field(description="A label such as shared or private (not access).")] = "shared",
    source: Annotated[Name, Field(description="Who saves it: owner, agent, telegram, ...")] = "agent",
    source_id: Annotated[Key | None, Field(description="Where it comes from, e.g. docs/deploy.md.")] = None,
    source_hash: Annotated[Digest | None, Field(description="Hash of the source, e.g. sha256:9f2c4e1a.")] = None,
    source_revision: Annotated[Digest | None, Field(description="Revision of the source, e.g. a commit.")] = None,
    fact_key: Annotated[Key | None, Field(description="Topic key; a newer record with it supersedes.")] = None,
    confidence: Annotated[float, Field(description="0.0-1.0.")] = 0.5,
    derived_from: Annotated[list[Digest] | None, Field(description="IDs of records this one summarises.")] = None,
) -> MemoryRecord:
    """Save a record, let the archivist link it, and return it as search would."""
    services = services_of(ctx)
    caller = current_caller()
    new = NewRecord(
        content=content,
        scope=scope,
        source=source,
        source_id=source_id or None,
        source_hash=source_hash or None,
        source_revision=source_revision or None,
        fact_key=fact_key or None,
        confidence=confidence,
        derived_from=tuple(dict.fromkeys(derived_from or [])),
    )
    _check_new(new, workspace)
    missing = set(new.derived_from) - existing_ids(services.graph, caller.project, workspace, new.derived_from)
    if missing:
        raise NotFound(f"derived_from names records not in workspace '{echo(workspace)}': {name_list(sorted(missing))}")
    record_id = save(services.graph, caller.project, caller.project_active, workspace, new)
    Archivist(services.graph, services.embedder).after_save(caller.project, workspace, record_id)
    return select(services.graph, caller.project, workspace, Selection(ids=[record_id]))[0].record


@MEMORY_TOOLS.tool(WRITES)
def validate_memory(
    source_id: Annotated[Key, Field(description="The source whose records are checked.")],
    ctx: Context,
    current_source_hash: Annotated[
        Digest | None, Field(description="The source's hash now; differing records are marked stale.")
    ] = None,
    workspace: Annotated[Name, Field(description="Workspace of the records.")] = "default",
) -> Validation:
    """Check one source's records: with a current hash, mark drifted ones stale (clear it on those that
    match again); report each status."""
    services = services_of(ctx)
    project = current_caller().project
    require_workspace(services.graph, project, workspace)
    if current_source_hash:
        services.graph.write(
            "memory_stale_source",
            project=project,
            workspace=workspace,
            source_id=source_id,
            current_source_hash=current_source_hash,
        )
    selection = Selection(source_id=source_id, team_repositories=team_repositories(services))
    selected = select(services.graph, project, workspace, selection)
    if not selected:
        raise NotFound(f"no records of source '{echo(source_id)}' in workspace '{echo(workspace)}'")
    records = [
        ValidatedRecord(
            id=f.record.id,
            fact_key=f.record.fact_key,
            source_hash=f.record.source_hash,
            source_revision=f.record.source_revision,
            status=f.record.status,
            stale_reason=f.stale_mark,
        )
        for f in selected
    ]
    counts = StatusCounts()
    for record in records:
        setattr(counts, record.status, getattr(counts, record.status) + 1)
    return Validation(
        workspace=workspace,
        source_id=source_id,
        current_source_hash=current_source_hash or None,
        checked=len(records),
        counts=counts,
        records=records,
    )


@MEMORY_TOOLS.tool(REBUILDS)
def run_archivist(
    ctx: Context,
    workspace: Annotated[Name, Field(description="Workspace whose links and marks are rebuilt.")] = "default",
) -> ArchivistRun:
    """Rebuild the archivist's links (supersedes, relates_to, fixes_issue) and stale marks of a workspace."""
    services = services_of(ctx)
    project = current_caller().project
    require_workspace(services.graph, project, workspace)
    with without_deadline():
        return Archivist(services.graph, services.embedder).run(project, workspace)


def _check_new(new: NewRecord, workspace: str) -> None:
    problems = []
    if not new.content.strip():
        problems.append("content is empty")
    if not workspace.strip():
        problems.append("workspace is empty")
    if not new.scope.strip() or not new.source.strip():
        problems.append("scope and source must not be empty")
    if not 0.0 <= new.confidence <= 1.0:
        problems.append(f"confidence {new.confidence} is outside 0.0-1.0")
    if problems:
        raise InvalidArgument("; ".join(problems))
