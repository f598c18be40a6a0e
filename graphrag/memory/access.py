"""Who may use which workspace: project-bound bearer tokens over HTTP, the local user over stdio.

The operator lists projects and tokens in one YAML/JSON file (named by ``GRAPHRAG_TOKENS_FILE``)::

    projects:
      acme: {active: true, calls_per_minute: 600}    # per-project limit, all its tokens together
      legacy: {active: false}
    tokens:
      - {name: ci-bot, token: "long random secret", project: acme, calls_per_minute: 120}

The verifier puts the token's project and limits into the access token's claims, so tools and the rate
limiter need no registry of their own. A token whose project is unlisted or inactive is still accepted
at the HTTP layer: the tools then answer the contract's own text instead of a bare 401.
"""

from __future__ import annotations

import hmac
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp.types as mt
import yaml
from fastmcp.exceptions import ToolError
from fastmcp.server.auth import AccessToken, TokenVerifier
from fastmcp.server.dependencies import get_access_token
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from pydantic import BaseModel, Field

from graphrag.errors import GraphRagError, InvalidArgument
from graphrag.stores.graph import GraphStore

LOCAL_PROJECT = "local"
WINDOW_SECONDS = 60.0
DENIED = "403 Forbidden: workspace access denied for project"
UNBOUND = "bound project is missing, inactive, or outside tenant"


class ProjectConfig(BaseModel):
    active: bool = True
    calls_per_minute: int | None = Field(default=None, ge=1)


class TokenConfig(BaseModel):
    name: str
    token: str = Field(min_length=16)
    project: str
    calls_per_minute: int | None = Field(default=None, ge=1)


class AccessConfig(BaseModel):
    projects: dict[str, ProjectConfig] = Field(default_factory=dict)
    tokens: list[TokenConfig] = Field(default_factory=list)


@dataclass(frozen=True)
class Caller:
    project: str
    project_active: bool


@dataclass(frozen=True)
class MemoryAccess:
    """What the server factory installs: ``FastMCP(auth=access.auth, middleware=access.middleware)``."""

    auth: TokenVerifier | None
    middleware: list[Middleware] = field(default_factory=list)


def load_access(tokens_file: Path | None) -> MemoryAccess:
    """No file: the local single-user setup (stdio, or HTTP on a trusted host). A file: tokens and limits."""
    if tokens_file is None:
        return MemoryAccess(auth=None)
    try:
        config = AccessConfig.model_validate(yaml.safe_load(tokens_file.read_text(encoding="utf-8")) or {})
    except (OSError, yaml.YAMLError, ValueError) as exc:
        raise InvalidArgument(f"tokens file {tokens_file} cannot be used: {exc}") from exc
    return MemoryAccess(auth=ProjectTokenVerifier(config), middleware=[CallRateLimit()])


class ProjectTokenVerifier(TokenVerifier):
    """Bearer tokens from the operator's file, each bound to one project; compared in constant time."""

    def __init__(self, config: AccessConfig) -> None:
        super().__init__()
        self._config = config

    async def verify_token(self, token: str) -> AccessToken | None:
        offered = token.encode()
        match: TokenConfig | None = None
        for entry in self._config.tokens:  # no early exit: the time taken does not say which entry matched
            if hmac.compare_digest(entry.token.encode(), offered):
                match = entry
        if match is None:
            return None
        project = self._config.projects.get(match.project)
        claims = {
            "project": match.project,
            "project_active": project is not None and project.active,
            "calls_per_minute": match.calls_per_minute,
            "project_calls_per_minute": project.calls_per_minute if project else None,
        }
        return AccessToken(token=token, client_id=match.name, scopes=[], claims=claims)


class CallRateLimit(Middleware):
    """Per-token and per-project limits on tool calls in a sliding minute.

    fastmcp's own RateLimitingMiddleware counts every protocol message and answers with a protocol
    error; this one counts tool calls only and answers with the contract's tool error texts.
    """

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._calls: dict[str, deque[float]] = {}

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        token = get_access_token()
        if token is not None:
            claims = token.claims or {}
            self._admit(
                [
                    (f"token:{token.client_id}", claims.get("calls_per_minute"), "MCP rate limit exceeded"),
                    (
                        f"project:{claims.get('project')}",
                        claims.get("project_calls_per_minute"),
                        "project call limit exceeded",
                    ),
                ]
            )
        return await call_next(context)

    def _admit(self, windows: list[tuple[str, int | None, str]]) -> None:
        """Refuse when any window is full; count the call in all of them only when it is let through."""
        now = self._clock()
        for key, limit, message in windows:
            calls = self._calls.setdefault(key, deque())
            while calls and calls[0] <= now - WINDOW_SECONDS:
                calls.popleft()
            if limit is not None and len(calls) >= limit:
                raise ToolError(f"rate_limited: {message}")
        for key, _, _ in windows:
            self._calls[key].append(now)


def current_caller() -> Caller:
    """The project of the caller's token, or the local user's project when there is no token (stdio)."""
    token = get_access_token()
    if token is None:
        return Caller(LOCAL_PROJECT, True)
    claims = token.claims or {}
    project = claims.get("project")
    if not isinstance(project, str):
        return Caller("", False)
    return Caller(project, bool(claims.get("project_active")))


def require_active_project(caller: Caller) -> None:
    if not caller.project_active:
        raise GraphRagError(UNBOUND, code="forbidden")


def require_workspace(graph: GraphStore, caller: Caller, workspace: str) -> None:
    """Reading needs an active workspace of the caller's project; one held only by other projects is refused."""
    require_active_project(caller)
    state = graph.read("memory_workspace", project=caller.project, workspace=workspace)[0]
    if state["exists"] and state["active"]:
        return
    if not state["exists"] and state["foreign"]:
        raise GraphRagError(DENIED, code="forbidden")
    raise GraphRagError(f"workspace '{workspace}' is not active", code="workspace_inactive")
