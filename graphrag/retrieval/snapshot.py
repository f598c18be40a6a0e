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
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from graphrag.retrieval.refresh import MarkedCopy
from graphrag.retrieval.vocabulary import RelationVocabulary
from graphrag.stores.graph import GraphStore

Ints = npt.NDArray[np.int64]
Link = tuple[str, str, str]  # source id, relationship type, target id
NAME_FIELDS = (
    "id",
    "title",
    "aliases",
    "pack",
    "kind",
    "missing",
)  # retrieval_names_of's fields, retrieval_copy's columns
PAGE = 20_000  # entities per read of the copy: each page's lists stay small in Neo4j's memory and the driver's
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
        names: dict[str, list[Any]] = {field: [] for field in NAME_FIELDS}
        links: list[Link] = []
        after: str | None = ""
        while after is not None:
            (page,) = self._graph.read("retrieval_copy", after=after, size=PAGE, types=type_names)
            for field in NAME_FIELDS:
                names[field].extend(page[field])
            for source, types, targets in zip(page["id"], page["link_types"], page["link_targets"], strict=True):
                links.extend((source, type_, target) for type_, target in zip(types, targets, strict=True))
            after = page["id"][-1] if len(page["id"]) == PAGE else None  # a short page is the last
        copy = _copy(names, links, type_names)
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
            link for link in _links_at(copy, np.flatnonzero(~was_linked)) if link[0] in present and link[2] in present
        ]
        written_links = [(row["source"], row["type"], row["target"]) for row in links]
        return _copy(
            {field: [row[field] for row in rows] for field in NAME_FIELDS}, unchanged + written_links, type_names
        )


def _names_row(entities: Entities, row: int) -> dict[str, Any]:
    """Entity ``row`` of a copy, as ``retrieval_names_of`` returns it."""
    return {
        "id": entities.ids[row],
        "title": entities.titles[row],
        "aliases": entities.aliases[row],
        "pack": entities.packs[row],
        "kind": entities.kinds[row],
        "missing": bool(entities.missing[row]),
    }


def _links_at(copy: GraphCopy, at: Iterable[int]) -> list[Link]:
    """Links ``at`` of a copy, as (source id, relationship type, target id)."""
    ids, links = copy.entities.ids, copy.links
    return [(ids[links.sources[i]], links.type_names[links.types[i]], ids[links.targets[i]]) for i in at]


def _copy(names: Mapping[str, Sequence[Any]], links: Sequence[Link], type_names: list[str]) -> GraphCopy:
    """The copy of entities given as columns (``NAME_FIELDS``) and their links; a link to an entity the columns
    do not hold (written between two pages of a read) is left out, and the moved marker reads it next time."""
    ids = [str(i) for i in names["id"]]
    index = {entity_id: row for row, entity_id in enumerate(ids)}
    entities = Entities(
        ids=ids,
        titles=[str(title or "") for title in names["title"]],
        aliases=[[str(a) for a in aliases] for aliases in names["aliases"]],
        packs=[str(pack or "") for pack in names["pack"]],
        kinds=[str(kind or "") for kind in names["kind"]],
        missing=np.array([bool(m) for m in names["missing"]], dtype=bool),
        index=index,
    )
    type_index = {name: i for i, name in enumerate(type_names)}
    rows = np.array(
        [(index[s], type_index[t], index[b]) for s, t, b in links if s in index and b in index and t in type_index],
        dtype=np.int64,
    ).reshape(-1, 3)
    return GraphCopy(
        entities=entities,
        links=Links(
            sources=rows[:, 0].copy(),
            targets=rows[:, 2].copy(),
            types=rows[:, 1].copy(),
            type_names=type_names,
        ),
    )
