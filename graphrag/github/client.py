"""The GitHub App client: one short-lived installation token per repository, permission and request.

GitHub stays the only judge of access (team sources contract): nothing here caches a permission or a token
beyond the call that asked for it. githubkit brings the App JWT, typed models of GitHub's published OpenAPI
description, and typed errors; its automatic retry is off, since a rate-limit answer must reach the caller
as ``rate_limited`` instead of blocking a tool call for minutes.
"""

from __future__ import annotations

import base64
import logging
import re
import time
from typing import TypeVar
from urllib.parse import quote

import httpx
from githubkit import AppAuthStrategy, GitHub, TokenAuthStrategy
from githubkit.auth import BaseAuthStrategy
from githubkit.exception import RateLimitExceeded, RequestError, RequestFailed
from githubkit.utils import UNSET
from githubkit.versions.latest.models import ContentFile

from graphrag.config import Settings
from graphrag.errors import InvalidArgument, echo
from graphrag.github.terms import (
    Access,
    GitHubAccount,
    GitHubConflict,
    GitHubForbidden,
    GitHubNotConfigured,
    GitHubNotFound,
    GitHubRateLimited,
    GitHubUnavailable,
    LiveFile,
    RepositoryToken,
    TokenPermission,
    TreeFile,
    access_of,
    parse_repository,
)

log = logging.getLogger(__name__)

Auth = TypeVar("Auth", bound=BaseAuthStrategy)


