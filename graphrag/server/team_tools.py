"""The team source tools: connect GitHub and sources, index them, read and write their files live,
disconnect them.

Only an HTTP caller with a verified token has an account to connect, so the tools are registered only over HTTP
with a tokens file and a GitHub App (``app.team_sources_served``). Every call that touches a source asks GitHub
for the caller's permission again.
"""

from __future__ import annotations

from typing import Annotated

from fastmcp import Context
from fastmcp.server.dependencies import get_access_token
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from graphrag.github.documents import Caller, Format, LiveDocuments, repository_path
from graphrag.github.documents import put_document as write_document
from graphrag.github.sources import NotConnected, parse_source, source_of
from graphrag.server.access import verified_account
from graphrag.server.budget import largest_fitting
from graphrag.server.context import services_of
from graphrag.server.declaring import Tools
from graphrag.server.schemas import Bounded, Cursor, Digest
from graphrag.stores.graph import without_deadline
from ingest.limits import MAX_FILE_BYTES
from ingest.report import IngestReport, Problem

READS = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=True)
CONNECTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=True)
REMOVES = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=True)


class GitHubConnection(BaseModel):
    login: str = Field(description="The GitHub account this service account now acts as for team sources.")
    sources: list[str] = Field(description="Team sources this account has connected.")


class SourceIndex(BaseModel):
    """What indexing a team source did, in the ingest report's terms."""

    source: str = Field(description="The source's pack id, github:owner/repo[/folder]; pack tools filter by it.")
    added: int
    updated: int
    removed: int
    unchanged: int
    errors: list[Problem] = Field(description="Files rejected (their indexed version, if any, is kept).")
    warnings: list[Problem]
    omitted: int = Field(default=0, description="Problems left out to fit the response budget.")


class DocumentWritten(BaseModel):
    source: str
    filename: str
    sha: str = Field(description="The file's new blob sha: pass it to the next put_document of this file.")


class SourceDisconnected(BaseModel):
    source: str
    removed_index: bool = Field(description="True when no account is connected any more and every index copy went.")


Source = Annotated[str, Bounded(700), Field(min_length=1, description="github:owner/repo[/folder]")]
Filename = Annotated[
    str, Bounded(1024), Field(min_length=1, description="Path of the file inside the source's folder.")
]


TEAM_TOOLS = Tools()


def _index_answer(source: str, report: IngestReport) -> SourceIndex:
    return SourceIndex(
        source=source,
        added=len(report.added),
        updated=len(report.updated),
        removed=len(report.removed),
        unchanged=report.unchanged,
        errors=report.errors,
        warnings=report.warnings,
    )


def _fit_index(answer: SourceIndex, budget: int) -> SourceIndex:
    """The counts always; errors first, then warnings, as many as fit (the rest counted in ``omitted``)."""
    errors, warnings = answer.errors, answer.warnings

    def first(count: int) -> SourceIndex:
        kept = {"errors": errors[:count], "warnings": warnings[: max(0, count - len(errors))]}
        return answer.model_copy(update={**kept, "omitted": len(errors) + len(warnings) - count})

    return largest_fitting(first, 0, len(errors) + len(warnings), budget, "the index report")


def caller_account() -> str:
    """The verified HTTP account of this call; team sources are closed to everyone else."""
    account = verified_account(get_access_token())
    if account is None:
        raise NotConnected("team sources need a caller with a token of GRAPHRAG_TOKENS_FILE; this caller has none")
    return account


@TEAM_TOOLS.tool(CONNECTS)
def github_connect(
    user_token: Annotated[
        str,
        Bounded(500),
        Field(min_length=1, description="A GitHub user access token from the App's sign-in flow."),
    ],
    *,
    ctx: Context,
) -> GitHubConnection:
    """Connects your GitHub account: the token is used once to learn your login and is not kept."""
    services = services_of(ctx)
    account = caller_account()
    login = services.teams.connect_account(account, user_token)
    return GitHubConnection(login=login, sources=services.teams.login(account)[1])


