"""The GitHub App client: one short-lived installation token per repository, permission and request.

GitHub stays the only judge of access (team sources contract): nothing here caches a permission or a token
beyond the call that asked for it. githubkit brings the App JWT, typed models of GitHub's published OpenAPI
description, and typed errors; its automatic retry is off, since a rate-limit answer must reach the caller
as ``rate_limited`` instead of blocking a tool call for minutes.
"""

from __future__ import annotations

import logging
import re
import time
from datetime import datetime
from typing import Literal

from githubkit import AppAuthStrategy, GitHub, TokenAuthStrategy
from githubkit.exception import RateLimitExceeded, RequestError, RequestFailed
from pydantic import BaseModel, ConfigDict

from graphrag.config import Settings
from graphrag.errors import GraphRagError, InvalidArgument, echo

log = logging.getLogger(__name__)

Access = Literal["write", "read", "none"]
TokenPermission = Literal["read", "write"]
REPOSITORY = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
# GitHub's permission names, from most to least: admin and maintain can write, triage only reads.
WRITES = frozenset({"admin", "maintain", "write"})
READS = frozenset({"triage", "read"})


class GitHubNotConfigured(GraphRagError):
    code = "unavailable"


class GitHubForbidden(GraphRagError):
    code = "forbidden"


class GitHubRateLimited(GraphRagError):
    code = "rate_limited"


class GitHubUnavailable(GraphRagError):
    code = "unavailable"


class RepositoryToken(BaseModel):
    """An installation token valid for one repository and one permission, until ``expires_at``."""

    model_config = ConfigDict(frozen=True)

    repository: str
    permission: TokenPermission
    token: str
    expires_at: datetime


def parse_repository(name: str) -> tuple[str, str]:
    """``owner/repo`` -> (owner, repo); anything else is an ``invalid_argument``."""
    if not REPOSITORY.fullmatch(name):
        raise InvalidArgument(f"a GitHub repository is named owner/repo, got {echo(name)!r}")
    owner, repo = name.split("/")
    return owner, repo


def access_of(permission: str) -> Access:
    """GitHub's collaborator permission name -> what the service lets the account do."""
    if permission in WRITES:
        return "write"
    return "read" if permission in READS else "none"


class GitHubApp:
    """Asks GitHub as the App: installation tokens for one repository, an account's current permission."""

    def __init__(self, settings: Settings) -> None:
        if settings.github_app_id is None or settings.github_app_private_key is None:
            raise GitHubNotConfigured("team sources need GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY")
        self._base_url = settings.github_api_url
        self._app = GitHub(
            AppAuthStrategy(settings.github_app_id, settings.github_app_private_key.get_secret_value()),
            base_url=self._base_url,
            auto_retry=False,
            http_cache=False,
        )

    def _as(self, token: RepositoryToken) -> GitHub[TokenAuthStrategy]:
        return GitHub(TokenAuthStrategy(token.token), base_url=self._base_url, auto_retry=False, http_cache=False)

    def repository_token(self, repository: str, permission: TokenPermission) -> RepositoryToken:
        """A fresh token for ``repository`` alone, with contents ``permission`` (and metadata read)."""
        owner, repo = parse_repository(repository)
        with _answers("installation token", repository):
            installation = self._app.rest.apps.get_repo_installation(owner, repo).parsed_data
            issued = self._app.rest.apps.create_installation_access_token(
                installation.id,
                data={"repositories": [repo], "permissions": {"contents": permission, "metadata": "read"}},
            ).parsed_data
        return RepositoryToken(
            repository=repository, permission=permission, token=issued.token, expires_at=issued.expires_at
        )

    def access(self, repository: str, login: str) -> Access:
        """``login``'s current access to ``repository``, asked now: ``none`` when GitHub answers 404."""
        token = self.repository_token(repository, "read")
        owner, repo = parse_repository(repository)
        with _answers("collaborator permission", repository, none_on_404=True) as answer:
            client = self._as(token)  # held here: githubkit's namespaces only weakly reference their client
            found = client.rest.repos.get_collaborator_permission_level(owner, repo, login).parsed_data
            answer.access = access_of(found.permission)
        return answer.access


class _answers:
    """Turns githubkit's failures into the service's coded errors, and logs each call with its duration."""

    def __init__(self, call: str, repository: str, *, none_on_404: bool = False) -> None:
        self.call, self.repository, self.none_on_404 = call, repository, none_on_404
        self.access: Access = "none"

    def __enter__(self) -> _answers:
        self._started = time.perf_counter()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> bool:
        ms = round((time.perf_counter() - self._started) * 1000)
        if error is None:
            log.info("github %s for %s: ok in %d ms", self.call, self.repository, ms)
            return False
        if isinstance(error, RateLimitExceeded):
            log.warning("github %s for %s: rate limited after %d ms", self.call, self.repository, ms)
            raise GitHubRateLimited(f"GitHub's rate limit is reached; retry after {error.retry_after}") from None
        if isinstance(error, RequestFailed) and error.response.status_code == 404:
            log.info("github %s for %s: 404 in %d ms", self.call, self.repository, ms)
            if self.none_on_404:
                self.access = "none"
                return True
            raise GitHubForbidden(f"the GitHub App cannot reach {self.repository}") from None
        if isinstance(error, RequestFailed) and error.response.status_code in (401, 403):
            log.warning("github %s for %s: refused after %d ms", self.call, self.repository, ms)
            raise GitHubForbidden(f"GitHub refused the App for {self.repository}") from None
        if isinstance(error, RequestError | RequestFailed):
            log.error("github %s for %s: failed after %d ms", self.call, self.repository, ms, exc_info=error)
            raise GitHubUnavailable(f"GitHub did not answer for {self.repository}") from None
        return False
