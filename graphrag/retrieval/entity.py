"""``pack_get``: one entity with its links, and any window of its body (for paged reading).

The revision is a hash of the stored properties (which include the file's content hash, so any body edit
changes it) and of how many links the entity has; each page reads it afresh, so a page never mixes two
versions of the entity. Links are read in windows (``links``), so a page of a hub's links costs one
window's previews, not every link's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from graphrag.names import relation_of_type
from graphrag.retrieval.models import EntityPage, LinkPreview
from graphrag.retrieval.suggest import Suggestions
from graphrag.stores.graph import GraphStore

PREVIEW_CHARS = 2000  # the budget caps previews at 2,000 UTF-16 units; never fetch more
EVERY_LINK = (0, 2**30)  # the links window of a whole entity
_TOP_LEVEL = ("id", "pack", "kind", "title", "summary", "path", "sha256")
_INTERNAL = frozenset(
    {
        "body",
        "body_latin",
        "body_ru",
        "body_cjk",
        "kind_label",
        "alias_text",
        "text_key",
        "file_stamp",
        "file_problems",
        "revision",
        "ingested_at",
    }
)
# What pack_get shows apart from ``properties``, or never: the entity's own fields and the ingester's.
NOT_FRONTMATTER = frozenset(_TOP_LEVEL) | _INTERNAL


def frontmatter(stored: Mapping[str, Any]) -> dict[str, Any]:
    """An entity's other frontmatter keys (pack_get's ``properties``, pack_context's ``attributes``), in key
    order, as JSON: one rule for both tools."""
    return {key: _plain(value) for key, value in sorted(stored.items()) if key not in NOT_FRONTMATTER}


@dataclass(frozen=True)
class EntityWindow:
    """The entity's metadata (a first page without content), a window of its body and the body's length."""

    page: EntityPage
    body: str
    body_length: int
    links_total: int  # the entity's links in all; the page holds those of the window asked for


class EntityReader:
    def __init__(self, graph: GraphStore, hidden: Iterable[str] = ()) -> None:
        self._graph = graph
        self._hidden = sorted(hidden)  # packs the caller may not see: not found, and no link to them listed

    def read(self, entity_id: str, offset: int, length: int, links: tuple[int, int] = EVERY_LINK) -> EntityWindow:
        """The body window is ``length`` code points from ``offset`` (code points never split a character);
        ``links``: the window of links, (first, how many)."""
        rows = self._rows(entity_id, offset, length, links)
        if not rows:  # another case of a known id (``sm.mission.apollo11``) reads that entity
            resolved = Suggestions(self._graph, self._hidden).resolve(entity_id)
            rows = self._rows(resolved, offset, length, links) if resolved != entity_id else []
            if not rows:
                raise Suggestions(self._graph, self._hidden).not_found(entity_id)
        row = rows[0]
        stored = {key: _plain(value) for key, value in row["properties"].items()}
        read = [{**link, "relation": relation_of_type(link["relation"])} for link in row["links"]]
        revision = hashlib.sha256(
            json.dumps([stored, row["links_total"]], sort_keys=True, ensure_ascii=False, default=str).encode()
        ).hexdigest()[:32]
        page = EntityPage(
            **{key: stored.get(key) for key in _TOP_LEVEL},
            revision=revision,
            content="",
            complete=False,
            next_cursor=None,
            missing=row["missing"],
            properties=frontmatter(stored),
            outgoing=[LinkPreview(**_preview(link)) for link in read if link["outgoing"]],
            incoming=[LinkPreview(**_preview(link)) for link in read if not link["outgoing"]],
        )
        return EntityWindow(page=page, body=row["body"], body_length=row["body_length"], links_total=row["links_total"])

    def _rows(self, entity_id: str, offset: int, length: int, links: tuple[int, int]) -> list[dict[str, Any]]:
        skip, take = links
        return self._graph.read(
            "retrieval_entity",
            id=entity_id,
            offset=offset,
            length=length,
            skip=skip,
            take=take,
            preview=PREVIEW_CHARS,
            hidden=self._hidden,
        )


def _preview(link: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in link.items() if key != "outgoing"}


def _plain(value: Any) -> Any:
    """Neo4j temporal values as ISO text; everything else is already JSON."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    iso = getattr(value, "iso_format", None)
    return iso() if callable(iso) else value
