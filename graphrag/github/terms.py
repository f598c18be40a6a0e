"""What the service knows of GitHub without talking to it: repository names, permissions, tokens, files,
and the errors GitHub's answers become. Kept apart from the client (``graphrag.github.client``) because
githubkit costs every process that imports it about 0.3 s, and only a deployment with a GitHub App needs it
(the server imports the client only then).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from graphrag.errors import GraphRagError, InvalidArgument, echo

Access = Literal["write", "read", "none"]
TokenPermission = Literal["read", "write"]
REPOSITORY = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
# GitHub's permission names, from most to least: admin and maintain can write, triage only reads.
WRITES = frozenset({"admin", "maintain", "write"})
READS = frozenset({"triage", "read"})


class GitHubNotConfigured(GraphRagError):
    """No GitHub App is configured: the team source tools cannot reach GitHub."""

    code = "unavailable"


class GitHubForbidden(GraphRagError):
    """GitHub refused the App, or the account has no access to the repository."""

    code = "forbidden"


class GitHubRateLimited(GraphRagError):
    """GitHub's rate limit is reached: the caller retries after the time it names."""

    code = "rate_limited"


class GitHubUnavailable(GraphRagError):
    """GitHub did not answer, or answered something the service cannot use."""

    code = "unavailable"


class GitHubNotFound(GraphRagError):
    """GitHub does not know the repository, file or installation asked for."""

    code = "not_found"


class GitHubConflict(GraphRagError):
    """A write whose ``sha`` is not the file's current one: someone else changed it since it was read."""

    code = "conflict"


class RepositoryToken(BaseModel):
    """An installation token valid for one repository and one permission, until ``expires_at``."""

    model_config = ConfigDict(frozen=True)

    repository: str
    permission: TokenPermission
    token: str
    expires_at: datetime


class GitHubAccount(BaseModel):
    """What identifies a GitHub account, and all the service keeps of it."""

    model_config = ConfigDict(frozen=True)

    login: str
    id: int


class TreeFile(BaseModel):
    model_config = ConfigDict(frozen=True)

    sha: str
    size: int


class LiveFile(BaseModel):
    """One file as GitHub has it now (or at ``ref``): its path, blob sha and exact bytes."""

    model_config = ConfigDict(frozen=True)

    path: str
    sha: str
    content: bytes


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
