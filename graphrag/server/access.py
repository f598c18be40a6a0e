"""Who may call the tools: project-bound bearer tokens over HTTP, the local user over stdio.

The operator lists projects and tokens in one YAML/JSON file (named by ``GRAPHRAG_TOKENS_FILE``)::

    projects:
      acme: {active: true, calls_per_minute: 600}    # per-project limit, all its tokens together
      legacy: {active: false}
    tokens:
      - {name: ci-bot, token: "long random secret", project: acme, calls_per_minute: 120}

A file that cannot be used is refused at start with one line naming the entry by position
(``tokens[2].token: ...``), never the token itself. The verifier puts the token's project, its entry's
position and the limits into the access token's claims. A token whose project is unlisted or inactive is
still accepted at the HTTP layer: every tool call then answers the contract's own text instead of a bare
401, and that gate is a middleware, so no tool can forget it.
"""

from __future__ import annotations

import hmac
import time
import urllib.parse
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp.types as mt
import yaml
from fastmcp.exceptions import FastMCPError, PromptError, ResourceError, ToolError
from fastmcp.prompts import PromptResult
from fastmcp.resources import ResourceResult
from fastmcp.server.auth import AccessToken, TokenVerifier
from fastmcp.server.dependencies import get_access_token
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from pydantic import BaseModel, Field, ValidationError

from graphrag.errors import InvalidArgument, echo, name_list

LOCAL_PROJECT = "local"
WINDOW_SECONDS = 60.0
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
class Access:
    """What the server factory installs: ``FastMCP(auth=access.auth, middleware=access.middleware)``."""

    auth: TokenVerifier | None
    middleware: list[Middleware] = field(default_factory=list)


def load_access(tokens_file: Path | None) -> Access:
    """No file: the local single-user setup (stdio, or HTTP on loopback). A file: tokens and limits."""
    if tokens_file is None:
        return Access(auth=None)
    return Access(auth=ProjectTokenVerifier(read_tokens_file(tokens_file)), middleware=[CallAccess()])


def read_tokens_file(path: Path) -> AccessConfig:
    """The parsed file, or ``invalid_argument`` saying which entry is wrong (by position, never by token)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidArgument(f"tokens file {path} cannot be read: {exc.strerror}") from exc
    except yaml.MarkedYAMLError as exc:  # its text quotes the line, which may hold a token: say where only
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        raise InvalidArgument(f"tokens file {path} is not valid YAML ({where}): {exc.problem}") from None
    except yaml.YAMLError:
        raise InvalidArgument(f"tokens file {path} is not valid YAML") from None
    try:
        config = AccessConfig.model_validate(data or {})
    except ValidationError as exc:
        problems = [
            f"{_position(error['loc'])}: {error['msg']}"
            for error in exc.errors(include_url=False, include_context=False, include_input=False)
        ]
        raise InvalidArgument(f"tokens file {path}: {name_list(problems, '; ')}") from None
    repeated = _repeated(config.tokens)
    if repeated:
        raise InvalidArgument(f"tokens file {path}: {name_list(repeated, '; ')}")
    return config


def _position(loc: tuple[int | str, ...]) -> str:
    """``('tokens', 2, 'token')`` -> ``tokens[2].token``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text or "the file"


def _repeated(tokens: list[TokenConfig]) -> list[str]:
    """A name must tell a project's tokens apart (two projects may each have a ``ci-bot``), and one token in
    two entries would bind it to whichever entry matched last."""
    problems: list[str] = []
    names: dict[tuple[str, str], int] = {}
    secrets: dict[str, int] = {}
    for index, entry in enumerate(tokens):
        if (first := names.setdefault((entry.project, entry.name), index)) != index:
            problems.append(f"tokens[{index}].name: '{echo(entry.name)}' already names tokens[{first}] of that project")
        if (first := secrets.setdefault(entry.token, index)) != index:
            problems.append(f"tokens[{index}].token: the same token as tokens[{first}]")
    return problems


