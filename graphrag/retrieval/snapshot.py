"""The graph as the retrievers need it in memory: every entity's names and the typed links as arrays.

Entity linking looks up every n-gram of a question, and the graph walk runs a few sparse products per
question: both cost microseconds in memory and tens of milliseconds as Cypher round trips. The copy is
read again when the graph marker moves, by the same rule as the vector mirror (``refresh``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from graphrag.retrieval.refresh import MarkedCopy
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.stores.graph import GraphStore

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Entities:
    """Entity i's id, names, pack and kind; placeholders (``missing``) are walked through, never returned."""

    ids: list[str]
    titles: list[str]
    aliases: list[list[str]]
    packs: list[str]
    kinds: list[str]
    missing: npt.NDArray[np.bool_]
    index: dict[str, int]


@dataclass(frozen=True)
class Links:
    """Every typed link once, as parallel arrays (source row, target row, relationship type row)."""

    sources: Ints
    targets: Ints
    types: Ints
    type_names: list[str]


@dataclass(frozen=True)
class GraphCopy:
    entities: Entities
    links: Links


class GraphSnapshot:
    """The current ``GraphCopy``, and objects derived from it (built once per copy, on first use)."""

    def __init__(self, graph: GraphStore, vocabulary: RelationVocabulary, refresh_seconds: float = 2.0) -> None:
        self._graph = graph
        self._vocabulary = vocabulary
        self._copy = MarkedCopy(graph, self._load, refresh_seconds=refresh_seconds)
        self._derived: dict[str, Any] = {}

    def current(self) -> GraphCopy:
        return self._copy.current()

    def hold(self) -> contextlib.AbstractContextManager[None]:
        """While this process writes the graph: the copy is left as it is (see ``refresh``)."""
        return self._copy.hold()

    def reload(self, before: dict[str, Any]) -> None:
        """Read the copy again now, after a write of this process (``before``: the marker read before it)."""
        self._copy.patch(lambda _: self._load(), before)

    def derived(self, name: str, build: Callable[[GraphCopy], Any]) -> Any:
        """``build(copy)`` of the current copy, kept until the copy changes (linking tables, the walk's matrix)."""
        copy = self.current()
        found = self._derived.get(name)
        if found is None or found[0] is not copy:
            found = (copy, build(copy))
            self._derived[name] = found
        return found[1]

    def _load(self) -> GraphCopy:
        rows = self._graph.read("retrieval_names")
        index = {row["id"]: i for i, row in enumerate(rows)}
        entities = Entities(
            ids=[row["id"] for row in rows],
            titles=[str(row["title"] or "") for row in rows],
            aliases=[[str(a) for a in row["aliases"]] for row in rows],
            packs=[str(row["pack"] or "") for row in rows],
            kinds=[str(row["kind"] or "") for row in rows],
            missing=np.array([bool(row["missing"]) for row in rows], dtype=bool),
            index=index,
        )
        type_names = self._vocabulary.types()
        type_index = {name: i for i, name in enumerate(type_names)}
        links = self._graph.read("retrieval_links", types=type_names)
        return GraphCopy(
            entities=entities,
            links=Links(
                sources=np.array([index[row["source"]] for row in links], dtype=np.int64),
                targets=np.array([index[row["target"]] for row in links], dtype=np.int64),
                types=np.array([type_index[row["type"]] for row in links], dtype=np.int64),
                type_names=type_names,
            ),
        )
