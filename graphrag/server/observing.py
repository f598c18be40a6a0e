"""MCP's side of the observations journal: the recording hook on ``pack_search`` and ``pack_context``, the
``retrieval_feedback`` tool, and the cleanup that ``graphrag serve`` runs every 15 minutes.

The hook is a middleware: before a tool declared ``observed`` runs, it admits the call or not (mode, the verified
token's account on the allowlist, the text filter) and, when admitted, exposes an ``Observed`` to the tool's
declaration (``observed``, ``declaring``), which stamps the answer's hits with the observation id before the
response budget is applied (the id counts against the budget) and notes what was retrieved and returned. After
the tool, the hook schedules the write (never awaited) and puts the id into the result's ``_meta``. A call the
hook does not admit runs exactly as without a journal.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal, cast, get_args

import anyio
import mcp.types as mt
from fastmcp import Context
from fastmcp.server.dependencies import get_access_token, get_http_request
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

import graphrag
from graphrag.errors import InvalidArgument
from graphrag.observations.admission import ObservationPolicy, expired
from graphrag.observations.journal import Journal, JournalUnavailable
from graphrag.observations.model import Observation, Tool
from graphrag.server.access import verified_account
from graphrag.server.context import Services
from graphrag.server.declaring import Tools
from graphrag.server.observed import Observed, observing
from graphrag.server.schemas import Bounded, Digest

CLEANUP_SECONDS = 15 * 60
MAX_HIT_ID_CHARS = 1000
FEEDBACK = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
FEEDBACK_TOOLS = Tools()  # served only with a journal configured
log = logging.getLogger(__name__)


def caller_account() -> str | None:
    """The verified account of an HTTP call, else None (stdio and anonymous calls are never recorded)."""
    try:
        get_http_request()
    except RuntimeError:
        return None
    return verified_account(get_access_token())


@dataclass
class ObservationRuntime:
    """What the server holds while a journal is configured: the policy, and the journal once the lifespan opens it."""

    policy: ObservationPolicy
    dsn: str
    journal: Journal | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Journal]:
        """Open the journal (without waiting for its database) and run the cleanup every 15 minutes, even with
        the mode ``off``: records written earlier must still go on time. The cleanup is a thread of its own, so
        it neither holds the event loop nor depends on which task closes the server."""
        journal = Journal(self.dsn).open()
        stop = threading.Event()
        cleaner = threading.Thread(target=_clean_until, args=(journal, stop), name="observations-cleanup", daemon=True)
        self.journal = journal
        cleaner.start()
        try:
            yield journal
        finally:
            self.journal = None
            stop.set()
            await anyio.to_thread.run_sync(cleaner.join)
            await anyio.to_thread.run_sync(journal.close)


def _clean_until(journal: Journal, stop: threading.Event) -> None:
    """One cleanup batch now, then one every ``CLEANUP_SECONDS`` until ``stop`` is set."""
    while not stop.is_set():
        try:
            changed = journal.expire()
            log.info("observations cleanup: %d rows deleted or scrubbed", changed, extra={"changed": changed})
        except JournalUnavailable as exc:
            log.warning("observations cleanup failed: %s", exc.args[0])
        stop.wait(CLEANUP_SECONDS)


class ObservationHook(Middleware):
    """Admits calls of the tools declared ``observed`` to the journal and schedules their records."""

    def __init__(self, runtime: ObservationRuntime, observed: Mapping[str, str]) -> None:
        """``observed``: tool name -> the argument that holds its query, for every tool declared observed; each
        must be a tool the journal's records name (``Tool``)."""
        unnamed = sorted(set(observed) - set(get_args(Tool)))
        assert not unnamed, f"tools declared observed that the journal cannot name: {unnamed}"
        self._runtime = runtime
        self._observed = observed

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        journal = self._runtime.journal
        argument = self._observed.get(context.message.name)
        query = (context.message.arguments or {}).get(argument or "")
        if journal is None or argument is None or not isinstance(query, str):
            return await call_next(context)
        admission = self._runtime.policy.admit(caller_account(), query)
        if admission is None:
            return await call_next(context)
        observed = Observed(admission)
        with observing(observed):
            result = await call_next(context)
        if observed.hits is not None:
            journal.schedule(self._observation(context, observed))
            result.meta = {**(result.meta or {}), "observation_id": observed.observation_id}
        return result

    def _observation(self, context: MiddlewareContext[Any], observed: Observed) -> Observation:
        services = _services(context.fastmcp_context)
        return Observation(
            admission=observed.admission,
            tool=cast(Tool, context.message.name),  # admitted, so one of the names checked at start
            search_mode=observed.search_mode,
            hits=observed.hits or [],
            omitted=observed.omitted,
            available=observed.available,
            corpus_version=None,  # no cheap version of the whole corpus exists yet: null, never a guess
            embedder_version=services.embedder.id if services else None,
            service_version=graphrag.__version__,
        )


def _services(ctx: Context | None) -> Services | None:
    found = ctx.lifespan_context.get("services") if ctx is not None else None
    return found if isinstance(found, Services) else None


FeedbackReason = Literal["disabled", "not_enrolled", "pending", "expired", "not_found", "unavailable"]


class FeedbackResult(BaseModel):
    recorded: bool
    reason: FeedbackReason | None = Field(
        default=None,
        description="Why not: disabled (journal off), not_enrolled (this account is not recorded), pending (the "
        "observation is still being written: retry shortly), expired, not_found (no such hit in your observations; "
        "retry once if you searched just now), unavailable (the journal's database did not answer).",
    )


@FEEDBACK_TOOLS.tool(FEEDBACK)
def retrieval_feedback(
    observation_id: Annotated[Digest, Field(description="The observation_id of a pack_search or pack_context answer.")],
    hit_id: Annotated[
        str,
        Bounded(MAX_HIT_ID_CHARS),
        Field(description="A hit of that answer: an entity id, or a passage's hit_id."),
    ],
    cited: Annotated[bool | None, Field(description="Whether your answer cited it; null when unknown.")] = None,
    *,
    ctx: Context,
) -> FeedbackResult:
    """Say whether you cited a hit you were given. Accepted only for a hit of your own recorded answer."""
    try:
        parsed = uuid.UUID(observation_id)
    except ValueError:
        raise InvalidArgument("observation_id is not a UUID: pass the observation_id of an answer") from None
    if not hit_id:
        raise InvalidArgument("hit_id is empty: pass the id of a hit of that answer")
    runtime = ctx.lifespan_context["observations"]
    assert isinstance(runtime, ObservationRuntime), "retrieval_feedback is served only with a journal"
    journal = runtime.journal
    account = caller_account()
    if journal is None or runtime.policy.mode == "off":
        return FeedbackResult(recorded=False, reason="disabled")
    if account is None or account not in runtime.policy.allowlist:
        return FeedbackResult(recorded=False, reason="not_enrolled")
    if journal.pending(parsed):
        return FeedbackResult(recorded=False, reason="pending")
    if expired(parsed):
        return FeedbackResult(recorded=False, reason="expired")
    try:
        recorded = journal.feedback(account, parsed, hit_id, cited)
    except JournalUnavailable as exc:
        log.warning("feedback not recorded: %s", exc.args[0])
        return FeedbackResult(recorded=False, reason="unavailable")
    return FeedbackResult(recorded=recorded, reason=None if recorded else "not_found")
