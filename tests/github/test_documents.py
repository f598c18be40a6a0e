"""Live documents against the double: whole answers, headings, pages that reassemble the exact file, cursors
bound to their call, and writes refused over a stale sha."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastmcp import Client, FastMCP
from mcp.types import CallToolResult

from graphrag.config import Settings
from graphrag.errors import GraphRagError
from graphrag.github.client import GitHubApp
from graphrag.github.documents import (
    Caller,
    DocumentCursor,
    LiveDocuments,
    answer_bytes,
    put_document,
    repository_path,
)
from graphrag.github.terms import RepositoryToken
from graphrag.server.paging import Cursor
from tests.github.conftest import REPOSITORY
from tests.github.double import GitHubDouble, blob_sha

BUDGET = 32_000
SMALL = '# Title\n\nSome "quoted" text, a \\ backslash, a tab\there.\n\n## Part\n\n```\n# not a heading\n```\n'
# multibyte characters of 2, 3 and 4 bytes, JSON escapes (quote, backslash, control characters), CRLF
LINE = 'Строка «с» "кавычками" \\ 汉字 😀 \x01\x1f\t\r\n'


@pytest.fixture
def app(github_settings: Settings) -> GitHubApp:
    return GitHubApp(github_settings)


@pytest.fixture
def token(app: GitHubApp) -> RepositoryToken:
    return app.repository_token(REPOSITORY, "read")


def caller(**changes: Any) -> Caller:
    return Caller(account="1001", source="github:acme/handbook", filename="doc.md").model_copy(update=changes)


def read_all(
    documents: LiveDocuments, token: RepositoryToken, who: Caller, budget: int = BUDGET
) -> tuple[str, list[dict[str, Any]]]:
    pages: list[dict[str, Any]] = []
    cursor = "start"
    while True:
        text = documents.get(token, "doc.md", who, cursor)
        assert answer_bytes(text) <= budget
        pages.append(json.loads(text))
        if pages[-1]["next_cursor"] is None:
            break
        cursor = pages[-1]["next_cursor"]
    return "".join(page["content"] for page in pages), pages


def error_of(call: Any) -> GraphRagError:
    with pytest.raises(GraphRagError) as caught:
        call()
    return caught.value


def test_a_small_file_is_its_text(github: GitHubDouble, app: GitHubApp, token: RepositoryToken) -> None:
    github.write(REPOSITORY, "doc.md", SMALL.encode())
    assert LiveDocuments(app, BUDGET).get(token, "doc.md", caller()) == SMALL


def test_include_sha_or_a_ref_answer_content_and_sha(
    github: GitHubDouble, app: GitHubApp, token: RepositoryToken
) -> None:
    first = github.write(REPOSITORY, "doc.md", b"first")
    github.write(REPOSITORY, "doc.md", SMALL.encode())
    documents = LiveDocuments(app, BUDGET)
    assert json.loads(documents.get(token, "doc.md", caller(include_sha=True))) == {
        "content": SMALL,
        "sha": blob_sha(SMALL.encode()),
    }
    assert json.loads(documents.get(token, "doc.md", caller(ref=first))) == {
        "content": "first",
        "sha": blob_sha(b"first"),
    }


@pytest.mark.parametrize("include_sha", [False, True])
def test_a_large_file_without_a_cursor_is_too_large(
    github: GitHubDouble, app: GitHubApp, token: RepositoryToken, include_sha: bool
) -> None:
    github.write(REPOSITORY, "doc.md", (LINE * 2000).encode())
    error = error_of(lambda: LiveDocuments(app, BUDGET).get(token, "doc.md", caller(include_sha=include_sha)))
    assert error.code == "response_too_large" and "cursor='start'" in str(error)


def test_headings_come_whole_without_fenced_code(github: GitHubDouble, app: GitHubApp, token: RepositoryToken) -> None:
    github.write(REPOSITORY, "doc.md", SMALL.encode())
    assert LiveDocuments(app, BUDGET).get(token, "doc.md", caller(format="headings")) == "# Title\n## Part"


def test_headings_too_large_are_a_size_error(github: GitHubDouble, app: GitHubApp, token: RepositoryToken) -> None:
    github.write(REPOSITORY, "doc.md", "".join(f"## Heading {n}\n\ntext\n" for n in range(3000)).encode())
    error = error_of(lambda: LiveDocuments(app, BUDGET).get(token, "doc.md", caller(format="headings")))
    assert error.code == "response_too_large"


@pytest.mark.parametrize("cursor", ["start", "anything"])
def test_headings_have_no_pages(github: GitHubDouble, app: GitHubApp, token: RepositoryToken, cursor: str) -> None:
    github.write(REPOSITORY, "doc.md", SMALL.encode())
    error = error_of(lambda: LiveDocuments(app, BUDGET).get(token, "doc.md", caller(format="headings"), cursor))
    assert error.code == "invalid_argument"
    assert not any("/contents/" in line for line in github.requests)  # refused before GitHub is asked


def test_several_megabytes_reassemble_exactly_from_live_pages(
    github: GitHubDouble, app: GitHubApp, token: RepositoryToken
) -> None:
    """Every page reads the whole file from GitHub again, so a larger budget keeps this test quick (the
    default budget's pages are checked on smaller files below)."""
    content = ("\ufeff" + LINE * 60_000).encode()
    assert len(content) > 3_000_000
    github.write(REPOSITORY, "doc.md", content)
    text, pages = read_all(LiveDocuments(app, 4 * BUDGET), token, caller(include_sha=True), 4 * BUDGET)
    assert text.encode() == content
    assert all(page["content"] for page in pages) and len(pages) > 50
    assert {(page["read_mode"], page["content_scope"], page["sha"]) for page in pages} == {
        ("live", "full_file", blob_sha(content))
    }
    assert len({page["revision"] for page in pages}) == 1 and pages[0]["revision"] != blob_sha(content)
    assert [page["complete"] for page in pages] == [False] * (len(pages) - 1) + [True]


def test_pages_carry_no_sha_unless_asked(github: GitHubDouble, app: GitHubApp, token: RepositoryToken) -> None:
    github.write(REPOSITORY, "doc.md", (LINE * 2000).encode())
    text, pages = read_all(LiveDocuments(app, BUDGET), token, caller())
    assert text == LINE * 2000 and all("sha" not in page for page in pages) and len(pages) > 1


def test_an_empty_file_is_one_empty_complete_page(github: GitHubDouble, app: GitHubApp, token: RepositoryToken) -> None:
    github.write(REPOSITORY, "doc.md", b"")
    text, pages = read_all(LiveDocuments(app, BUDGET), token, caller())
    assert text == "" and len(pages) == 1 and pages[0]["complete"] is True


async def test_a_page_fits_the_budget_as_an_mcp_client_receives_it(
    github: GitHubDouble, app: GitHubApp, token: RepositoryToken
) -> None:
    """What ``answer_bytes`` counts is at least what a fastmcp tool returning the page sends (its text block and
    structured result; the JSON-RPC envelope is in ``ENVELOPE_BYTES``, as for every tool)."""
    github.write(REPOSITORY, "doc.md", (LINE * 2000).encode())
    page = LiveDocuments(app, BUDGET).get(token, "doc.md", caller(), "start")
    server = FastMCP("pages")

    @server.tool
    def get_document() -> str:
        return page

    async with Client(server) as client:
        result = await client.call_tool_mcp("get_document", {})
    assert result.content[0].text == page  # type: ignore[union-attr]
    sent = CallToolResult(content=result.content, structured_content=result.structured_content)
    wire = len(sent.model_dump_json(by_alias=True, exclude_none=True).encode())  # as tests/server measure it
    assert BUDGET - 1000 < wire <= answer_bytes(page) <= BUDGET


@pytest.mark.parametrize(
    "changed",
    [
        {"account": "1002"},
        {"source": "github:acme/other"},
        {"filename": "other.md"},
        {"include_sha": True},
        {"ref": "main"},
    ],
)
def test_a_cursor_of_another_call_is_refused(
    github: GitHubDouble, app: GitHubApp, token: RepositoryToken, changed: dict[str, Any]
) -> None:
    github.write(REPOSITORY, "doc.md", (LINE * 2000).encode())
    documents = LiveDocuments(app, BUDGET)
    following = json.loads(documents.get(token, "doc.md", caller(), "start"))["next_cursor"]
    error = error_of(lambda: documents.get(token, "doc.md", caller(**changed), following))
    assert error.code == "invalid_argument" and "another get_document call" in str(error)


def test_the_cursor_holds_no_open_account_id(github: GitHubDouble, app: GitHubApp, token: RepositoryToken) -> None:
    github.write(REPOSITORY, "doc.md", (LINE * 2000).encode())
    following = json.loads(LiveDocuments(app, BUDGET).get(token, "doc.md", caller(account="98765"), "start"))
    assert "98765" not in Cursor.model_fields and "98765" not in str(following["next_cursor"])
    assert "98765" not in DocumentCursor.decode(following["next_cursor"]).model_dump_json()


def test_a_change_between_pages_is_document_changed(
    github: GitHubDouble, app: GitHubApp, token: RepositoryToken
) -> None:
    github.write(REPOSITORY, "doc.md", (LINE * 2000).encode())
    documents = LiveDocuments(app, BUDGET)
    following = json.loads(documents.get(token, "doc.md", caller(), "start"))["next_cursor"]
    github.write(REPOSITORY, "doc.md", (LINE * 2001).encode())
    error = error_of(lambda: documents.get(token, "doc.md", caller(), following))
    assert error.code == "document_changed" and "cursor='start'" in str(error)


def forged(documents: LiveDocuments, token: RepositoryToken) -> list[str]:
    """Cursors this server never gave out for this call: garbage, pack_get's, an offset past the end."""
    real = DocumentCursor.decode(json.loads(documents.get(token, "doc.md", caller(), "start"))["next_cursor"])
    return [
        "not base64 at all!",
        "e30",  # {}
        "\u00e9t\u00e9",
        Cursor(id="X", format="full", revision="r", offset=1).encode(),
        real.model_copy(update={"offset": 10**8}).encode(),
        DocumentCursor.model_construct(binding=real.binding, revision=real.revision, offset=0).encode(),
    ]


def test_a_forged_cursor_is_invalid(github: GitHubDouble, app: GitHubApp, token: RepositoryToken) -> None:
    github.write(REPOSITORY, "doc.md", (LINE * 2000).encode())
    documents = LiveDocuments(app, BUDGET)
    for cursor in forged(documents, token):
        error = error_of(lambda cursor=cursor: documents.get(token, "doc.md", caller(), cursor))
        assert str(error) == "invalid_argument: cursor is not one this server gave out; start again with cursor='start'"


@pytest.mark.parametrize("content", [b"\xff\xfe# UTF-16?", b"PNG\x00\x01binary", "caf\u00e9".encode("latin-1")])
def test_a_file_that_is_not_utf8_text_is_invalid(
    github: GitHubDouble, app: GitHubApp, token: RepositoryToken, content: bytes
) -> None:
    github.write(REPOSITORY, "doc.md", content)
    error = error_of(lambda: LiveDocuments(app, BUDGET).get(token, "doc.md", caller(), "start"))
    assert error.code == "invalid_argument" and "'doc.md'" in str(error)


@pytest.mark.parametrize(
    ("folder", "filename", "path"),
    [("", "a.md", "a.md"), ("pack", "notes/a b.md", "pack/notes/a b.md"), ("/pack/x/", "é.md", "pack/x/é.md")],
)
def test_a_filename_joins_the_source_folder(folder: str, filename: str, path: str) -> None:
    assert repository_path(folder, filename) == path


@pytest.mark.parametrize(
    "filename",
    ["", "/etc/passwd", "../x.md", "a/../../x.md", "a//b.md", "./a.md", "a/", "a\\b.md", "a\x00.md", "a\nb.md",
     "a\x7f.md", "\ud800.md", ".git/config", "a/.GIT/x", "x" * 1025],
)  # fmt: skip
def test_a_hostile_filename_is_invalid(filename: str) -> None:
    error = error_of(lambda: repository_path("pack", filename))
    assert error.code == "invalid_argument" and len(str(error)) < 400


@pytest.mark.parametrize("ref", ["", "-x", "a..b", "a b", "x" * 256, "main\n"])
def test_a_hostile_ref_is_invalid(github: GitHubDouble, app: GitHubApp, token: RepositoryToken, ref: str) -> None:
    github.write(REPOSITORY, "doc.md", b"x")
    error = error_of(lambda: LiveDocuments(app, BUDGET).get(token, "doc.md", caller(ref=ref)))
    assert error.code == "invalid_argument"


def test_a_write_over_a_stale_sha_is_a_conflict_and_changes_nothing(github: GitHubDouble, app: GitHubApp) -> None:
    github.write(REPOSITORY, "pack/doc.md", b"read by the agent")
    read_sha = blob_sha(b"read by the agent")
    github.write(REPOSITORY, "pack/doc.md", b"a teammate's edit")
    writer = app.repository_token(REPOSITORY, "write")
    error = error_of(lambda: put_document(app, writer, "pack/doc.md", "the agent's edit", read_sha, "edit"))
    assert error.code == "conflict" and github.files[REPOSITORY]["pack/doc.md"] == b"a teammate's edit"
    current = blob_sha(b"a teammate's edit")
    assert put_document(app, writer, "pack/doc.md", "the agent's edit ✓", current, "edit") == blob_sha(
        "the agent's edit ✓".encode()
    )
    assert github.files[REPOSITORY]["pack/doc.md"] == "the agent's edit ✓".encode()


@pytest.mark.parametrize(("content", "sha"), [("x\ud800", None), ("x", "not-a-sha")])
def test_a_hostile_write_is_invalid_before_github_is_asked(
    github: GitHubDouble, app: GitHubApp, content: str, sha: str | None
) -> None:
    writer = app.repository_token(REPOSITORY, "write")
    error = error_of(lambda: put_document(app, writer, "doc.md", content, sha, "edit"))
    assert error.code == "invalid_argument" and not any(line.startswith("PUT") for line in github.requests)
