"""Team sources: which service account is which GitHub account, the sources each connected, and what a
caller may see of them right now.

A source is one repository, or one folder of it, indexed as the pack ``github:owner/repo[/folder]``.
Connecting stores only the GitHub login and id; whether that login may read or write the repository is
asked of GitHub on every request (``authorise``, ``view``) and kept for that request only. A caller
without a verified HTTP account (stdio, loopback without tokens) is the local owner: local packs only.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from graphrag.errors import GraphRagError, InvalidArgument, NotFound, echo
from graphrag.github.terms import Access, GitHubForbidden, RepositoryToken, parse_repository
from graphrag.names import MAX_ID_LENGTH, is_valid_id
from graphrag.names import TEAM_PACK_PREFIX as PREFIX
from graphrag.stores.graph import GraphStore

if TYPE_CHECKING:
    from graphrag.github.client import GitHubApp

Need = Literal["read", "write"]
log = logging.getLogger(__name__)


class NotConnected(GraphRagError):
    code = "forbidden"


@dataclass(frozen=True)
class Source:
    """A repository, or one folder of it, as a pack."""

    repository: str
    folder: str  # "" for the whole repository

    @property
    def id(self) -> str:
        return f"{PREFIX}{self.repository}" + (f"/{self.folder}" if self.folder else "")

    def repository_path(self, relative: str) -> str:
        """A pack-relative path as a path in the repository."""
        return f"{self.folder}/{relative}" if self.folder else relative

    def pack_path(self, repository_path: str) -> str | None:
        """A repository path as a pack-relative one, or None when it lies outside the source's folder."""
        if not self.folder:
            return repository_path
        prefix = self.folder + "/"
        return repository_path[len(prefix) :] if repository_path.startswith(prefix) else None


def source_of(repository: str, folder: str | None = None) -> Source:
    """``owner/repo`` and an optional folder (``packs/handbook``), checked: the source's id must be a valid
    pack id (the one id rule), and no part of the folder empty or hidden (``..`` included)."""
    parse_repository(repository)
    cleaned = (folder or "").strip("/")
    source = Source(repository, cleaned)
    if any(not part or part.startswith(".") for part in cleaned.split("/") if cleaned) or not (
        is_valid_id(source.id) and len(source.id) <= MAX_ID_LENGTH
    ):
        raise InvalidArgument(
            f"source folder {echo(cleaned)!r}: give visible folder names of letters, digits and . _ - "
            f"(the source's id is at most {MAX_ID_LENGTH} characters)"
        )
    return source


def parse_source(name: str) -> Source:
    """``github:owner/repo[/folder]`` (as tools name a source) -> the source; anything else is invalid."""
    if not name.startswith(PREFIX):
        raise InvalidArgument(f"a team source is named github:owner/repo[/folder], got {echo(name)!r}")
    owner, _, rest = name.removeprefix(PREFIX).partition("/")
    repo, _, folder = rest.partition("/")
    return source_of(f"{owner}/{repo}", folder or None)


@dataclass(frozen=True)
class Grant:
    """One request's right to one source: the caller's GitHub login and access, and a token for it."""

    source: Source
    login: str
    access: Access
    token: RepositoryToken


@dataclass(frozen=True)
class View:
    """What one caller may see in this request: team packs to hide, and a read grant per readable one."""

    hidden: frozenset[str]
    readable: dict[str, Grant]

    @property
    def everything(self) -> bool:
        return not self.hidden


class TeamSources:
    """Connections in Neo4j, permissions from GitHub (``app`` is None when no App is configured)."""

    def __init__(self, graph: GraphStore, app: GitHubApp | None) -> None:
        self._graph = graph
        self._app = app

    @property
    def app(self) -> GitHubApp:
        if self._app is None:
            raise GitHubForbidden(
                "team sources are not configured on this server (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY)"
            )
        return self._app

    def connect_account(self, account: str, user_token: str) -> str:
        """Learns the GitHub login behind ``user_token`` and records it for ``account``; returns the login."""
        found = self.app.login_of(user_token)
        self._graph.write("github_connect_account", account=account, login=found.login, github_id=found.id)
        log.info("github: an account connected its GitHub login")
        return found.login

    def login(self, account: str) -> tuple[str, list[str]]:
        """(GitHub login, connected source ids) of ``account``; ``forbidden`` before ``github_connect``."""
        rows = self._graph.read("github_account", account=account)
        if not rows:
            raise NotConnected("connect GitHub first with github_connect")
        return rows[0]["login"], rows[0]["sources"]

    def connect_source(self, account: str, source: Source) -> Grant:
        """Connects ``source`` for ``account`` once GitHub says its login may read the repository."""
        grant = self._grant(source, self.login(account)[0], "read")
        self._graph.write(
            "github_connect_source",
            account=account,
            id=source.id,
            repository=source.repository,
            path=source.folder,
        )
        return grant

    def disconnect_source(self, account: str, source: Source) -> int:
        """Removes ``account``'s connection; returns how many accounts are still connected (0: the source
        itself is gone, and its index copies must be removed)."""
        if source.id not in self.login(account)[1]:
            raise NotFound(f"{source.id} is not one of your connected sources")
        return int(self._graph.write("github_disconnect_source", account=account, id=source.id)[0]["left"])

    def authorise(self, account: str | None, source: Source, need: Need) -> Grant:
        """The caller's grant on a source it connected, asked of GitHub now; ``forbidden`` otherwise."""
        if account is None:
            raise NotConnected("team sources need an authenticated HTTP caller; stdio sees local packs only")
        login, connected = self.login(account)
        if source.id not in connected:
            raise NotFound(f"{source.id} is not one of your connected sources; connect it with connect_source")
        return self._grant(source, login, need)

    def _grant(self, source: Source, login: str, need: Need) -> Grant:
        token = self.app.repository_token(source.repository, need)
        access = self.app.access(source.repository, login, token)
        if access == "none" or (need == "write" and access != "write"):
            raise GitHubForbidden(f"GitHub does not let you {need} {source.repository}")
        return Grant(source, login, access, token)

    def sources(self) -> list[Source]:
        return [source_of(row["repository"], row["path"]) for row in self._graph.read("github_sources")]

    def view(self, account: str | None) -> View:
        """Team packs the caller may read now (GitHub asked once per connected source), the rest hidden.
        Without any team pack, nothing is asked."""
        team = {row["id"] for row in self._graph.read("github_team_packs")}
        if not team:
            return View(frozenset(), {})
        readable: dict[str, Grant] = {}
        if account is not None and self._app is not None:
            rows = self._graph.read("github_account", account=account)
            login, connected = (rows[0]["login"], rows[0]["sources"]) if rows else ("", [])
            for source_id in sorted(team & set(connected)):
                try:
                    readable[source_id] = self._grant(parse_source(source_id), login, "read")
                except GitHubForbidden:
                    continue
                except GraphRagError:  # GitHub cannot say now: the source stays closed for this request
                    log.warning("github: %s hidden for this request, its access is unknown", source_id, exc_info=True)
        return View(frozenset(team - readable.keys()), readable)