class ProjectTokenVerifier(TokenVerifier):
    """Bearer tokens from the operator's file, each bound to one project; compared in constant time."""

    def __init__(self, config: AccessConfig) -> None:
        super().__init__()
        self._config = config

    async def verify_token(self, token: str) -> AccessToken | None:
        offered = token.encode()
        match: int | None = None
        for index, entry in enumerate(self._config.tokens):  # no early exit: the time says nothing of the entry
            if hmac.compare_digest(entry.token.encode(), offered):
                match = index
        if match is None:
            return None
        entry = self._config.tokens[match]
        project = self._config.projects.get(entry.project)
        account = account_id(entry.project, entry.name)
        claims = {
            "account": account,
            "project": entry.project,
            "project_active": project is not None and project.active,
            "entry": match,
            "calls_per_minute": entry.calls_per_minute,
            "project_calls_per_minute": project.calls_per_minute if project else None,
        }
        # The MCP session manager binds a session to (client_id, issuer, subject): the account, unique per
        # token entry, so a token of another project whose entry has the same name cannot use it.
        return AccessToken(token=token, client_id=account, subject=account, scopes=[], claims=claims)


class CallAccess(Middleware):
    """Per tool call, resource read and prompt: the token's project must be listed and active, and its
    minute must not be full.

    Limits count those calls (not protocol messages, as fastmcp's RateLimitingMiddleware does) in a sliding
    minute, per token entry and per project. Windows are keyed by project and entry position, never by a
    display name: two projects may each name a token ``ci-bot``.
    """

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._calls: dict[Hashable, deque[float]] = {}

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        self._check(ToolError)
        return await call_next(context)

    async def on_read_resource(
        self,
        context: MiddlewareContext[mt.ReadResourceRequestParams],
        call_next: CallNext[mt.ReadResourceRequestParams, ResourceResult],
    ) -> ResourceResult:
        """A resource read (``pack://{id}``) is a call like ``pack_get``: same gate, same windows."""
        self._check(ResourceError)
        return await call_next(context)

    async def on_get_prompt(
        self,
        context: MiddlewareContext[mt.GetPromptRequestParams],
        call_next: CallNext[mt.GetPromptRequestParams, PromptResult],
    ) -> PromptResult:
        self._check(PromptError)
        return await call_next(context)

    def _check(self, error: type[FastMCPError]) -> None:
        token = get_access_token()
        if token is None:
            return
        caller = caller_of(token)
        if not caller.project_active:
            raise error(f"forbidden: {UNBOUND}")
        claims = token.claims or {}
        self._admit(
            [
                (
                    ("token", caller.project, claims.get("entry")),
                    claims.get("calls_per_minute"),
                    "MCP rate limit exceeded",
                ),
                (
                    ("project", caller.project),
                    claims.get("project_calls_per_minute"),
                    "project call limit exceeded",
                ),
            ],
            error,
        )

    def _admit(self, windows: list[tuple[Hashable, int | None, str]], error: type[FastMCPError]) -> None:
        """Refuse when any window is full; count the call in all of them only when it is let through."""
        now = self._clock()
        for key, limit, message in windows:
            calls = self._calls.setdefault(key, deque())
            while calls and calls[0] <= now - WINDOW_SECONDS:
                calls.popleft()
            if limit is not None and len(calls) >= limit:
                raise error(f"rate_limited: {message}")
        for key, _, _ in windows:
            self._calls[key].append(now)


def account_id(project: str, name: str) -> str:
    """The account a token entry stands for, as the observations allowlist names it: ``project/name``, each part
    percent-encoded where it holds ``/`` or ``%`` (or other unsafe characters), so two entries never share one."""
    return f"{urllib.parse.quote(project, safe='')}/{urllib.parse.quote(name, safe='')}"


def verified_account(token: AccessToken | None) -> str | None:
    """The account of a bearer token this server verified; None over stdio, without tokens, or anonymously."""
    account = (token.claims or {}).get("account") if token is not None else None
    return account if isinstance(account, str) and account else None


def caller_of(token: AccessToken | None) -> Caller:
    """The project a token is bound to, or the local user's project without one (stdio, loopback HTTP)."""
    if token is None:
        return Caller(LOCAL_PROJECT, True)
    claims = token.claims or {}
    project = claims.get("project")
    if not isinstance(project, str):
        return Caller("", False)
    return Caller(project, bool(claims.get("project_active")))


def current_caller() -> Caller:
    """The caller of the tool call being served."""
    return caller_of(get_access_token())
