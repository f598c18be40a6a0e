"""What an ingest or a check tells the author: counts, and problems with path:line:field."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field, TypeAdapter, field_validator

from graphrag.errors import echo

Severity = Literal["error", "warning"]


class Problem(BaseModel):
    """One thing an author should fix; ``error`` rejects the file (or, with ``link``, leaves one link out),
    ``warning`` skips one value."""

    severity: Severity
    path: str = Field(description="Relative to the root of its pack.")
    pack: str | None = Field(default=None, description="The pack's id.")
    line: int | None = None
    field: str | None = None
    message: str
    link: bool = Field(
        default=False,
        exclude_if=lambda value: not value,
        description="An error of one link, which is not stored; the file is.",
    )

    @property
    def rejects_file(self) -> bool:
        return self.severity == "error" and not self.link

    @field_validator("field")
    @classmethod
    def _short_field(cls, value: str | None) -> str | None:
        """A field is a key the author wrote, which may be any length."""
        return None if value is None else echo(value)

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        field = f" [{self.field}]" if self.field else ""
        return f"{where}: {self.severity}{field}: {self.message}"


_HELD = TypeAdapter(list[Problem])


def held_problems(problems: list[Problem]) -> str:
    """A file's problems as the graph keeps them beside its stamp (its path and pack are the entity's)."""
    return json.dumps([p.model_dump(exclude={"path", "pack"}, exclude_defaults=True) for p in problems])


def stored_problems(held: str | None, path: str) -> tuple[Problem, ...]:
    """The problems a file had when it was last read, to report again while it is taken as unchanged; a
    value that does not read as such (written by an older release, or by hand) is taken as none."""
    if not held:
        return ()
    try:
        return tuple(_HELD.validate_python([{**p, "path": path} for p in json.loads(held)]))
    except (ValueError, TypeError):
        return ()


def shown(value: object) -> str:
    """An input value as a message quotes it: its ``repr``, cut short like every echo of an input."""
    return echo(repr(value))


class DanglingLink(BaseModel):
    source: str
    relation: str
    target: str
    declared_in: str
    pack: str | None = Field(default=None, description="The pack of the file that declares it.")
    nearest: list[str] = Field(default_factory=list, description="Known ids nearest to the target (a misspelt id).")
    rejected_in: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="A file that defines the target but was rejected: fixing it resolves the link.",
    )
    rejected_line: int | None = Field(
        default=None, exclude_if=lambda value: value is None, description="The line of that file's first error."
    )

    def render(self) -> str:
        return f"{self.source} -[{self.relation}]-> {self.target} ({self.declared_in}){self.why()}"

    def why(self) -> str:
        """What the author can do: fix the rejected file that defines the target, or the misspelt id."""
        if self.rejected_in is not None:
            line = f" (line {self.rejected_line})" if self.rejected_line is not None else ""
            return f"; defined by {self.rejected_in}, which was rejected{line}"
        return f"; nearest known ids: {', '.join(self.nearest)}" if self.nearest else ""


class PackReport(BaseModel):
    pack: str
    root: str
    files: int = 0
    entities: int = 0
    skipped: list[str] = Field(default_factory=list, description="Markdown files without frontmatter.")


class IngestReport(BaseModel):
    """The final report of ``graphrag ingest`` / ``graphrag check`` (also its ``--json`` output)."""

    mode: Literal["ingest", "check"]
    packs: list[PackReport] = Field(default_factory=list)
    added: list[str] = Field(default_factory=list)
    updated: list[str] = Field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = Field(default_factory=list)
    links: int = 0
    dangling: list[DanglingLink] = Field(default_factory=list)
    embedded: int = 0
    reindexed: str | None = Field(default=None, description="Why every vector was rebuilt, if it was.")
    errors: list[Problem] = Field(default_factory=list)
    warnings: list[Problem] = Field(default_factory=list)
    timings: dict[str, float] = Field(default_factory=dict, description="Seconds per phase.")
    owners_checked: bool = Field(
        default=True,
        description="Whether pack ids were checked against the folders the graph holds them from "
        "(check: false when Neo4j could not be reached).",
    )

    @property
    def exit_code(self) -> int:
        return 1 if self.errors else 0
