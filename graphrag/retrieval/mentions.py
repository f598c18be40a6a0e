"""A question's words and the relation words read among them: what reading relation names, their
descriptions and the hierarchy words shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from graphrag.retrieval.vocabulary import Step

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


@dataclass(frozen=True)
class Mention:
    first: int  # word positions in the question
    last: int
    names: tuple[Name, ...]
    level: Level | None = None  # a hierarchy word, whose steps are the hierarchy's, up or down
    far_end: bool = False  # a noun a description names the relation's far end by: the step reaches it


def spelled(name: str, step: Step) -> Name:
    parts = tuple(p for p in name.split("_") if p)
    core = tuple(p for p in parts if p not in LINKING_WORDS) or parts
    return Name(name, step, core, tuple(p for p in parts if p in LINKING_WORDS))
