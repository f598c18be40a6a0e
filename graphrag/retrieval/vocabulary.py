"""Relation names a caller may use, each resolved to a relationship type and a direction.

Names come from the relationship types the packs' links use and from the packs' declared
vocabularies (``has_part`` walks ``part_of`` backwards), both recorded on the Pack nodes by the
ingester. Relationship types reach Cypher only through this vocabulary, never as raw input.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from graphrag.errors import InvalidArgument, echo
from graphrag.names import normalise_relation, relation_of_type, relationship_type
from graphrag.nearest import hint
from graphrag.stores.graph import GraphStore


@dataclass(frozen=True)
class Step:
    """One hop: a relationship type, walked in its declared direction or backwards."""

    type: str
    forward: bool

    @property
    def label(self) -> str:
        """``part_of``, or ``^part_of`` when walked backwards (the spelling ``path`` accepts)."""
        name = relation_of_type(self.type)
        return name if self.forward else f"^{name}"


@dataclass(frozen=True)
class Described:
    """A declared relation in its author's words (``build_depends_on``: "Needed only to build the package")."""

    name: str
    step: Step
    description: str


@dataclass(frozen=True)
class _Meanings:
    """What a caller's readable packs make of relation names."""

    names: dict[str, tuple[Step, ...]]
    described: tuple[Described, ...]


@dataclass(frozen=True)
class _PackRelations:
    """One pack's part of the vocabulary, as the ingester recorded it on its Pack node."""

    types: tuple[str, ...]
    declared: dict[str, str | None]
    descriptions: dict[str, str]


class RelationVocabulary:
    """Read from the graph, at most every ``refresh_seconds``, so a fresh ingest's relations are known.

    Names and descriptions are read pack by pack: ``hidden`` (the packs a caller may not read now) leaves a
    pack's declared names and descriptions out, so they neither shape its walks nor show in its catalog or
    hints. Relationship types are the graph's, shared by all (walks filter the entities they reach)."""

    MAX_VIEWS = 64  # callers' distinct sets of hidden packs kept between refreshes

    def __init__(self, graph: GraphStore, refresh_seconds: float = 2.0) -> None:
        self._graph = graph
        self._refresh_seconds = refresh_seconds
        self._packs: dict[str, _PackRelations] = {}
        self._types: list[str] = []
        self._views: dict[frozenset[str], _Meanings] = {}
        self._loaded_at = -float("inf")
        self._lock = threading.Lock()

    def packs(self) -> list[str]:
        """The packs whose relations the vocabulary holds."""
        self._refresh()
        return list(self._packs)

    def types(self) -> list[str]:
        """Every relationship type between entities."""
        self._refresh()
        return self._types

    def names(self, hidden: Collection[str] = ()) -> dict[str, tuple[Step, ...]]:
        """Every relation name (types and declared inverses) with the steps it walks: one pack's inverse may
        be another's type or inverse (``follows``, ``required_by``), and a name keeps each meaning."""
        return self._view(hidden).names

    def described(self, hidden: Collection[str] = ()) -> tuple[Described, ...]:
        """Every declared relation its pack describes, once per distinct description."""
        return self._view(hidden).described

    def resolve(self, name: str, hidden: Collection[str] = ()) -> tuple[Step, ...]:
        """``part_of``, ``^part_of``, ``has_part`` (a declared inverse), ``partOf`` or ``PART_OF`` -> its steps."""
        names = self.names(hidden)
        backwards = name.startswith("^")
        steps = names.get(normalise_relation(name.removeprefix("^")) or "")
        if steps is None:
            known = hint(name.removeprefix("^"), names, "relations", "pack_catalog")
            raise InvalidArgument(f"unknown relation {echo(name)!r}; {known}")
        return tuple(Step(step.type, step.forward != backwards) for step in steps)

    def _view(self, hidden: Collection[str]) -> _Meanings:
        self._refresh()
        key = frozenset(hidden)
        with self._lock:
            view = self._views.get(key)
            if view is None:
                if len(self._views) >= self.MAX_VIEWS:
                    self._views.clear()
                view = self._views[key] = _meanings([r for p, r in self._packs.items() if p not in key])
            return view

    def _refresh(self) -> None:
        if time.monotonic() - self._loaded_at < self._refresh_seconds:
            return
        with self._lock:
            self._packs = {
                row["pack"]: _PackRelations(
                    tuple(row["types"]), json.loads(row["relations"] or "{}"), json.loads(row["descriptions"] or "{}")
                )
                for row in self._graph.read("retrieval_vocabulary")
            }
            everything = _meanings(list(self._packs.values()))
            self._types = sorted({step.type for steps in everything.names.values() for step in steps})
            self._views = {frozenset(): everything}
            self._loaded_at = time.monotonic()


def _meanings(packs: list[_PackRelations]) -> _Meanings:
    meanings: dict[str, set[Step]] = defaultdict(set)
    for relations in packs:
        for type_ in relations.types:
            meanings[relation_of_type(type_)].add(Step(type_, True))
        for name, step in _declared(relations.declared):
            meanings[name].add(step)
    described = {
        Described(name, Step(relationship_type(name), True), text)
        for relations in packs
        for name, text in relations.descriptions.items()
    }
    return _Meanings(
        names={name: tuple(sorted(steps, key=lambda s: (s.type, not s.forward))) for name, steps in meanings.items()},
        described=tuple(sorted(described, key=lambda d: (d.name, d.description))),
    )


def _declared(vocabulary: dict[str, str | None]) -> list[tuple[str, Step]]:
    """A pack's declared relations (already normalised by the ingester) and their inverse names."""
    steps: list[tuple[str, Step]] = []
    for name, inverse in vocabulary.items():
        steps.append((name, Step(relationship_type(name), True)))
        if inverse and inverse != name:
            steps.append((inverse, Step(relationship_type(name), False)))
    return steps
