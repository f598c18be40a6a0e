"""MCP resources: every entity as markdown at ``pack://{id}``, for clients that attach resources to a
conversation (a desktop client's resource picker) rather than call tools, and ``packs://catalog``: what the
packs hold (a scheme of its own, so that no entity id can hide it).

One read is one answer within the response budget, like a tool's: the metadata and summary always (else
``response_too_large``), then as much of the body as fits, then as many links as fit, each cut said in
the text with the ``pack_get`` call that reads the rest in pages. Ids travel in the address, so an id holding
``/`` is written ``%2F`` there (as RFC 6570 expands ``{id}``); an address that holds no valid id answers
``invalid_argument``. Access, rate limits and logging are the tools' middleware (reads are calls too).
"""

from __future__ import annotations

import json
import re
from typing import Annotated
from urllib.parse import quote

from fastmcp import Context, FastMCP
from mcp.types import Annotations
from pydantic import Field

from graphrag.errors import InvalidArgument, echo
from graphrag.fitting import ENVELOPE_BYTES
from graphrag.names import ID_RULE, MAX_ID_LENGTH, is_valid_id
from graphrag.retrieval.entity import EntityWindow
from graphrag.retrieval.models import LinkPreview
from graphrag.server.budget import FIELD_UNITS, clip, largest_fitting
from graphrag.server.call_log import CATALOG
from graphrag.server.context import services_of
from graphrag.server.errors import resource_coded
from graphrag.server.tools import catalog_of
from graphrag.server.visibility import current_reader

TEMPLATE = "pack://{id}"
MIME = "text/markdown"


def register_resources(mcp: FastMCP) -> None:
    mcp.resource(
        TEMPLATE,
        name="entity",
        title="Pack entity",
        description="An entity of the packs as markdown: metadata, summary, body and typed links "
        "(each linking to its own pack:// address). Ids with '/' are written %2F.",
        mime_type=MIME,
        annotations=Annotations(audience=["user", "assistant"]),
        security=None,  # ids never reach a file system; they are checked as ids below
    )(entity)
    mcp.resource(
        CATALOG,
        name="catalog",
        title="Pack catalog",
        description="The packs, their kinds and the relation names, with counts (JSON; as the pack_catalog tool).",
        mime_type="application/json",
        annotations=Annotations(audience=["user", "assistant"]),
    )(catalog)


@resource_coded
def catalog(ctx: Context) -> str:
    return catalog_of(services_of(ctx)).model_dump_json()


def address(entity_id: str) -> str:
    return "pack://" + quote(entity_id, safe=".:-_")


@resource_coded
def entity(
    id: Annotated[str, Field(description="The entity's id.")],
    ctx: Context,
) -> str:
    if not is_valid_id(id) or len(id) > MAX_ID_LENGTH:
        raise InvalidArgument(f"{echo(repr(id))} is not an entity id ({ID_RULE}, at most {MAX_ID_LENGTH})")
    services = services_of(ctx)
    budget = services.settings.graphrag_response_budget_bytes
    return EntityMarkdown(current_reader(services).read(id, 0, budget), budget).render()


class EntityMarkdown:
    """One entity as markdown, cut to ``budget`` bytes on the wire (the text travels as a JSON string)."""

    def __init__(self, window: EntityWindow, budget: int) -> None:
        self._window = window
        self._budget = budget
        page = window.page
        self._links = [("→", link) for link in page.outgoing or []] + [("←", link) for link in page.incoming or []]

    def render(self) -> str:
        """The body gets what the metadata leaves (the links' heading kept), the links what the body leaves."""
        head, body = self._head(), self._window.body

        def size(part: tuple[str, int]) -> int:
            return _wire_bytes(self._window.page.id, part[0])

        _, shown = largest_fitting(
            lambda n: (head + self._body(n) + self._links_part(0), n),
            0,
            len(body),
            self._budget,
            "the entity's metadata",
            size,
        )
        text, _ = largest_fitting(
            lambda n: (head + self._body(shown) + self._links_part(n), n),
            0,
            len(self._links),
            self._budget,
            "links",
            size,
        )
        return text

    def _head(self) -> str:
        """The title heading, the metadata (empty values left out), and the summary unless the body holds it."""
        page = self._window.page
        lines = [f"# {page.title or page.id}", ""]
        facts = [f"id: `{page.id}`", f"kind: {page.kind}", f"pack: {page.pack}", f"path: `{page.path}`"]
        if page.missing:
            facts = [f"id: `{page.id}`", "placeholder: linked to, but no file defines it"]
        lines += [f"- {fact}" for fact in facts]
        if page.sha256:
            lines.append(f"- sha256: `{page.sha256}`")
        for key, value in (page.properties or {}).items():
            if value in (None, "", [], {}):
                continue
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            lines.append(f"- {key}: {clip(shown, FIELD_UNITS)}")
        if page.summary and page.summary.strip() not in self._window.body:  # capped like every text field (docs/mcp.md)
            lines += ["", *(f"> {line}" for line in clip(page.summary, FIELD_UNITS).splitlines())]
        return "\n".join(lines) + "\n"

    def _body(self, count: int) -> str:
        body, length = self._window.body, self._window.body_length
        if not length:
            return ""
        text = f"\n## Body\n\n{body[self._repeated_heading() : count]}"
        if count < length:
            text += (
                f"\n\n[… the body goes on for {length - count:,} more characters: "
                f"pack_get(id={echo(self._window.page.id)!r}, cursor='start') reads it whole, in pages]"
            )
        return text + "\n"

    def _repeated_heading(self) -> int:
        """How many leading characters of the body are a heading that repeats the title this text opens with."""
        title = self._window.page.title or self._window.page.id
        found = re.match(rf"\s*#[ \t]+{re.escape(title)}[ \t]*\n\s*", self._window.body)
        return found.end() if found else 0

    def _links_part(self, count: int) -> str:
        if not self._links:
            return ""
        lines = ["", f"## Links ({len(self._links)})", ""]
        lines += [_link_line(arrow, link) for arrow, link in self._links[:count]]
        if count < len(self._links):
            lines.append(
                f"- … {len(self._links) - count:,} more links: pack_get(id={echo(self._window.page.id)!r}, "
                "cursor='start') lists them all, in pages"
            )
        return "\n".join(lines) + "\n"


def _link_line(arrow: str, link: LinkPreview) -> str:
    missing = " (placeholder)" if link.missing else ""
    return f"- {arrow} {link.relation} [{link.title}]({address(link.id)}){missing}"


def _wire_bytes(entity_id: str, text: str) -> int:
    """The read's result on the wire: the text as a JSON string, its address and MIME type, the envelope."""
    return len(json.dumps(text).encode()) + len(address(entity_id)) + len(MIME) + ENVELOPE_BYTES
