"""The GitHub App client against the local double: tokens, permissions asked anew, coded failures."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime

import pytest
from githubkit import GitHub, TokenAuthStrategy
from githubkit.exception import RequestFailed

from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.github.client import GitHubApp
from graphrag.github.terms import access_of, parse_repository
from tests.github.conftest import READER, REPOSITORY, STRANGER, WRITER
from tests.github.double import GitHubDouble, sign_delivery


def test_a_token_is_scoped_to_one_repository_and_permission(github_settings: Settings, github: GitHubDouble) -> None:
    token = GitHubApp(github_settings).repository_token(REPOSITORY, "write")
    issued = github.tokens[token.token]
    assert (issued.repository, issued.permissions) == (REPOSITORY, {"contents": "write", "metadata": "read"})
    assert token.expires_at > datetime.now(UTC)


def test_each_account_gets_its_access(github_settings: Settings) -> None:
    app = GitHubApp(github_settings)
    assert [app.access(REPOSITORY, login) for login in (WRITER, READER, STRANGER)] == ["write", "read", "none"]


def test_a_revoked_permission_shows_on_the_very_next_call(github_settings: Settings, github: GitHubDouble) -> None:
    app = GitHubApp(github_settings)
    assert app.access(REPOSITORY, READER) == "read"
    github.set_permission(REPOSITORY, READER, None)
    assert app.access(REPOSITORY, READER) == "none"


def test_every_call_asks_github_again(github_settings: Settings, github: GitHubDouble) -> None:
    app = GitHubApp(github_settings)
    app.access(REPOSITORY, WRITER)
    app.access(REPOSITORY, WRITER)
    asked = [line for line in github.requests if line.endswith(f"/collaborators/{WRITER}/permission")]
    assert len(asked) == 2 and len(github.tokens) == 2


def test_the_installation_is_asked_once_and_again_after_a_reinstall(
    github_settings: Settings, github: GitHubDouble
) -> None:
    app = GitHubApp(github_settings)
    for _ in range(3):
        app.repository_token(REPOSITORY, "read")
    github.installation_id = 78  # the App was uninstalled and installed again
    assert app.access(REPOSITORY, READER) == "read"
    lookups = [line for line in github.requests if line.endswith(f"/repos/{REPOSITORY}/installation")]
    assert (len(lookups), len(github.tokens)) == (2, 4)


def test_an_expired_token_is_refused_by_the_double(github_settings: Settings, github: GitHubDouble) -> None:
    app = GitHubApp(github_settings)
    token = app.repository_token(REPOSITORY, "read")
    github.expire_tokens()
    stale = GitHub(TokenAuthStrategy(token.token), base_url=github.url, auto_retry=False)
    with pytest.raises(RequestFailed) as refused:
        stale.rest.repos.get_collaborator_permission_level("acme", "handbook", WRITER)
    assert refused.value.response.status_code == 401
    assert app.access(REPOSITORY, WRITER) == "write"  # a fresh token each request, never the expired one


def test_a_repository_without_the_app_is_forbidden(github_settings: Settings) -> None:
    with pytest.raises(GraphRagError) as caught:
        GitHubApp(github_settings).access("acme/secret", WRITER)
    assert str(caught.value) == "forbidden: the GitHub App cannot reach acme/secret"


def test_a_wrong_app_key_is_forbidden(github_settings: Settings, github: GitHubDouble) -> None:
    github.public_key = "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----\n"
    with pytest.raises(GraphRagError) as caught:
        GitHubApp(github_settings).access(REPOSITORY, WRITER)
    assert str(caught.value) == "forbidden: GitHub refused the App for acme/handbook"


def test_a_rate_limit_answer_is_rate_limited(github_settings: Settings, github: GitHubDouble) -> None:
    github.rate_limited = True
    with pytest.raises(GraphRagError) as caught:
        GitHubApp(github_settings).access(REPOSITORY, WRITER)
    assert caught.value.code == "rate_limited"
    assert len(github.requests) == 1  # no silent retry that would hold the tool call


def test_without_an_app_team_sources_are_unavailable(settings: Settings) -> None:
    with pytest.raises(GraphRagError) as caught:
        GitHubApp(settings)
    assert str(caught.value) == "unavailable: team sources need GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY"


@pytest.mark.parametrize("name", ["acme", "acme/", "/x", "a/b/c", "acme/re po", "-acme/x", "a" * 40 + "/x"])
def test_a_bad_repository_name_is_invalid(name: str) -> None:
    with pytest.raises(GraphRagError) as caught:
        parse_repository(name)
    assert caught.value.code == "invalid_argument"


def test_permission_names_map_to_access() -> None:
    assert [access_of(name) for name in ("admin", "maintain", "write", "triage", "read", "")] == [
        "write",
        "write",
        "write",
        "read",
        "read",
        "none",
    ]


def test_a_signed_delivery_carries_a_verifiable_signature() -> None:
    headers, body = sign_delivery("s3cret", "push", {"ref": "refs/heads/main"})
    expected = "sha256=" + hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
    assert headers["X-Hub-Signature-256"] == expected and len(headers["X-GitHub-Delivery"]) == 32


def test_a_user_token_names_its_account(github_settings: Settings, github: GitHubDouble) -> None:
    assert GitHubApp(github_settings).login_of(github.user_token(READER)).login == READER


def test_a_stranger_token_is_forbidden(github_settings: Settings) -> None:
    with pytest.raises(GraphRagError, match=r"forbidden|refused"):
        GitHubApp(github_settings).login_of("ghu_not-issued")


def test_the_head_and_its_tree_list_blobs_and_an_empty_repository_has_none(
    github_settings: Settings, github: GitHubDouble
) -> None:
    app = GitHubApp(github_settings)
    token = app.repository_token(REPOSITORY, "read")
    assert app.head(token) is None
    first = github.write(REPOSITORY, "pack/a.md", b"---\nid: a\n---\n")
    assert app.head(token) == first
    tree = app.tree(token, first)
    assert list(tree) == ["pack/a.md"]
    assert tree["pack/a.md"].sha == hashlib.sha1(b"blob 14\x00---\nid: a\n---\n").hexdigest()
    assert app.blob(token, tree["pack/a.md"].sha) == b"---\nid: a\n---\n"
    second = github.write(REPOSITORY, "pack/b.md", b"---\nid: b\n---\n")
    assert app.head(token) == second
    assert (list(app.tree(token, first)), list(app.tree(token, second))) == (["pack/a.md"], ["pack/a.md", "pack/b.md"])