class GitHubApp:
    """Asks GitHub as the App: installation tokens for one repository, an account's current permission."""

    def __init__(self, settings: Settings) -> None:
        if settings.github_app_id is None or settings.github_app_private_key is None:
            raise GitHubNotConfigured("team sources need GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY")
        self._base_url = settings.github_api_url
        self._pool = _KeptOpen()
        self._app = self._client(
            AppAuthStrategy(settings.github_app_id, settings.github_app_private_key.get_secret_value())
        )
        self._installations: dict[str, int] = {}  # repository -> the App's installation on it (not a permission)

    def _client(self, auth: Auth) -> GitHub[Auth]:
        return GitHub(auth, base_url=self._base_url, auto_retry=False, http_cache=False, transport=self._pool)

    def _as(self, token: RepositoryToken) -> GitHub[TokenAuthStrategy]:
        return self._client(TokenAuthStrategy(token.token))

    def repository_token(self, repository: str, permission: TokenPermission) -> RepositoryToken:
        """A fresh token for ``repository`` alone, with contents ``permission`` (and metadata read). The
        installation id is remembered; when GitHub no longer knows it (the App was reinstalled), it is asked
        again once."""
        owner, repo = parse_repository(repository)
        known = self._installations.get(repository)
        try:
            return self._token(repository, known or self._installation(owner, repo, repository), permission)
        except GitHubForbidden:
            if known is None:
                raise
            self._installations.pop(repository, None)
            return self._token(repository, self._installation(owner, repo, repository), permission)

    def _installation(self, owner: str, repo: str, repository: str) -> int:
        with _answers("installation", repository):
            found = self._app.rest.apps.get_repo_installation(owner, repo).parsed_data.id
        self._installations[repository] = found
        return found

    def _token(self, repository: str, installation: int, permission: TokenPermission) -> RepositoryToken:
        repo = repository.split("/")[1]
        with _answers("installation token", repository):
            issued = self._app.rest.apps.create_installation_access_token(
                installation,
                data={"repositories": [repo], "permissions": {"contents": permission, "metadata": "read"}},
            ).parsed_data
        return RepositoryToken(
            repository=repository, permission=permission, token=issued.token, expires_at=issued.expires_at
        )

    def login_of(self, user_token: str) -> GitHubAccount:
        """Who a user access token (from the App's user authorisation) belongs to; the token is not kept."""
        with _answers("user", "the authenticated user"):
            user = self._client(TokenAuthStrategy(user_token))
            found = user.rest.users.get_authenticated().parsed_data
        return GitHubAccount(login=found.login, id=found.id)

    def head(self, token: RepositoryToken) -> str | None:
        """The default branch's commit sha now (one small answer); None for an empty repository."""
        owner, repo = parse_repository(token.repository)
        with _answers("head", token.repository, absent_on=409) as answer:  # 409: the repository is empty
            client = self._as(token)
            found = client.request(
                "GET", f"/repos/{owner}/{repo}/commits/HEAD", headers={"Accept": "application/vnd.github.sha"}
            )
        if not answer.answered:
            return None
        sha = found.text.strip()
        if not re.fullmatch(r"[0-9a-f]{40}", sha):
            raise GitHubUnavailable(f"GitHub did not answer a commit sha for {token.repository}")
        return sha

    def tree(self, token: RepositoryToken, commit: str) -> dict[str, TreeFile]:
        """Every file of ``commit`` (path -> blob)."""
        owner, repo = parse_repository(token.repository)
        with _answers("tree", token.repository):
            client = self._as(token)
            tree = client.rest.git.get_tree(owner, repo, commit, recursive="1").parsed_data
        if tree.truncated:
            raise GitHubUnavailable(f"GitHub's tree of {token.repository} is too large to list in one answer")
        return {
            item.path: TreeFile(sha=item.sha, size=item.size or 0)
            for item in tree.tree
            if item.type == "blob" and isinstance(item.size, int | None)
        }

    def blob(self, token: RepositoryToken, sha: str) -> bytes:
        """The bytes of one blob (any size GitHub keeps, unlike the contents API's 1 MB)."""
        owner, repo = parse_repository(token.repository)
        with _answers("blob", token.repository):
            client = self._as(token)
            found = client.rest.git.get_blob(owner, repo, sha).parsed_data
        if found.encoding != "base64":
            raise GitHubUnavailable(f"GitHub sent a blob of {token.repository} in {found.encoding!r}, not base64")
        return base64.b64decode(found.content)

    def file(self, token: RepositoryToken, path: str, ref: str | None = None) -> LiveFile:
        """The file at ``path`` on the default branch, or at ``ref`` (a branch, tag or commit sha).

        The contents API sends a file of up to 1 MB inline; a larger one (up to GitHub's 100 MB) comes with
        encoding ``none`` and no content, and is then read whole through the git blob API by its sha.
        """
        owner, repo = parse_repository(token.repository)
        where = f"{echo(path)!r} at {echo(ref)!r}" if ref is not None else repr(echo(path))
        with _answers("file", token.repository, missing=f"{token.repository} has no file {where}"):
            client = self._as(token)
            found = client.rest.repos.get_content(owner, repo, quote(path), ref=UNSET if ref is None else ref)
            answer = found.parsed_data
        if not isinstance(answer, ContentFile):
            kind = "a folder" if isinstance(answer, list) else f"a {answer.type}"
            raise InvalidArgument(f"{where} in {token.repository} is {kind}, not a file")
        if answer.encoding == "base64":
            content = base64.b64decode(answer.content)
        elif answer.encoding == "none" and not answer.content:
            content = self.blob(token, answer.sha)
        else:
            raise GitHubUnavailable(f"GitHub sent a file of {token.repository} in {answer.encoding!r}")
        return LiveFile(path=answer.path, sha=answer.sha, content=content)

    def put_file(self, token: RepositoryToken, path: str, content: bytes, sha: str | None, message: str) -> str:
        """Commits ``content`` at ``path`` on the default branch and returns the file's new blob sha.

        ``sha`` is the blob the caller read (None to create a file): GitHub refuses the write when the file
        is no longer at that blob, or exists although ``sha`` is None, and nothing changes (``conflict``).
        """
        owner, repo = parse_repository(token.repository)
        stale = (
            f"{echo(path)!r} in {token.repository} is no longer at sha {echo(sha)}; read it again and redo the edit"
            if sha is not None
            else f"{echo(path)!r} already exists in {token.repository}; read it with its sha and pass that sha"
        )
        with _answers("write file", token.repository, conflict=stale):
            client = self._as(token)
            written = client.rest.repos.create_or_update_file_contents(
                owner,
                repo,
                quote(path),
                message=message,
                content=base64.b64encode(content).decode(),
                sha=UNSET if sha is None else sha,
            ).parsed_data
        new = written.content.sha if written.content else None
        if not isinstance(new, str):
            raise GitHubUnavailable(f"GitHub did not say the new sha of a file written in {token.repository}")
        return new

    def access(self, repository: str, login: str, token: RepositoryToken | None = None) -> Access:
        """``login``'s current access to ``repository``, asked now: ``none`` when GitHub answers 404.
        ``token`` (one for ``repository``) saves asking for a new one."""
        token = token or self.repository_token(repository, "read")
        owner, repo = parse_repository(repository)
        with _answers("collaborator permission", repository, absent_on=404) as answer:  # 404: no access
            client = self._as(token)  # held here: githubkit's namespaces only weakly reference their client
            found = client.rest.repos.get_collaborator_permission_level(owner, repo, login).parsed_data
        return access_of(found.permission) if answer.answered else "none"


