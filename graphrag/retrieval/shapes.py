"""What each relation connects, read from the graph itself: the kinds at its two ends, and whether it is a
hierarchy (nearly every entity it leaves has one target: a broader term, an enclosing group).

A question's kind words and direction words are resolved against these shapes, not against word lists
written for one domain: ``the more specific kinds of X`` walks X's hierarchy downwards, whatever the pack
calls it (``is_a``, ``subclass_of``, ``part_of``), and ``Which <kind A> ... X?`` with no relation word walks
the relations that join kind A to X's kind, in the direction they run. A kind belongs to its pack: two packs
that both say ``group`` may mean different things, so each pack's kinds have shapes of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graphrag.retrieval.snapshot import GraphCopy
from graphrag.retrieval.vocabulary import Step

HIERARCHY_SHARE = 0.9  # a relation is a hierarchy when this share of the entities it leaves have one target
MIN_HIERARCHY_SOURCES = 5  # too few sources say nothing about a relation's shape
MIN_PAIR_SHARE = 0.1  # the kinds a relation joins: the pairs that make up at least this share of its links

Kind = tuple[str, str]  # (pack, kind)


@dataclass(frozen=True)
class Shape:
    """One relationship type: how many links join each (source kind, target kind), and its sources' share
    with a single target."""

    type: str
    ends: dict[tuple[Kind, Kind], int]
    single_target: float
    sources: int

    @property
    def hierarchy(self) -> bool:
        return self.sources >= MIN_HIERARCHY_SOURCES and self.single_target >= HIERARCHY_SHARE

    @property
    def pairs(self) -> set[tuple[Kind, Kind]]:
        """The (source kind, target kind) pairs the relation is for; a few links between other kinds (a
        field that is also filed as a term) are exceptions, not its shape."""
        total = sum(self.ends.values())
        return {pair for pair, n in self.ends.items() if n >= MIN_PAIR_SHARE * total}

    def touches(self, kind: Kind) -> bool:
        return any(kind in pair for pair in self.pairs)

    def leaves(self, kind: Kind) -> bool:
        """Whether enough entities of ``kind`` leave it to count, though the kind is no part of its shape (a
        classification's few materials that are each a kind of some term)."""
        return sum(n for (source, _), n in self.ends.items() if source == kind) >= MIN_HIERARCHY_SOURCES

    @property
    def within_kind(self) -> float:
        """The share of its links that join two entities of one kind (a taxonomy, not a membership)."""
        total = sum(self.ends.values())
        return sum(n for (a, b), n in self.ends.items() if a == b) / total if total else 0.0


@dataclass(frozen=True)
class Shapes:
    """Every relationship type's shape, and the kind names the graph's entities have (in any pack)."""

    by_type: dict[str, Shape]
    kinds: frozenset[str]

    @classmethod
    def of(cls, copy: GraphCopy) -> Shapes:
        """Counted in numpy, kinds as numbers: a million entities' links take a second, not a minute."""
        kinds = list(dict.fromkeys(zip(copy.entities.packs, copy.entities.kinds, strict=True)))
        code = {kind: i for i, kind in enumerate(kinds)}
        row_kind = np.array([code[k] for k in zip(copy.entities.packs, copy.entities.kinds, strict=True)], np.int64)
        links = copy.links
        by_type: dict[str, Shape] = {}
        for type_row, name in enumerate(links.type_names):
            at = np.flatnonzero(links.types == type_row)
            if not at.size:
                continue
            sources = links.sources[at]
            pairs, counts = np.unique(row_kind[sources] * len(kinds) + row_kind[links.targets[at]], return_counts=True)
            ends = {(kinds[p // len(kinds)], kinds[p % len(kinds)]): int(n) for p, n in zip(pairs, counts, strict=True)}
            _, per_source = np.unique(sources, return_counts=True)
            by_type[name] = Shape(name, ends, float(np.mean(per_source == 1)), int(per_source.size))
        return cls(by_type, frozenset(kind for _, kind in kinds if kind))

    def upwards(self, kind: Kind | None) -> tuple[Step, ...]:
        """The steps that go up the hierarchies an entity of ``kind`` stands in (None: any kind), the ones
        within one kind (a taxonomy) before those across kinds (a classification's levels); a kind that
        stands in none by their shapes goes up those its entities leave."""
        hierarchies = [s for s in self.by_type.values() if s.hierarchy]
        found = [s for s in hierarchies if kind is None or s.touches(kind)]
        found = found or [s for s in hierarchies if kind is not None and s.leaves(kind)]
        if not found:
            return ()
        best = max(s.within_kind >= 0.5 for s in found)
        return tuple(Step(s.type, True) for s in sorted(found, key=lambda s: s.type) if (s.within_kind >= 0.5) == best)

    def complete(
        self, steps: list[set[Step]], start: Kind, asked: list[str], most: int, attached: str | None = None
    ) -> list[set[Step]]:
        """The steps read from the question's words, and one more to the kind the question asks for (by
        name, in the start's pack) when the chain does not reach it: ``Which items show a more specific kind
        of X?`` reads the hierarchy step, and the kinds' shapes add the step from those terms to the items
        that show them. A kind ``attached`` to the entity (``the material of X``) is reached first, and the
        steps read from words go on from there (``Which broader term covers the material of X?``)."""
        if attached is not None and (start[0], attached) != start and len(steps) < most:
            first = set(self.between(start, (start[0], attached)))
            if first and not (steps and first <= steps[0]):
                steps = [first, *steps]
        here, passed = {start}, {start}
        for step in steps:
            here = {end for kind in here for s in step for end in self._ends(kind, s)}
            passed |= here
        answer = next(((start[0], kind) for kind in asked if (start[0], kind) != start), None)
        if answer is None or answer in passed or len(steps) >= most:
            return steps
        joining = {s for kind in here for s in self.between(kind, answer)}
        return [*steps, joining] if joining else steps

    def _ends(self, kind: Kind, step: Step) -> set[Kind]:
        shape = self.by_type.get(step.type)
        if shape is None:
            return set()
        return {b if step.forward else a for a, b in shape.pairs if (a if step.forward else b) == kind}

    def between(self, start: Kind, answer: Kind) -> tuple[Step, ...]:
        """The steps from an entity of kind ``start`` to entities of kind ``answer``, each relation in the
        direction its links run between the two kinds (both, where they run both ways)."""
        steps = [
            Step(shape.type, forward)
            for shape in self.by_type.values()
            for forward, pair in ((True, (start, answer)), (False, (answer, start)))
            if pair in shape.pairs
        ]
        return tuple(sorted(set(steps), key=lambda s: (s.type, not s.forward)))
