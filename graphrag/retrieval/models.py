"""The typed answers of the retrievers. The MCP tools send most of them as they are; ``pack_search`` and
``pack_context`` wrap theirs with what only the server knows (graphrag/server/answers.py).

Items whose text the response budget may shorten derive from ``Clippable`` and name those fields
in ``clip_fields`` (content, excerpt, summary: docs/mcp.md, response budget), so one budget routine serves every tool.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, Field

from graphrag.retrieval.candidates import Evidence


class Clippable(BaseModel):
    """A result item with text fields the response budget may shorten (and then says so)."""

    clip_fields: ClassVar[tuple[str, ...]] = ()
    content_truncated: bool = Field(default=False, description="A text field was shortened to fit the budget.")

    def clip_targets(self) -> list[tuple[BaseModel, str]]:
        """Each shortenable text as (model holding it, field name); an item may hold some in nested models."""
        return [(self, name) for name in self.clip_fields]


class SearchHit(Clippable):
    clip_fields: ClassVar[tuple[str, ...]] = ("summary",)

    id: str
    pack: str
    kind: str
    title: str
    summary: str
    path: str = Field(description="Pack-relative path of the entity's file.")
    sha256: str = Field(description="Content hash of the file the hit comes from (provenance).")
    score: float = Field(
        description="Higher is better, comparable within one answer only. vector: cosine similarity of the query "
        "to the summary; text: full-text relevance; hybrid: fused rank score, 1 added when the query names the entity."
    )
    matched: list[Evidence] = Field(description="Why it is here: linked (named), text, vector, graph.")
    via: list[str] | None = Field(
        default=None, description="For a graph hit: the typed path from a seed, as pack_graph writes paths."
    )


HINT = "Why it is empty or misses what was named, and what to ask instead."


def absent(value: object) -> bool:
    """A field left off the wire (``exclude_if``) when it says nothing: null, false or an empty text. One rule
    for every such field (a hint, an observation id, a link preview's optional parts)."""
    return value is None or value is False or value == ""


def hint_field() -> Any:
    """``hint``: on the wire only when there is something to say, so an ordinary answer is unchanged."""
    return Field(default="", exclude_if=absent, description=HINT)


class SearchResult(BaseModel):
    results: list[SearchHit] = Field(description="Best first.")
    available: int = Field(default=0, description="The ranking's length before the limit cut it.")


Scalar = str | int | float | bool
Attribute = Scalar | list[Scalar]  # a frontmatter value as the graph holds it (nested ones are JSON text)
ATTRIBUTE_UNITS = 300  # UTF-16 units of an attribute's value in pack_context: a few fit beside every entity


class ContextEntity(Clippable):
    clip_fields: ClassVar[tuple[str, ...]] = ("summary",)

    id: str
    kind: str
    title: str
    summary: str
    matched: list[Evidence] = Field(description="Why it is here: linked (named), text, vector, graph.")
    via: list[str] | None = Field(default=None, description="For a graph hit: the typed path from a seed.")
    attributes: dict[str, Attribute] = Field(
        default_factory=dict,
        description="Its other frontmatter keys (authors, status, dates: what the pack holds), as pack_get's "
        f"properties without aliases and tags; a value longer than {ATTRIBUTE_UNITS} UTF-16 units is sent as its "
        f"text (a list's items joined by ', ') cut to {ATTRIBUTE_UNITS} with the marker …[truncated].",
    )
    score: float = Field(default=0.0, exclude=True)  # its fused score (not sent: the order says it)
    sha256: str = Field(default="", exclude=True)  # its file, read with the hit: provenance the server
    pack: str = Field(default="", exclude=True)  # checks and records, not sent (passages carry it)
    path: str = Field(default="", exclude=True)


class ContextPassage(Clippable):
    """A passage of an entity's body: exactly lines ``lines[0]..lines[1]`` of the file at ``path``."""

    clip_fields: ClassVar[tuple[str, ...]] = ("text",)

    id: str = Field(description="The entity whose body it is.")
    path: str = Field(description="Pack-relative path of the entity's file.")
    lines: list[int] = Field(description="First and last line in the file, 1-based, inclusive.")
    sha256: str = Field(description="Content hash of the file, for citation.")
    text: str


class ContextResult(BaseModel):
    entities: list[ContextEntity] = Field(description="Most useful first: named entities, then retrieved ones.")
    paths: list[list[str]] = Field(description="Typed paths connecting them: alternating ids and relation names.")
    passages: list[ContextPassage] = Field(description="Body passages most relevant to the question, best first.")
    available: int = Field(default=0, description="Entities ranked before the limit cut them.")
    hint: str = hint_field()


class GraphNode(BaseModel):
    id: str
    kind: str | None = Field(description="None for a placeholder.")
    title: str
    depth: int = Field(description="Hops from the start entity (0 for the start).")
    missing: bool = Field(description="A placeholder: linked to, but no file defines it.")


class GraphEdge(BaseModel):
    source: str
    relation: str = Field(description="Relation name in its declared direction, e.g. part_of.")
    target: str
    weight: float | None = None


class GraphResult(BaseModel):
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool = Field(description="More entities were reachable than are listed (see omitted).")
    omitted: int = Field(
        default=0,
        description="Entities left out: at the depth where the node limit fell (the walk stops there, so more "
        "may lie beyond), or for the response budget.",
    )
    paths: list[list[str]] | None = Field(
        default=None,
        description="With `to` or `path`: alternating entity ids and relation names; ^name walked backwards.",
    )
    reached: list[str] | None = Field(
        default=None, description="With `path`: the real entities at its end (placeholders are in reached_missing)."
    )
    reached_missing: list[str] | None = Field(
        default=None, description="With `path`: placeholders at its end (linked to, but no file defines them)."
    )
    hint: str = hint_field()


class LinkPreview(Clippable):
    """A typed link of an entity, with a preview of the entity at the other end. A field at its default (null,
    false) is left out on the wire: a hub's page holds hundreds of links, and each key costs every one of them."""

    clip_fields: ClassVar[tuple[str, ...]] = ("summary",)

    content_truncated: bool = Field(default=False, exclude_if=absent)
    relation: str
    id: str
    kind: str | None = Field(default=None, exclude_if=absent)
    title: str
    summary: str | None = Field(default=None, exclude_if=absent)
    missing: bool = Field(default=False, exclude_if=absent)
    weight: float | None = Field(default=None, exclude_if=absent)
    note: str | None = Field(default=None, exclude_if=absent)
    declared_in: str | None = Field(
        default=None, exclude_if=absent, description="The file that declared the link, when not its source's."
    )


class EntityPage(Clippable):
    """``pack_get``: the entity on the first page (or in one answer); later pages carry the links that did not
    fit the first one, then body text.

    Its ``summary`` is capped like any text field; ``content`` (the body) is paged, never shortened.
    """

    clip_fields: ClassVar[tuple[str, ...]] = ("summary",)

    id: str
    revision: str = Field(description="Hash of the whole representation; a cursor is bound to it.")
    content: str = Field(description="The body, or this page's part of it.")
    complete: bool = Field(description="True when this answer ends the body.")
    next_cursor: str | None = Field(description="Pass it as `cursor` for the next page; null when complete.")
    pack: str | None = None
    kind: str | None = None
    title: str | None = None
    summary: str | None = None
    path: str | None = None
    sha256: str | None = None
    missing: bool | None = Field(default=None, description="A placeholder: linked to, but no file defines it.")
    properties: dict[str, Any] | None = Field(default=None, description="Every other frontmatter key.")
    outgoing: list[LinkPreview] | None = Field(default=None, description="Links it declares (this page's part).")
    incoming: list[LinkPreview] | None = Field(default=None, description="Links to it (this page's part).")
    links_complete: bool = Field(
        default=True, description="False: more links follow on later pages (outgoing first, then incoming)."
    )