class _KeptOpen(httpx.HTTPTransport):
    """One connection pool for all of the App's calls: githubkit closes its client after every request, and
    with it the transport, which would cost a new connection (a TLS handshake) per request."""

    def close(self) -> None:
        return None


class _answers:
    """Turns githubkit's failures into the service's coded errors, and logs each call with its duration."""

    def __init__(
        self,
        call: str,
        repository: str,
        *,
        absent_on: int | None = None,
        missing: str | None = None,
        conflict: str | None = None,
    ) -> None:
        """``absent_on``: the status that means "nothing there", an answer of its own (``answered`` stays
        False); ``missing``: the ``not_found`` message a 404 means (else the App cannot reach the repository);
        ``conflict``: the ``conflict`` message a 409 or 422 means (a write's stale or missing sha)."""
        self.call, self.repository, self.absent_on = call, repository, absent_on
        self.missing, self.conflict = missing, conflict
        self.answered = False

    def __enter__(self) -> _answers:
        self._started = time.perf_counter()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: object) -> bool:
        ms = round((time.perf_counter() - self._started) * 1000)
        if error is None:
            log.info("github %s for %s: ok in %d ms", self.call, self.repository, ms)
            self.answered = True
            return False
        if isinstance(error, RateLimitExceeded):
            log.warning("github %s for %s: rate limited after %d ms", self.call, self.repository, ms)
            raise GitHubRateLimited(f"GitHub's rate limit is reached; retry after {error.retry_after}") from None
        status = error.response.status_code if isinstance(error, RequestFailed) else None
        if status is not None and status == self.absent_on:
            log.info("github %s for %s: %d in %d ms", self.call, self.repository, status, ms)
            return True
        if status == 404:
            log.info("github %s for %s: 404 in %d ms", self.call, self.repository, ms)
            if self.missing is not None:
                raise GitHubNotFound(self.missing) from None
            raise GitHubForbidden(f"the GitHub App cannot reach {self.repository}") from None
        if status in (409, 422) and self.conflict:
            log.info("github %s for %s: conflict in %d ms", self.call, self.repository, ms)
            raise GitHubConflict(self.conflict) from None
        if status in (401, 403):
            log.warning("github %s for %s: refused after %d ms", self.call, self.repository, ms)
            raise GitHubForbidden(f"GitHub refused the App for {self.repository}") from None
        if isinstance(error, RequestError | RequestFailed):
            log.error("github %s for %s: failed after %d ms", self.call, self.repository, ms, exc_info=error)
            raise GitHubUnavailable(f"GitHub did not answer for {self.repository}") from None
        return False
