"""Resolve link targets: id, else a unique title or alias, else a placeholder id, else a warning."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from graphrag.names import NearestNames, fold, is_valid_id, relationship_type
from ingest.model import Entity
from ingest.report import DanglingLink, Problem, shown


@dataclass(frozen=True)
class ResolvedLink:
    """A link ready for the graph: source and target ids in the declared direction."""

    source: str
    type: str
    target: str
    weight: float | None
    note: str | None
    declared_by: str
    declared_in: str


def _looks_like_path(value: str) -> bool:
    """``../x/y.md`` or ``notes.md`` names a file, not an entity: authors are told, not given a placeholder."""
    return value.endswith(".md") or value.startswith(("./", "../", "/"))


class Resolver:
    """Knows every entity id, title and alias of the deployment (this run's packs and the stored ones)."""

    def __init__(self) -> None:
        self._ids: set[str] = set()
        self._names: dict[str, set[str]] = defaultdict(set)
        self._files: dict[tuple[str, str], str] = {}  # (pack, pack-relative path) -> the id that file defines
        self._rejected: dict[str, tuple[str, int | None]] = {}  # id -> (path, line) of a rejected file defining it

    def add(
        self,
        entity_id: str,
        title: str | None,
        aliases: Iterable[str],
        pack: str | None = None,
        path: str | None = None,
    ) -> None:
        self._ids.add(entity_id)
        if pack is not None and path is not None:
            self._files[(pack, path)] = entity_id
        for name in (title, *aliases):
            if name:
                self._names[fold(name)].add(entity_id)

    def target(self, value: str) -> tuple[str | None, bool]:
        """(resolved id or None, whether it is defined by some file)."""
        if value in self._ids:
            return value, True
        matches = self._names.get(fold(value), set())
        if len(matches) == 1:
            return next(iter(matches)), True
        return (value, False) if is_valid_id(value) and not _looks_like_path(value) else (None, False)

    def _unknown(self, entity: Entity, value: str) -> str:
        """What is wrong with a target that is no id: a file path names the id its file defines."""
        if _looks_like_path(value):
            where = posixpath.normpath(posixpath.join(posixpath.dirname(entity.path), value)).lstrip("/")
            defined = self._files.get((entity.pack, where))
            if defined is not None:
                return f"is a file path; that file defines {shown(defined)}: write the id"
            return "is a file path, and no file of the pack at that path defines an entity: write an id"
        return "is neither an id nor a known title"

    def rejected(self, entity_id: str, path: str, line: int | None) -> None:
        """A file that would define ``entity_id`` was rejected (``line``: its first error's)."""
        self._rejected.setdefault(entity_id, (path, line))

    def suggest(self, dangling: list[DanglingLink]) -> None:
        """Give each dangling link the known ids nearest to its target: a misspelt id (``SM.PROGRAM.APPOLO``)
        dangles like a link to an entity not written yet, and the author is told which it may have meant; a
        target a rejected file would define is told as such (fixing that file resolves the link)."""
        if not dangling:
            return
        for link in dangling:
            link.rejected_in, link.rejected_line = self._rejected.get(link.target, (None, None))
        spellings = [(i, i) for i in sorted(self._ids)]
        spellings += [(name, next(iter(ids))) for name, ids in sorted(self._names.items()) if len(ids) == 1]
        known = NearestNames(spellings)
        nearest: dict[str, list[str]] = {}
        for link in dangling:
            if link.rejected_in is not None:
                continue
            if link.target not in nearest:
                nearest[link.target] = known.of(link.target, limit=3, typos_only=True)
            link.nearest = nearest[link.target]

    def links(self, entity: Entity) -> tuple[list[ResolvedLink], list[ResolvedLink], list[Problem]]:
        """(links, the dangling ones among them, warnings for targets that are neither id nor title)."""
        links: list[ResolvedLink] = []
        dangling: list[ResolvedLink] = []
        problems: list[Problem] = []
        for link in entity.links:
            target, defined = self.target(link.target)
            if target is None:
                problems.append(
                    Problem(
                        code="L008",
                        path=entity.path,
                        line=link.line,
                        field=f"related.{link.relation}",
                        message=f"target {shown(link.target)} {self._unknown(entity, link.target)}; link skipped",
                    )
                )
                continue
            source, end = (target, entity.id) if link.reverse else (entity.id, target)
            resolved = ResolvedLink(
                source=source,
                type=relationship_type(link.relation),
                target=end,
                weight=link.weight,
                note=link.note,
                declared_by=entity.id,
                declared_in=entity.path,
            )
            links.append(resolved)
            if not defined:
                dangling.append(resolved)
        return links, dangling, problems
