"""Graph expansion: a random walk with restart (personalised PageRank) from the seed entities, over the
typed links in both directions, within ``hops`` of a seed.

A link's weight is how specific its relation type is, ``ln((N + 1) / touched)`` where ``touched`` counts
the entities the type links and ``N`` those any type links: a type that links almost everything (PEP
``mentions``) weighs little beside ``superseded_by``. A type the question asks for, in the direction it
asks for (``guidance``), weighs ``guided_boost`` times more; a step into an entity of degree ``d`` weighs
``d^-degree_damping``, so a hub passes on what it receives instead of flooding its neighbourhood. All of
it is computed from the graph and the question, never from per-pack lists.
"""

from __future__ import annotations

import math
from collections.abc import Container
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphrag.names import relation_of_type
from graphrag.retrieval.candidates import Candidate, Evidence, Question, Starts
from graphrag.retrieval.config import WalkConfig
from graphrag.retrieval.registry import Registration, register
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot
from graphrag.retrieval.vocabulary import Step

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Adjacency:
    """Links in both directions as CSR rows: neighbour, relationship type, walked forwards or not."""

    offsets: npt.NDArray[np.int64]
    neighbours: npt.NDArray[np.int64]
    types: npt.NDArray[np.int64]
    forward: npt.NDArray[np.bool_]
    type_weights: Floats
    type_names: list[str]

    @classmethod
    def of(cls, copy: GraphCopy, min_type_weight: float) -> Adjacency:
        links = copy.links
        count = len(copy.entities.ids)
        sources = np.concatenate([links.sources, links.targets])
        order = np.argsort(sources, kind="stable")
        neighbours = np.concatenate([links.targets, links.sources])[order]
        types = np.concatenate([links.types, links.types])[order]
        forward = np.concatenate([np.ones(len(links.types), bool), np.zeros(len(links.types), bool)])[order]
        offsets = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(np.bincount(sources, minlength=count), out=offsets[1:])
        linked = len(np.unique(np.concatenate([links.sources, links.targets])))
        weights = np.full(len(links.type_names), min_type_weight)
        for t in range(len(links.type_names)):
            of_type = links.types == t
            touched = len(np.unique(np.concatenate([links.sources[of_type], links.targets[of_type]])))
            if touched:
                weights[t] = max(min_type_weight, math.log((linked + 1) / touched))
        return cls(offsets, neighbours, types, forward, weights, links.type_names)

    @staticmethod
    def current(snapshot: GraphSnapshot, config: WalkConfig) -> Adjacency:
        floor = config.min_type_weight
        adjacency: Adjacency = snapshot.derived(f"adjacency:{floor}", lambda copy: Adjacency.of(copy, floor))
        return adjacency

    def degree(self, row: int) -> int:
        return int(self.offsets[row + 1] - self.offsets[row])

    def row(self, row: int) -> tuple[list[int], list[int], list[bool]]:
        start, end = self.offsets[row], self.offsets[row + 1]
        return (
            self.neighbours[start:end].tolist(),
            self.types[start:end].tolist(),
            self.forward[start:end].tolist(),
        )

    def guided(self, steps: tuple[frozenset[Step], ...]) -> set[tuple[int, bool]]:
        """(type row, walked forwards) of every step the question asks for."""
        index = {name: i for i, name in enumerate(self.type_names)}
        return {(index[s.type], s.forward) for hop in steps for s in hop if s.type in index}


class GraphWalk:
    """The ``walk`` retriever: entities the walk from ``starts.seeds`` reaches most, with the path that
    brought it there; seeds themselves are left to the retrievers that found them."""

    evidence: Evidence = "graph"

    def __init__(self, snapshot: GraphSnapshot, config: WalkConfig) -> None:
        self._snapshot = snapshot
        self._config = config

    def warm(self) -> None:
        Adjacency.current(self._snapshot, self._config)

    def retrieve(self, question: Question, starts: Starts | None = None) -> list[Candidate]:
        copy = self._snapshot.current()
        adjacency = Adjacency.current(self._snapshot, self._config)
        index = copy.entities.index
        if starts is None:
            return []
        seeds = {index[i]: w for i, w in starts.seeds.items() if i in index and w > 0}
        if not seeds:
            return []
        blocked = hidden_rows(copy, question)
        guided = adjacency.guided(starts.steps)
        nodes, parents = _neighbourhood(adjacency, seeds, guided, blocked, self._config)
        scores = _personalised_pagerank(adjacency, nodes, seeds, guided, self._config)
        ranked: list[tuple[float, int]] = []
        for at in np.argsort(-scores, kind="stable"):  # best first, until the limit's last score is passed
            score, row = float(scores[at]), nodes[at]
            if score <= 0 or (len(ranked) >= question.limit and score < ranked[-1][0]):
                break
            if row not in seeds and returnable(copy, question, row):
                ranked.append((score, row))
        ranked.sort(key=lambda item: (-item[0], copy.entities.ids[item[1]]))
        return [
            Candidate(copy.entities.ids[row], score, path_to(copy, parents, row))
            for score, row in ranked[: question.limit]
        ]


Parent = tuple[int, int, bool]  # (previous row, relationship type, walked forwards)


def returnable(copy: GraphCopy, question: Question, row: int) -> bool:
    """A real entity within the query's packs and kinds (placeholders are walked through, never returned)."""
    entities = copy.entities
    return (
        not entities.missing[row]
        and (question.packs is None or entities.packs[row] in question.packs)
        and (question.kinds is None or entities.kinds[row] in question.kinds)
    )