@TEAM_TOOLS.tool(CONNECTS, fit=_fit_index)
def connect_source(
    repository: Annotated[str, Bounded(200), Field(min_length=1, description="owner/repo")],
    path: Annotated[
        Annotated[str, Bounded(400)] | None, Field(description="Only this folder of the repository.")
    ] = None,
    *,
    ctx: Context,
) -> SourceIndex:
    """Connects a GitHub repository (or one folder of it) you may read, and indexes its default branch as
    the pack github:owner/repo[/folder]. Installing the App gives no one access: GitHub is asked for yours."""
    services = services_of(ctx)
    source = source_of(repository, path)
    grant = services.teams.connect_source(caller_account(), source)
    with without_deadline():
        report = services.indexer.reindex(source, grant.token)
    return _index_answer(source.id, report)


@TEAM_TOOLS.tool(CONNECTS, fit=_fit_index)
def reindex_source(
    source: Source,
    *,
    ctx: Context,
) -> SourceIndex:
    """Indexes a connected source again now (only files whose blob changed are downloaded)."""
    services = services_of(ctx)
    grant = services.teams.authorise(caller_account(), parse_source(source), "read")
    with without_deadline():
        report = services.indexer.reindex(grant.source, grant.token)
    return _index_answer(grant.source.id, report)


@TEAM_TOOLS.tool(REMOVES)
def disconnect_source(
    source: Source,
    *,
    ctx: Context,
) -> SourceDisconnected:
    """Disconnects a source; when no account is connected to it any more, every index copy (entities,
    links, passages, vectors) is removed and its queued indexing cancelled."""
    services = services_of(ctx)
    parsed = parse_source(source)
    left = services.teams.disconnect_source(caller_account(), parsed)
    if left == 0:
        services.indexer.remove(parsed)
    return SourceDisconnected(source=parsed.id, removed_index=left == 0)


@TEAM_TOOLS.tool(READS)
def get_document(
    source: Source,
    filename: Filename,
    cursor: Annotated[
        Cursor | None, Field(description="'start' to read in pages, then each page's next_cursor.")
    ] = None,
    format: Annotated[Format, Field(description="full: the file; headings: its markdown headings.")] = "full",
    include_sha: Annotated[bool, Field(description="Also the file's blob sha (what put_document needs).")] = False,
    ref: Annotated[
        Annotated[str, Bounded(255)] | None, Field(description="A branch, tag or commit to read at.")
    ] = None,
    *,
    ctx: Context,
) -> str:
    """One file of a team source, read live from GitHub. A small file comes whole (its text; JSON with sha when
    include_sha or ref). A large one is read in pages: cursor='start', accumulate each page's `content`, repeat
    with next_cursor until complete is true; on document_changed start again. Only a whole file's sha may be
    used to write."""
    services = services_of(ctx)
    account = caller_account()
    grant = services.teams.authorise(account, parse_source(source), "read")
    path = repository_path(grant.source.folder, filename)
    caller = Caller(account=account, source=grant.source.id, filename=filename, format=format,
                    include_sha=include_sha, ref=ref)  # fmt: skip
    documents = LiveDocuments(services.teams.app, services.settings.graphrag_response_budget_bytes)
    return documents.get(grant.token, path, caller, cursor)


@TEAM_TOOLS.tool(WRITES)
def put_document(
    source: Source,
    filename: Filename,
    content: Annotated[
        str, Bounded(MAX_FILE_BYTES, utf8=MAX_FILE_BYTES), Field(description="The whole new text of the file.")
    ],
    sha: Annotated[
        Digest | None, Field(description="The blob sha get_document gave for the whole file; null to create one.")
    ],
    *,
    ctx: Context,
) -> DocumentWritten:
    """Writes one file of a team source through GitHub (you need write access). A sha that is no longer the
    file's (a teammate changed it) is a conflict and changes nothing: read it again and redo the edit."""
    services = services_of(ctx)
    grant = services.teams.authorise(caller_account(), parse_source(source), "write")
    path = repository_path(grant.source.folder, filename)
    message = f"Update {filename} (pack-graphrag, for {grant.login})"
    new = write_document(services.teams.app, grant.token, path, content, sha, message)
    services.indexer.enqueue(grant.source)  # the index follows at once, push webhook or not
    return DocumentWritten(source=grant.source.id, filename=filename, sha=new)
