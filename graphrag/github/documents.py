"""Live team documents: one file read from GitHub whole or in pages, and written back only over its sha.

The paging rules are the team sources contract's ("reading large documents"), independent of MCP: the
answers are the exact texts a tool sends. Without a cursor a small file is its text (or ``{content, sha}``
with ``include_sha`` or a ``ref``); one too large for the response budget is ``response_too_large``, with
``include_sha`` too, so that a part of a file never comes with a sha it could be written back over.
With ``cursor='start'`` and then each ``next_cursor``, every page is a JSON object whose ``content`` pieces
concatenate to the exact file. Every page reads the whole file from GitHub again and hashes it: a changed
file is ``document_changed``. A cursor holds the offset and hashes of the binding (account, source,
filename, format, include_sha, ref) and of the content; it is neither a signature nor an authorisation.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphrag.cursors import FOREIGN, MAX_OFFSET, START, OpaqueCursor
from graphrag.errors import DocumentChanged, InvalidArgument, ResponseTooLarge, echo
from graphrag.fitting import ENVELOPE_BYTES, largest_fitting
from graphrag.github.terms import RepositoryToken
from graphrag.markdown import headings

if TYPE_CHECKING:
    from graphrag.github.client import GitHubApp

Format = Literal["full", "headings"]
MAX_PATH_BYTES = 1024  # a repository path (folder and filename) at most this long in UTF-8
MAX_REF_CHARS = 255
# fastmcp sends a tool's text twice: as the text block and as structured content {"result": text}
RESULT_KEY_BYTES = len('{"result":}')
_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*")
_HEX = r"^[0-9a-f]{64}$"


class Caller(BaseModel):
    """What a paged read is bound to: who asks, and the call's arguments other than the cursor."""

    model_config = ConfigDict(frozen=True)

    account: str  # the caller's account id; only its hash ever leaves the server
    source: str
    filename: str
    format: Format = "full"
    include_sha: bool = False
    ref: str | None = None

    def digest(self) -> str:
        fields = [self.account, self.source, self.filename, self.format, self.include_sha, self.ref]
        return hashlib.sha256(json.dumps(fields).encode()).hexdigest()

    @property
    def shows_sha(self) -> bool:
        """Whole-file answers carry the file's sha when asked for, or when a ``ref`` pins the version."""
        return self.include_sha or self.ref is not None


class DocumentCursor(OpaqueCursor):
    model_config = ConfigDict(extra="forbid")

    binding: str = Field(pattern=_HEX)
    revision: str = Field(pattern=_HEX)
    offset: int = Field(ge=1, le=MAX_OFFSET)  # given out only while something remains


class WholeDocument(BaseModel):
    content: str
    sha: str


class DocumentPage(BaseModel):
    content: str
    read_mode: Literal["live"] = "live"
    content_scope: Literal["full_file"] = "full_file"
    revision: str
    complete: bool
    next_cursor: str | None
    sha: str | None = None

    def text(self) -> str:
        return self.model_dump_json(exclude={"sha"} if self.sha is None else None)


def repository_path(folder: str, filename: str) -> str:
    """The path in the repository of ``filename`` in a source rooted at ``folder`` (may be empty).

    ``filename`` comes from a caller and is hostile until checked: a relative POSIX path, no ``.``, ``..``
    or empty parts, no leading ``/``, no backslash, no control character or lone surrogate, no ``.git``.
    """
    if len(filename) > MAX_PATH_BYTES:
        raise InvalidArgument(f"filename is longer than {MAX_PATH_BYTES} characters")
    if not filename or filename.startswith("/") or "\\" in filename:
        raise InvalidArgument(f"filename must be a relative path with / between folders, got {echo(filename)!r}")
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in filename):
        raise InvalidArgument("filename holds a control character or a lone surrogate")
    parts = filename.split("/")
    if any(part in ("", ".", "..") or part.lower() == ".git" for part in parts):
        raise InvalidArgument(f"filename must not hold empty, '.', '..' or '.git' parts, got {echo(filename)!r}")
    path = "/".join([*folder.strip("/").split("/"), *parts]) if folder.strip("/") else filename
    if len(path.encode()) > MAX_PATH_BYTES:
        raise InvalidArgument(f"the file's path is longer than {MAX_PATH_BYTES} bytes")
    return path


def check_ref(ref: str | None) -> None:
    """A ``ref`` (branch, tag or commit sha) as Git names them, within a sane length."""
    if ref is not None and (len(ref) > MAX_REF_CHARS or not _REF.fullmatch(ref) or ".." in ref):
        raise InvalidArgument(f"ref must name a branch, tag or commit, got {echo(ref)!r}")


