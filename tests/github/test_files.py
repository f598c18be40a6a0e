"""Reading and writing one file live through the contents API, against the double."""

from __future__ import annotations

import pytest

from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.github.client import GitHubApp
from tests.github.conftest import REPOSITORY
from tests.github.double import INLINE_BYTES, GitHubDouble, blob_sha


def test_a_small_file_reads_inline(github_settings: Settings, github: GitHubDouble) -> None:
    github.write(REPOSITORY, "pack/a b#?.md", "# Заголовок\n".encode())
    app = GitHubApp(github_settings)
    found = app.file(app.repository_token(REPOSITORY, "read"), "pack/a b#?.md")
    assert (found.path, found.sha, found.content) == (
        "pack/a b#?.md",
        blob_sha(found.content),
        "# Заголовок\n".encode(),
    )
    assert not any("/git/blobs/" in line for line in github.requests)


def test_a_file_past_the_inline_limit_reads_whole_through_its_blob(
    github_settings: Settings, github: GitHubDouble
) -> None:
    content = ('строка "с" \\ экранированием\t\n' * 60_000).encode()
    assert len(content) > 2 * INLINE_BYTES
    github.write(REPOSITORY, "big.md", content)
    app = GitHubApp(github_settings)
    found = app.file(app.repository_token(REPOSITORY, "read"), "big.md")
    assert found.content == content and found.sha == blob_sha(content)
    assert any("/git/blobs/" in line for line in github.requests)


def test_a_missing_file_or_ref_is_not_found(github_settings: Settings, github: GitHubDouble) -> None:
    github.write(REPOSITORY, "a.md", b"a")
    app = GitHubApp(github_settings)
    token = app.repository_token(REPOSITORY, "read")
    with pytest.raises(GraphRagError) as missing:
        app.file(token, "b.md")
    assert str(missing.value) == "not_found: acme/handbook has no file 'b.md'"
    with pytest.raises(GraphRagError) as unknown:
        app.file(token, "a.md", ref="f" * 40)
    assert unknown.value.code == "not_found"


def test_a_folder_is_not_a_file(github_settings: Settings, github: GitHubDouble) -> None:
    github.write(REPOSITORY, "pack/a.md", b"a")
    app = GitHubApp(github_settings)
    with pytest.raises(GraphRagError) as caught:
        app.file(app.repository_token(REPOSITORY, "read"), "pack")
    assert str(caught.value) == "invalid_argument: 'pack' in acme/handbook is a folder, not a file"


def test_a_ref_pins_an_older_version(github_settings: Settings, github: GitHubDouble) -> None:
    first = github.write(REPOSITORY, "a.md", b"first")
    github.write(REPOSITORY, "a.md", b"second")
    app = GitHubApp(github_settings)
    token = app.repository_token(REPOSITORY, "read")
    assert app.file(token, "a.md", ref=first).content == b"first"
    assert app.file(token, "a.md").content == app.file(token, "a.md", ref="main").content == b"second"


def test_a_write_over_the_current_sha_commits(github_settings: Settings, github: GitHubDouble) -> None:
    app = GitHubApp(github_settings)
    token = app.repository_token(REPOSITORY, "write")
    created = app.put_file(token, "pack/new.md", b"one", None, "create")
    assert created == blob_sha(b"one") and github.files[REPOSITORY]["pack/new.md"] == b"one"
    updated = app.put_file(token, "pack/new.md", b"two", created, "update")
    assert updated == blob_sha(b"two") and github.files[REPOSITORY]["pack/new.md"] == b"two"


@pytest.mark.parametrize("sha", [None, blob_sha(b"an older version"), "0" * 40])
def test_a_stale_or_missing_sha_is_a_conflict_and_changes_nothing(
    github_settings: Settings, github: GitHubDouble, sha: str | None
) -> None:
    github.write(REPOSITORY, "a.md", b"current")
    commits = len(github.commits[REPOSITORY])
    app = GitHubApp(github_settings)
    with pytest.raises(GraphRagError) as caught:
        app.put_file(app.repository_token(REPOSITORY, "write"), "a.md", b"mine", sha, "edit")
    assert caught.value.code == "conflict"
    assert github.files[REPOSITORY]["a.md"] == b"current" and len(github.commits[REPOSITORY]) == commits


def test_a_read_token_cannot_write(github_settings: Settings, github: GitHubDouble) -> None:
    github.write(REPOSITORY, "a.md", b"current")
    app = GitHubApp(github_settings)
    with pytest.raises(GraphRagError) as caught:
        app.put_file(app.repository_token(REPOSITORY, "read"), "a.md", b"mine", blob_sha(b"current"), "edit")
    assert caught.value.code == "forbidden" and github.files[REPOSITORY]["a.md"] == b"current"
