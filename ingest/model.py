"""Typed shapes of a pack: its manifest, an entity's frontmatter, and the parsed entity."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from graphrag.names import ID_RULE, PACK_ID_RULE, is_valid_id, is_valid_pack_id, normalise_relation
from ingest.limits import MAX_ID_LENGTH
from ingest.report import shown
from ingest.rules import RULES, matches, unknown_selectors


class RelationSpec(BaseModel):
    model_config = ConfigDict(extra="allow")

    inverse: str | None = None
    description: str | None = None

    @field_validator("inverse")
    @classmethod
    def _inverse_is_a_name(cls, value: str | None) -> str | None:
        if value is None:
            return None
        name = normalise_relation(value)
        if name is None:
            raise ValueError(f"inverse {shown(value)} is not a relation name ([a-z][a-z0-9_]*)")
        return name


class PackManifest(BaseModel):
    """``pack.yaml``; every field is optional (the folder name is the default id)."""

    model_config = ConfigDict(extra="allow")

    id: str
    title: str | None = None
    description: str | None = None
    language: str | list[str] | None = None
    relations: dict[str, RelationSpec] = Field(default_factory=dict)
    ignore: list[str] = Field(default_factory=list, description="Warning rules silenced in this pack (codes).")

    @field_validator("id")
    @classmethod
    def _id_is_valid(cls, value: str) -> str:
        if not is_valid_pack_id(value) or len(value) > MAX_ID_LENGTH:
            raise ValueError(f"pack id {shown(value)} must be {PACK_ID_RULE}, at most {MAX_ID_LENGTH} characters")
        return value

    @field_validator("ignore")
    @classmethod
    def _warnings_only(cls, value: list[str]) -> list[str]:
        """Codes (or their leading letters) of warning rules: an error rejects a file, and a pack cannot
        choose to keep what the stores must not take."""
        if unknown := unknown_selectors(value):
            raise ValueError(f"no rule has the code {', '.join(unknown)} (docs/rules.md lists them)")
        errors = [s for s in value if not any(matches(r.code, [s]) for r in RULES.values() if r.severity == "warning")]
        if errors:
            raise ValueError(f"{', '.join(map(repr, errors))} names only error rules, which cannot be silenced")
        return value

    @field_validator("relations", mode="before")
    @classmethod
    def _normalise_names(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for raw, spec in value.items():
            name = normalise_relation(str(raw))
            if name is None:
                raise ValueError(f"relation {shown(raw)} is not a relation name ([a-z][a-z0-9_]*)")
            out[name] = spec if spec is not None else {}
        return out

    def canonical(self, relation: str) -> tuple[str, bool]:
        """Map a relation name to (declared name, walks backwards): ``superseded_by`` -> (``supersedes``, True)."""
        for name, spec in self.relations.items():
            if spec.inverse == relation and name != relation:
                return name, True
        return relation, False

    def declares(self, relation: str) -> bool:
        return relation in self.declared_names()

    def declared_names(self) -> list[str]:
        """Every relation name the pack declares: each relation, then each inverse."""
        inverses = [spec.inverse for spec in self.relations.values() if spec.inverse]
        return list(dict.fromkeys([*self.relations, *inverses]))


@dataclass(frozen=True, slots=True)
class Link:
    """One typed link as the author wrote it, already in its declared direction (internal: validated
    by the parser, so a plain dataclass; pydantic guards the external shapes above and below)."""

    relation: str
    target: str
    reverse: bool = False
    weight: float | None = None
    note: str | None = None
    line: int | None = None


@dataclass(slots=True)
class Entity:
    """A parsed, valid entity file: what the stores receive."""

    id: str
    pack: str
    kind: str
    kind_label: str
    title: str
    summary: str
    aliases: list[str]
    tags: list[str]
    path: str
    body: str
    body_line: int  # the file line the body starts on (passages cite file lines)
    sha256: str
    properties: dict[str, Any]
    links: list[Link]
    kind_line: int | None = None  # where the kind is written (a warning about its spelling names the line)
    id_line: int | None = None  # where the id is written (a conflict over it names the line)

    @property
    def embedding_text(self) -> str:
        return embedding_text(self.title, self.summary)


def embedding_text(title: str, summary: str) -> str:
    """What an entity's vector is made of: its title and summary (the graph keeps both, so a lost vector can
    be made again from the graph alone)."""
    return f"{title}. {summary}" if summary else title


def _scalar_text(value: Any) -> Any:
    """Numbers and booleans written where text is expected are read as text (``id: 2026``)."""
    if isinstance(value, bool | int | float):
        return str(value)
    return value


def _text_list(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, str | int | float):
        return [str(value)]
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return [str(v) for v in value]
    return value


class EntityFrontmatter(BaseModel):
    """The keys of a frontmatter block that the graph model gives a meaning; the rest stay properties."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    id: str | None = None
    kind: str | None = None
    title: str | None = None
    summary: str | None = None
    aliases: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)

    @field_validator("id", "kind", "title", "summary", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return _scalar_text(value)

    @field_validator("aliases", "tags", mode="before")
    @classmethod
    def _texts(cls, value: Any) -> Any:
        return _text_list(value)

    @field_validator("id")
    @classmethod
    def _valid_id(cls, value: str | None) -> str | None:
        if value is not None and not is_valid_id(value):
            raise ValueError(f"id {shown(value)} must be {ID_RULE}")
        return value
