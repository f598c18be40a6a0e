"""Paged reading (docs/mcp.md, response budget and paging): ``pack_get`` pages, cut to the response budget, bound by
opaque cursors.

The first page holds the metadata and as many links as fit; later pages hold the links that follow
(outgoing first, then incoming, in the stored order), then the body. So a hub with thousands of links reads
in pages like a long body does. A page of links cuts the summaries of the other ends to ``LINK_PREVIEW_UNITS``
(at the full 2,000 units only four links would fit a 32,000-byte page, and a 5,000-link hub would take 1,250
pages), and leaves them out when even those would hold fewer than ``LINKS_PER_PAGE`` links: then a page
costs each link its relation, id, kind and title.

A cursor carries the entity id, the format, the revision, the link offset and the body offset (in code
points, so a page never splits a character). It is not an authorisation: every page is read and checked
afresh. Cursors are plain base64 a client can forge, so offsets are checked against what they point into.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import Field

from graphrag.cursors import FOREIGN, MAX_OFFSET, START, OpaqueCursor
from graphrag.errors import DocumentChanged, InvalidArgument, ResponseTooLarge, echo
from graphrag.retrieval.entity import EntityReader
from graphrag.retrieval.models import EntityPage, LinkPreview
from graphrag.server.budget import Texts, fit_items, largest_fitting, wire_bytes

Format = Literal["full", "metadata"]
LINK_PREVIEW_UNITS = 100  # previews on a page of links are shortened to this before fewer links are listed
LINKS_PER_PAGE = 200  # fewer with summaries on a page of links, and previews go without them
LINKS_READ = 400  # links read for one page: more than the shortest previews let a 32,000-byte page hold


class Cursor(OpaqueCursor):
    id: str
    format: Format
    revision: str
    offset: int = Field(ge=0, le=MAX_OFFSET)
    links: int = Field(default=0, ge=0, le=MAX_OFFSET)


class EntityPager:
    """Whole entities, or their pages, within ``budget`` bytes."""

    def __init__(self, reader: EntityReader, budget: int) -> None:
        self._reader = reader
        self._budget = budget

    def get(self, entity_id: str, cursor: str | None, format: Format) -> EntityPage:
        if cursor is None:
            return self._whole(entity_id, format)
        if cursor == START:
            return self._page(entity_id, format, None, 0, 0)
        bound = Cursor.decode(cursor)
        if (bound.id, bound.format) != (entity_id, format):
            raise InvalidArgument(
                f"the cursor belongs to pack_get(id={echo(bound.id)!r}, format={bound.format!r}), "
                f"not to id={echo(entity_id)!r}, format={format!r}"
            )
        return self._page(entity_id, format, bound.revision, bound.offset, bound.links)

    def _whole(self, entity_id: str, format: Format) -> EntityPage:
        """The entity in one answer; one that does not fit is its first page, with the cursor of the next."""
        window = self._reader.read(entity_id, 0, self._budget if format == "full" else 0)
        page = window.page
        if format == "full" and window.body_length > len(window.body):
            return self._page(entity_id, format, None, 0, 0)
        page.content, page.complete = window.body, True
        try:
            return fit_items(page, [page, *(page.outgoing or []), *(page.incoming or [])], self._budget, "the entity")
        except ResponseTooLarge:
            return self._page(entity_id, format, None, 0, 0)

    def _page(self, entity_id: str, format: Format, revision: str | None, offset: int, skip: int) -> EntityPage:
        body = self._budget if format == "full" else 0
        window = self._reader.read(entity_id, offset, body, (skip, LINKS_READ))
        current = window.page.revision
        if revision is not None and revision != current:
            raise DocumentChanged(
                f"entity {echo(entity_id)!r} changed since the previous page (revision {echo(revision)} -> {current}); "
                "start again with cursor='start'"
            )
        links, total = _links(window.page), window.links_total
        length = window.body_length if format == "full" else 0
        if skip > total or (skip < total and offset > 0) or (offset > 0 and offset >= length):
            raise InvalidArgument(FOREIGN)  # no page ends there: a cursor is given out only while something remains
        first = revision is None
        head = (
            window.page
            if first
            else EntityPage(id=entity_id, revision=current, content="", complete=False, next_cursor=None)
        )
        placed = skip
        if skip < total:
            head, placed = self._with_links(head, links, skip, total, first, format)
            if placed < total:
                return head
        elif first:
            head = fit_items(head, [head], self._budget, "the entity's metadata")
        else:
            head = head.model_copy(update={"outgoing": None, "incoming": None})

        def with_content(count: int) -> EntityPage:
            end = offset + count
            done = end >= length
            following = (
                None
                if done
                else Cursor(id=entity_id, format=format, revision=current, offset=end, links=placed).encode()
            )
            return head.model_copy(update={"content": window.body[:count], "complete": done, "next_cursor": following})

        holds_more = first or placed > skip  # a page of metadata or links may end before the body starts
        return largest_fitting(
            with_content, 0 if holds_more or not length else 1, len(window.body), self._budget, "a page"
        )

    def _with_links(
        self,
        head: EntityPage,
        rest: list[tuple[bool, LinkPreview]],
        skip: int,
        total: int,
        first: bool,
        format: Format,
    ) -> tuple[EntityPage, int]:
        """``head`` with the most of the links read from ``skip`` on (``rest``, of ``total`` in all) that fit (at
        least one), and the link offset after them; while links remain, the page ends there and its cursor
        points at the next link."""
        owners = [head] if first else []

        def placed(count: int) -> EntityPage:
            more = skip + count < total
            following = Cursor(id=head.id, format=format, revision=head.revision, offset=0, links=skip + count)
            return head.model_copy(
                update={
                    "outgoing": [link for out, link in rest[:count] if out],
                    "incoming": [link for out, link in rest[:count] if not out],
                    "links_complete": not more,
                    **({"complete": False, "next_cursor": following.encode()} if more else {}),
                }
            )

        texts = Texts.of([*owners, *(link for _, link in rest)])
        texts.cap(LINK_PREVIEW_UNITS)
        if wire_bytes(placed(min(LINKS_PER_PAGE, len(rest)))) > self._budget:  # short previews, without summaries
            for _, link in rest:
                link.summary, link.content_truncated = None, False
            texts = Texts.of(owners)
        count = self._most(placed, len(rest))
        what = "the entity's metadata and links" if first else "a page of links"
        return texts.first(len(owners) + count).fit(placed(count), self._budget, what), skip + count

    def _most(self, placed: Callable[[int], EntityPage], available: int) -> int:
        """How many links (at least one) ``placed`` can hold within the budget."""
        try:
            return len(_links(largest_fitting(placed, 1, available, self._budget, "a page of links")))
        except ResponseTooLarge:
            return 1  # one link, its preview shortened further by the caller (or response_too_large)


def _links(page: EntityPage) -> list[tuple[bool, LinkPreview]]:
    """Every link of a page in reading order, each with whether it is outgoing."""
    return [(True, link) for link in page.outgoing or []] + [(False, link) for link in page.incoming or []]
