"""How a search read one question, kept beside its ranking so that ``graphrag explain`` can print it: the
words that ask for relation steps, the names linked and what each became, the steps read, every list
fused with its weight, and for each hit the place it held in each list. An agent's and an author's way to
see why a hit ranks where it does, without reading the code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from graphrag.retrieval.candidates import Candidate, Evidence, Question

LIST_SHOWN = 5  # ids a printed list shows


@dataclass(frozen=True)
class NameRead:
    """An entity the question names: how sure the link is, how it is written, what the search made of it."""

    id: str
    confidence: float
    written: str  # name, reference (quoted, an id), cited (inside a quoted passage), kind
    role: str  # start, in passing, cited


@dataclass(frozen=True)
class ListRead:
    """One list fused: the retriever, its weight in this question, its ids best first."""

    name: str
    weight: float
    ids: tuple[str, ...]

    @classmethod
    def of(cls, name: str, weight: float, found: Sequence[Candidate]) -> ListRead:
        return cls(name, round(weight, 3), tuple(c.id for c in found))


@dataclass(frozen=True)
class Reading:
    text: str
    mode: str
    step_words: frozenset[str] = frozenset()
    coverage: float = 1.0  # how well full text reads the question's script over these packs (0..1)
    names: tuple[NameRead, ...] = ()
    steps: tuple[tuple[str, ...], ...] = ()  # each hop's relations, ``^`` for a backward one
    seeds: Mapping[str, float] = field(default_factory=dict)  # where the walks left from, with their weight
    lists: tuple[ListRead, ...] = ()
    by_script: float | None = None  # the coverage the script gives, where text's clear first hit lifted it

    def places(self, entity_id: str) -> str:
        """Where ``entity_id`` stood in each list: ``text #1, vector #4``."""
        return ", ".join(
            f"{read.name} #{read.ids.index(entity_id) + 1}" for read in self.lists if entity_id in read.ids
        )

    def lines(self) -> list[str]:
        """The reading as a person reads it (the hits follow it in ``graphrag explain``)."""
        out = [f"question: {self.text}", f"mode: {self.mode}"]
        if self.mode != "hybrid":
            return out + self._lists()
        out.append(f"words asking for relation steps: {', '.join(sorted(self.step_words)) or 'none'}")
        covered = f"full text reads the question's script over these packs: {self.coverage:.2f}"
        if self.by_script is not None and self.by_script < self.coverage:
            covered += f" (the script alone says {self.by_script:.2f}; full text's first hit stands apart)"
        out.append(covered)
        out.append("names linked:" if self.names else "names linked: none")
        out += [f"  {n.id}  confidence {n.confidence:.2f}, written as a {n.written}: {n.role}" for n in self.names]
        hops = " then ".join("|".join(hop) for hop in self.steps)
        out.append(f"relation steps: {hops or 'none'}")
        if self.seeds:
            out.append("walks start from: " + ", ".join(f"{i} ({w:.2f})" for i, w in self.seeds.items()))
        return out + self._lists()

    def _lists(self) -> list[str]:
        out = ["lists fused (weight: first ids):"]
        for read in self.lists:
            shown = ", ".join(read.ids[:LIST_SHOWN]) + (", ..." if len(read.ids) > LIST_SHOWN else "")
            out.append(f"  {read.name:<8}{read.weight:>6.2f}: {shown or '(empty)'}")
        return out


def role(entity_id: str, starts: Mapping[str, float], readings: Mapping[str, str]) -> str:
    """What a name the question uses did in the ranking, in words."""
    if entity_id in starts:
        return "a start (ranks first; steps and walks go out from it)"
    if readings.get(entity_id) == "cited":
        return "inside a quoted passage (left to full text)"
    if readings.get(entity_id) == "kind":
        return "says what the answer or a quoted description is, not which entity (left to full text)"
    return "met in passing (one more list, weighed by its confidence)"


@dataclass(frozen=True)
class Hit:
    """An entity ranked: its fused score, the evidence that matched it and the path that reached it."""

    id: str
    score: float
    matched: list[Evidence]
    via: list[str] | None = None


@dataclass(frozen=True)
class Ranking:
    """The best ``hits``, how many entities the ranking held before it was cut to the limit, and how the
    question was read (``reading``: ``graphrag explain`` prints it)."""

    hits: list[Hit]
    available: int
    reading: Reading
    question: Question
