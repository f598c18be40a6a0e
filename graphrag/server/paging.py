"""Paged reading (DESIGN 6): ``pack_get`` pages, cut to the response budget, bound by opaque cursors.

A cursor carries the entity id, the format, the revision and the body offset (in code points, so
a page never splits a character). It is not an authorisation: every page is read and checked afresh.
Cursors are plain base64 a client can forge, so an offset is checked against the body it points into.
"""

from __future__ import annotations

import base64
import binascii
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from graphrag.errors import GraphRagError, InvalidArgument, echo
from graphrag.retrieval.entity import EntityReader
from graphrag.retrieval.models import EntityPage
from graphrag.server.budget import ResponseTooLarge, fit_items, largest_fitting

Format = Literal["full", "metadata"]
START = "start"
MAX_OFFSET = 2**31  # far beyond any body a page can come from; Neo4j's integers end at 2**63
FOREIGN = "cursor is not one this server gave out; start again with cursor='start'"


class Cursor(BaseModel):
    id: str
    format: Format
    revision: str
    offset: int = Field(ge=0, le=MAX_OFFSET)

    def encode(self) -> str:
        return base64.urlsafe_b64encode(self.model_dump_json().encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> Cursor:
        try:
            return cls.model_validate_json(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        except (ValueError, binascii.Error, ValidationError) as exc:
            raise InvalidArgument(FOREIGN) from exc


class EntityPager:
    """Whole entities, or their pages, within ``budget`` bytes."""

    def __init__(self, reader: EntityReader, budget: int) -> None:
        self._reader = reader
        self._budget = budget

    def get(self, entity_id: str, cursor: str | None, format: Format) -> EntityPage:
        if cursor is None:
            return self._whole(entity_id, format)
        if cursor == START:
            return self._page(entity_id, format, None, 0)
        bound = Cursor.decode(cursor)
        if (bound.id, bound.format) != (entity_id, format):
            raise InvalidArgument(
                f"the cursor belongs to pack_get(id={echo(bound.id)!r}, format={bound.format!r}), "
                f"not to id={echo(entity_id)!r}, format={format!r}"
            )
        return self._page(entity_id, format, bound.revision, bound.offset)

    def _whole(self, entity_id: str, format: Format) -> EntityPage:
        window = self._reader.read(entity_id, 0, self._budget if format == "full" else 0)
        page = window.page
        if format == "full" and window.body_length > len(window.body):
            raise ResponseTooLarge(self._too_large(entity_id, window.body_length))
        page.content, page.complete = window.body, True
        try:
            return fit_items(page, [page, *(page.outgoing or []), *(page.incoming or [])], self._budget, "the entity")
        except ResponseTooLarge as exc:
            raise ResponseTooLarge(self._too_large(entity_id, window.body_length)) from exc

    def _page(self, entity_id: str, format: Format, revision: str | None, offset: int) -> EntityPage:
        window = self._reader.read(entity_id, offset, self._budget if format == "full" else 0)
        current = window.page.revision
        if revision is not None and revision != current:
            raise GraphRagError(
                f"entity {echo(entity_id)!r} changed since the previous page (revision {echo(revision)} -> {current}); "
                "start again with cursor='start'",
                code="document_changed",
            )
        length = window.body_length if format == "full" else 0
        if offset > 0 and offset >= length:  # no page ends there: a cursor is given out only while text remains
            raise InvalidArgument(FOREIGN)
        if offset == 0:
            texts = [window.page, *(window.page.outgoing or []), *(window.page.incoming or [])]
            head = fit_items(window.page, texts, self._budget, "the entity's metadata and links")
        else:
            head = EntityPage(id=entity_id, revision=current, content="", complete=False, next_cursor=None)

        def with_content(count: int) -> EntityPage:
            end = offset + count
            done = end >= length
            following = None if done else Cursor(id=entity_id, format=format, revision=current, offset=end).encode()
            return head.model_copy(update={"content": window.body[:count], "complete": done, "next_cursor": following})

        return largest_fitting(with_content, 0 if offset == 0 else 1, len(window.body), self._budget, "a page")

    def _too_large(self, entity_id: str, body_length: int) -> str:
        return (
            f"entity {echo(entity_id)!r} (a body of {body_length} characters) does not fit the response budget of "
            f"{self._budget} bytes; read it in pages: pack_get(id={echo(entity_id)!r}, cursor='start')"
        )
