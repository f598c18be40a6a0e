"""Query expanders an operator could plug in (``GRAPHRAG_QUERY_EXPANDER``), as tests name them: a fixed synonym
table in place of a language model, one that fails as a remote model may, and an object that is none."""

from __future__ import annotations

from collections.abc import Sequence

SYNONYMS = {"deployment": ["rollout"]}


class Synonyms:
    def expand(self, query: str, project_terms: Sequence[str]) -> list[str]:
        return [synonym for word in query.lower().split() for synonym in SYNONYMS.get(word, [])]


class Unreachable:
    def expand(self, query: str, project_terms: Sequence[str]) -> list[str]:
        raise ConnectionError("the model's endpoint did not answer")


def synonyms() -> Synonyms:
    return Synonyms()


def unreachable() -> Unreachable:
    return Unreachable()


def not_an_expander() -> object:
    return object()
