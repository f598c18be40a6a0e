"""The graph as the retrievers need it in memory: every entity's names and the typed links as arrays.

Entity linking looks up every n-gram of a question, and the graph walk runs a few sparse products per
question: both cost microseconds in memory and tens of milliseconds as Cypher round trips. The copy is
read again when the graph marker moves (``refresh``); a write of this
process patches it instead, reading only the entities it wrote or removed, their neighbours and their links.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from graphrag.retrieval.refresh import MarkedCopy
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.stores.graph import GraphStore

Ints = npt.NDArray[np.int64]
log = logging.getLogger(__name__)


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

    def patch(self, ids: Collection[str], before: dict[str, Any]) -> None:
        """After a write of this process that wrote or removed the entities ``ids`` (``before``: the marker read
        before it): their rows, their neighbours' rows and every link that touches them are read again, the
        rest of the copy is kept. A write that brings a new relationship type reads the copy whole."""
        if ids:
            self._copy.patch(lambda copy: self._patched(copy, ids), before)

    def derived(self, name: str, build: Callable[[GraphCopy], Any]) -> Any:
        """``build(copy)`` of the current copy, kept until the copy changes (linking tables, the walk's matrix).
        Each build is logged with its duration: over a large graph it takes seconds (the server builds them
        at start, see ``PackSearch.warm``)."""
        copy = self.current()
        found = self._derived.get(name)
        if found is None or found[0] is not copy:
            started = time.perf_counter()
            found = (copy, build(copy))
            self._derived[name] = found
            kind = name.partition(":")[0]  # the key without its configuration
            log.info("built %s over %d entities in %.2f s", kind, len(copy.entities.ids), time.perf_counter() - started)
        return found[1]

    def _load(self) -> GraphCopy:
        started = time.perf_counter()
        type_names = self._vocabulary.types()
        links = self._graph.read("retrieval_links", types=type_names)
        copy = _copy(self._graph.read("retrieval_names"), links, type_names)
        log.info(
            "read the graph copy: %d entities, %d links in %.2f s",
            len(copy.entities.ids),
            len(copy.links.types),
            time.perf_counter() - started,
        )
        return copy

    def _patched(self, copy: GraphCopy, ids: Collection[str]) -> GraphCopy:
        type_names = self._vocabulary.types()
        if type_names != copy.links.type_names:
            return self._load()
        written = sorted(ids)
        links = self._graph.read("retrieval_links_of", ids=written, types=type_names)
        old = copy.entities
        touched = [old.index[i] for i in written if i in old.index]
        was_linked = np.isin(copy.links.sources, touched) | np.isin(copy.links.targets, touched)
        reread = {*written, *(row[end] for row in links for end in ("source", "target"))}
        reread.update(old.ids[row] for row in copy.links.sources[was_linked].tolist())
        reread.update(old.ids[row] for row in copy.links.targets[was_linked].tolist())
        # neighbours too: a removed entity may stay as a placeholder, a placeholder may be pruned or become real
        fresh = {row["id"]: row for row in self._graph.read("retrieval_names_of", ids=sorted(reread))}
        kept = [_names_row(old, row) for row, i in enumerate(old.ids) if i not in reread]
        rows = kept + [fresh[i] for i in sorted(fresh)]
        present = {row["id"] for row in rows}
        unchanged = [
            link
            for link in _link_rows(copy, np.flatnonzero(~was_linked))
            if link["source"] in present and link["target"] in present
        ]
        return _copy(rows, unchanged + links, type_names)


def _names_row(entities: Entities, row: int) -> dict[str, Any]:
    """Entity ``row`` of a copy, as ``retrieval_names`` returns it."""
    return {
        "id": entities.ids[row],
        "title": entities.titles[row],
        "aliases": entities.aliases[row],
        "pack": entities.packs[row],
        "kind": entities.kinds[row],
        "missing": bool(entities.missing[row]),
    }


def _link_rows(copy: GraphCopy, at: Iterable[int]) -> list[dict[str, str]]:
    """Links ``at`` of a copy, as ``retrieval_links`` returns them."""
    ids, links = copy.entities.ids, copy.links
    return [
        {"source": ids[links.sources[i]], "type": links.type_names[links.types[i]], "target": ids[links.targets[i]]}
        for i in at
    ]


def _copy(rows: list[dict[str, Any]], links: list[dict[str, Any]], type_names: list[str]) -> GraphCopy:
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
    type_index = {name: i for i, name in enumerate(type_names)}
    return GraphCopy(
        entities=entities,
        links=Links(
            sources=np.array([index[row["source"]] for row in links], dtype=np.int64),
            targets=np.array([index[row["target"]] for row in links], dtype=np.int64),
            types=np.array([type_index[row["type"]] for row in links], dtype=np.int64),
            type_names=type_names,
        ),
    )
