"""What an ingest or a check tells the author: counts, and problems with path:line:field."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field, TypeAdapter, computed_field, field_validator

from graphrag.errors import echo
from ingest.rules import RULES, Severity, matches


class Problem(BaseModel):
    """One thing an author should fix, by the rule it breaks (``code``, ingest/rules.py); ``error`` rejects
    the file (or, with ``link``, leaves one link out), ``warning`` skips one value."""

    code: str = Field(description="The rule's code (docs/rules.md).")
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

    @computed_field  # type: ignore[prop-decorator]
    @property
    def severity(self) -> Severity:
        """The rule's: a problem is told by its code."""
        return RULES[self.code].severity

    @field_validator("code")
    @classmethod
    def _known_rule(cls, value: str) -> str:
        if value not in RULES:
            raise ValueError(f"no rule has the code {value!r}")
        return value

    @property
    def rejects_file(self) -> bool:
        return self.severity == "error" and not self.link

    @field_validator("field")
    @classmethod
    def _short_field(cls, value: str | None) -> str | None:
        """A field is a key the author wrote, which may be any length."""
        return None if value is None else echo(value)

    def render(self, with_pack: bool = False) -> str:
        """One line; ``with_pack`` names the pack too, for a file of a pack other than the ones read."""
        path = f"{self.pack}:{self.path}" if with_pack and self.pack else self.path
        where = path if self.line is None else f"{path}:{self.line}"
        field = f" [{self.field}]" if self.field else ""
        return f"{where}: {self.severity}[{self.code}]{field}: {self.message}"


_HELD = TypeAdapter(list[Problem])


def held_problems(problems: list[Problem]) -> str:
    """A file's problems as the graph keeps them beside its stamp (its path and pack are the entity's)."""
    return json.dumps([p.model_dump(exclude={"path", "pack"}, exclude_defaults=True) for p in problems])


def stored_problems(held: str | None, path: str) -> tuple[Problem, ...] | None:
    """The problems a file had when it was last read, to report again while it is taken as unchanged; None
    for a value that does not read as such (written by an older release, without rule codes, or by hand):
    the file is then read again."""
    if not held:
        return ()
    try:
        return tuple(_HELD.validate_python([{**p, "path": path} for p in json.loads(held)]))
    except (ValueError, TypeError):
        return None


def shown(value: object) -> str:
    """An input value as a message quotes it: its ``repr``, cut short like every echo of an input."""
    return echo(repr(value))


class DanglingLink(BaseModel):
    code: Literal["L009"] = Field(default="L009", description="The rule's code (docs/rules.md).")
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

    def selected(self, select: Sequence[str], ignore: Sequence[str]) -> IngestReport:
        """The report with only the problems (dangling links too) whose rule ``select`` names (all when it is
        empty) and ``ignore`` does not: what ``check --select/--ignore`` shows and exits by."""

        def kept(code: str) -> bool:
            return (not select or matches(code, select)) and not matches(code, ignore)

        return self.model_copy(
            update={
                "errors": [p for p in self.errors if kept(p.code)],
                "warnings": [p for p in self.warnings if kept(p.code)],
                "dangling": [d for d in self.dangling if kept(d.code)],
            }
        )