@dataclass(frozen=True)
class HiddenRows:
    """Rows of packs the caller may not see: never entered. Asked row by row as a walk meets them; listing
    them would cost a pass over every entity per call (a million at the scale the service is built for)."""

    packs: list[str]
    hidden: frozenset[str]

    def __contains__(self, row: object) -> bool:
        return bool(self.hidden) and isinstance(row, int) and self.packs[row] in self.hidden


def hidden_rows(copy: GraphCopy, question: Question) -> HiddenRows:
    return HiddenRows(copy.entities.packs, question.hidden)


def step_weight(
    adjacency: Adjacency, rel_type: int, forward: bool, guided: set[tuple[int, bool]], boost: float
) -> float:
    weight = float(adjacency.type_weights[rel_type])
    return weight * boost if (rel_type, forward) in guided else weight


def _neighbourhood(
    adjacency: Adjacency,
    seeds: dict[int, float],
    guided: set[tuple[int, bool]],
    blocked: Container[int],
    config: WalkConfig,
) -> tuple[list[int], dict[int, Parent]]:
    """Rows within ``hops`` of a seed, seeds first, and for each the hop that reached it by its most
    weighty relation (the ``via`` of a graph hit); ``blocked`` rows are never entered."""
    order = list(seeds)
    parents: dict[int, Parent] = {}
    frontier = list(seeds)
    for _ in range(config.hops):
        best: dict[int, tuple[float, Parent]] = {}
        for row in frontier:
            for neighbour, rel_type, forward in zip(*adjacency.row(row), strict=True):
                if neighbour in seeds or neighbour in parents or neighbour in blocked:
                    continue
                weight = step_weight(adjacency, rel_type, forward, guided, config.guided_boost)
                if neighbour not in best or weight > best[neighbour][0]:
                    best[neighbour] = (weight, (row, rel_type, forward))
        for neighbour, (_, parent) in best.items():
            parents[neighbour] = parent
        frontier = list(best)
        order += frontier
    return order, parents


def _personalised_pagerank(
    adjacency: Adjacency, nodes: list[int], seeds: dict[int, float], guided: set[tuple[int, bool]], config: WalkConfig
) -> Floats:
    """Visit probabilities of a walk that follows weighted links among ``nodes`` and restarts at a seed.
    The links among them are gathered as arrays: a neighbourhood of a hub holds thousands of rows. Nothing here
    is as long as the graph: a million entities cost what a thousand do."""
    rows = np.array(nodes, dtype=np.int64)
    starts = adjacency.offsets[rows]
    lengths = adjacency.offsets[rows + 1] - starts
    edges = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(int(lengths.sum()))
    src = np.repeat(np.arange(len(rows)), lengths)
    dst = _positions(rows, adjacency.neighbours[edges])
    inside = dst >= 0
    src, dst, edges = src[inside], dst[inside], edges[inside]
    types, forward = adjacency.types[edges], adjacency.forward[edges]
    boost = np.ones((len(adjacency.type_names), 2))
    for rel_type, walked_forward in guided:
        boost[rel_type, int(walked_forward)] = config.guided_boost
    reached = adjacency.neighbours[edges]
    degrees = adjacency.offsets[reached + 1] - adjacency.offsets[reached]
    damping = degrees.astype(np.float64) ** -config.degree_damping
    edge_weight = adjacency.type_weights[types] * boost[types, forward.astype(np.int64)] * damping
    count = len(nodes)
    restart = np.zeros(count)
    for at, weight in zip(_positions(rows, np.fromiter(seeds, np.int64)).tolist(), seeds.values(), strict=True):
        restart[at] = weight
    restart /= restart.sum()
    if not len(src):
        return restart
    out_weight = np.bincount(src, weights=edge_weight, minlength=count)
    step = edge_weight / out_weight[src]
    visits = restart.copy()
    for _ in range(config.iterations):
        moved = np.bincount(dst, weights=visits[src] * step, minlength=count)
        stranded = visits[out_weight == 0].sum()  # a dead end restarts the walk
        visits = config.restart * restart + (1 - config.restart) * (moved + stranded * restart)
    return visits


def _positions(rows: npt.NDArray[np.int64], wanted: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Where each of ``wanted`` stands in ``rows`` (-1: not there), by sorting ``rows`` rather than by an array
    over the whole graph."""
    order = np.argsort(rows, kind="stable")
    ordered = rows[order]
    at = np.searchsorted(ordered, wanted).clip(max=len(rows) - 1)
    return np.where(ordered[at] == wanted, order[at], -1)


def path_to(copy: GraphCopy, parents: dict[int, Parent], row: int) -> list[str]:
    """``[seed, relation, ..., id]`` as ``pack_graph`` writes paths (``^relation`` walked backwards)."""
    ids = copy.entities.ids
    names = copy.links.type_names
    path = [ids[row]]
    while row in parents:
        previous, rel_type, forward = parents[row]
        name = relation_of_type(names[rel_type])
        path = [ids[previous], name if forward else f"^{name}", *path]
        row = previous
    return path


MEANING = "A random walk with restart from the starts, typed and degree-damped."
register(
    "walk",
    Registration(lambda sources, config: GraphWalk(sources.snapshot, config.walk), MEANING, seeded=True),
)