def answer_bytes(text: str) -> int:
    """UTF-8 bytes a tool's text answer takes on the wire: JSON-escaped twice (the text block and the
    structured ``{"result": ...}``), plus the JSON-RPC envelope."""
    return 2 * len(json.dumps(text, ensure_ascii=False).encode()) + RESULT_KEY_BYTES + ENVELOPE_BYTES


def revision_of(content: bytes) -> str:
    """What a page's ``revision`` says: a hash of the whole content (not the Git sha, usable for writing)."""
    return hashlib.sha256(content).hexdigest()


class LiveDocuments:
    """Reads a team source's file live from GitHub, whole or in pages within ``budget`` bytes."""

    def __init__(self, app: GitHubApp, budget: int) -> None:
        self._app = app
        self._budget = budget

    def get(self, token: RepositoryToken, path: str, caller: Caller, cursor: str | None = None) -> str:
        """The exact text ``get_document`` answers with, for the file at ``path`` (``repository_path``)."""
        check_ref(caller.ref)
        if caller.format == "headings" and cursor is not None:
            raise InvalidArgument("headings are answered whole: pages (a cursor) are only for format='full'")
        if caller.format == "headings" and caller.include_sha:
            raise InvalidArgument("include_sha goes with the whole file (format='full'), not with its headings")
        bound = None if cursor in (None, START) else DocumentCursor.decode(cursor)
        if bound is not None and bound.binding != caller.digest():
            raise InvalidArgument(
                "the cursor belongs to another get_document call (account, source, filename, format, include_sha "
                "or ref differ); keep them as they were, or start again with cursor='start'"
            )
        found = self._app.file(token, path, caller.ref)
        text = _text(found.content, caller.filename)
        if cursor is None:
            return self._whole(text, found.sha, caller)
        return self._page(text, revision_of(found.content), found.sha, caller, bound)

    def _whole(self, text: str, sha: str, caller: Caller) -> str:
        if caller.format == "headings":
            answer = "\n".join(headings(text))
            if answer_bytes(answer) > self._budget:
                raise ResponseTooLarge(
                    f"the headings of {echo(caller.filename)!r} do not fit the response budget of {self._budget} "
                    "bytes; read the file in pages: format='full', cursor='start'"
                )
            return answer
        answer = WholeDocument(content=text, sha=sha).model_dump_json() if caller.shows_sha else text
        if answer_bytes(answer) > self._budget:
            raise ResponseTooLarge(
                f"{echo(caller.filename)!r} ({len(text)} characters) does not fit the response budget of "
                f"{self._budget} bytes; read it in pages: cursor='start', then each next_cursor until complete"
            )
        return answer

    def _page(self, text: str, revision: str, sha: str, caller: Caller, bound: DocumentCursor | None) -> str:
        offset = 0 if bound is None else bound.offset
        if bound is not None and bound.revision != revision:
            raise DocumentChanged(
                f"{echo(caller.filename)!r} changed since the previous page; drop the pages read so far and "
                "start again with cursor='start'"
            )
        if bound is not None and offset >= len(text):
            raise InvalidArgument(FOREIGN)  # no page ends there

        def page(count: int) -> str:
            end = offset + count
            following = None
            if end < len(text):
                following = DocumentCursor(binding=caller.digest(), revision=revision, offset=end).encode()
            return DocumentPage(
                content=text[offset:end],
                revision=revision,
                complete=following is None,
                next_cursor=following,
                sha=sha if caller.shows_sha else None,
            ).text()

        rest = len(text) - offset
        # a character costs at least 2 bytes on the wire (sent twice), so a page holds fewer than budget/2
        high = min(rest, self._budget // 2)
        return largest_fitting(page, min(1, rest), high, self._budget, "a page of the document", answer_bytes)


def _text(content: bytes, filename: str) -> str:
    """The file as text; get_document reads UTF-8 text (markdown), not binary files."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidArgument(
            f"{echo(filename)!r} is not UTF-8 text (byte {exc.start} is not UTF-8); get_document reads markdown"
        ) from None
    if "\x00" in text:
        raise InvalidArgument(f"{echo(filename)!r} holds NUL bytes: a binary file, not markdown")
    return text


def put_document(app: GitHubApp, token: RepositoryToken, path: str, content: str, sha: str | None, message: str) -> str:
    """Writes ``content`` at ``path`` over the blob ``sha`` the caller read (None for a new file) and
    returns the new sha; a stale or missing sha is ``conflict`` and nothing is written."""
    if sha is not None and not re.fullmatch(r"[0-9a-f]{40}", sha):
        raise InvalidArgument(f"sha must be the 40-hex blob sha get_document gave, got {echo(sha)!r}")
    try:
        encoded = content.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidArgument("content holds a lone UTF-16 surrogate, which is not text") from None
    return app.put_file(token, path, encoded, sha, message)
