"""A question's words and the relation words read among them: what reading relation names, their
descriptions and the hierarchy words shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from graphrag.retrieval.vocabulary import Step

_PARTICIPLES = frozenset({"made", "built", "written", "known", "held", "found", "kept", "shown", "seen", "given"})
LINKING_WORDS = frozenset({"by", "of", "to", "in", "on", "for", "from", "with", "has", "is", "at", "as"})
Level = Literal["up", "down", "either"]


@dataclass(frozen=True)
class Word:
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Name:
    """A relation name as words: the ones that carry meaning, and whether it reads passively."""

    name: str
    step: Step
    core: tuple[str, ...]
    linking: tuple[str, ...]

    @property
    def passive(self) -> bool:
        return self.name.endswith("_by")

    @property
    def participle(self) -> bool:
        """``used_in``, ``made_of``: a name whose verb is a past participle reads passively itself."""
        return not self.passive and past_participle(self.core[-1])


@dataclass(frozen=True)
class Mention:
    first: int  # word positions in the question
    last: int
    names: tuple[Name, ...]
    level: Level | None = None  # a hierarchy word, whose steps are the hierarchy's, up or down
    far_end: bool = False  # a noun a description names the relation's far end by: the step reaches it


def past_participle(word: str) -> bool:
    """``used``, ``made``; not ``need``."""
    return (word.endswith("ed") and not word.endswith("eed")) or word in _PARTICIPLES


def spelled(name: str, step: Step) -> Name:
    parts = tuple(p for p in name.split("_") if p)
    core = tuple(p for p in parts if p not in LINKING_WORDS) or parts
    return Name(name, step, core, tuple(p for p in parts if p in LINKING_WORDS))
