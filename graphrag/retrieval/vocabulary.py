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


class RelationVocabulary:
    """Read from the graph, at most every ``refresh_seconds``, so a fresh ingest's relations are known."""

    def __init__(self, graph: GraphStore, refresh_seconds: float = 2.0) -> None:
        self._graph = graph
        self._refresh_seconds = refresh_seconds
        self._names: dict[str, tuple[Step, ...]] = {}
        self._types: list[str] = []
        self._described: tuple[Described, ...] = ()
        self._loaded_at = -float("inf")
        self._lock = threading.Lock()

    def types(self) -> list[str]:
        """Every relationship type between entities."""
        self._refresh()
        return self._types

    def names(self) -> dict[str, tuple[Step, ...]]:
        """Every relation name (types and declared inverses) with the steps it walks: one pack's inverse may
        be another's type or inverse (``follows``, ``required_by``), and a name keeps each meaning."""
        self._refresh()
        return self._names

    def described(self) -> tuple[Described, ...]:
        """Every declared relation its pack describes, once per distinct description."""
        self._refresh()
        return self._described

    def resolve(self, name: str) -> tuple[Step, ...]:
        """``part_of``, ``^part_of``, ``has_part`` (a declared inverse), ``partOf`` or ``PART_OF`` -> its steps."""
        self._refresh()
        backwards = name.startswith("^")
        steps = self._names.get(normalise_relation(name.removeprefix("^")) or "")
        if steps is None:
            known = hint(name.removeprefix("^"), self._names, "relations", "pack_catalog")
            raise InvalidArgument(f"unknown relation {echo(name)!r}; {known}")
        return tuple(Step(step.type, step.forward != backwards) for step in steps)

    def _refresh(self) -> None:
        if time.monotonic() - self._loaded_at < self._refresh_seconds:
            return
        with self._lock:
            row = self._graph.read("retrieval_vocabulary")[0]
            meanings: dict[str, set[Step]] = defaultdict(set)
            for type_ in row["types"]:
                meanings[relation_of_type(type_)].add(Step(type_, True))
            for vocabulary in row["vocabularies"]:
                for name, step in _declared(json.loads(vocabulary)):
                    meanings[name].add(step)
            self._described = tuple(
                sorted(
                    {
                        Described(name, Step(relationship_type(name), True), text)
                        for descriptions in row["descriptions"]
                        for name, text in json.loads(descriptions).items()
                    },
                    key=lambda d: (d.name, d.description),
                )
            )
            self._types = sorted({step.type for steps in meanings.values() for step in steps})
            self._names = {
                name: tuple(sorted(steps, key=lambda s: (s.type, not s.forward))) for name, steps in meanings.items()
            }
            self._loaded_at = time.monotonic()


def _declared(vocabulary: dict[str, str | None]) -> list[tuple[str, Step]]:
    """A pack's declared relations (already normalised by the ingester) and their inverse names."""
    steps: list[tuple[str, Step]] = []
    for name, inverse in vocabulary.items():
        steps.append((name, Step(relationship_type(name), True)))
        if inverse and inverse != name:
            steps.append((inverse, Step(relationship_type(name), False)))
    return steps
