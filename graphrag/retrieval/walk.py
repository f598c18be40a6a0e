"""Graph expansion: a random walk with restart (personalised PageRank) from the seed entities, over the
typed links in both directions, within two hops of a seed.

A link's weight is how specific its relation type is, ``ln((N + 1) / touched)`` where ``touched`` counts
the entities the type links and ``N`` those any type links: a type that links almost everything (PEP
``mentions``) weighs little beside ``superseded_by``. A type the question names (``superseded`` for
``superseded_by``/``supersedes``) weighs ``NAMED_BOOST`` times more. All of it is computed from the
graph and the relation names, never from per-pack lists.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from graphrag.names import name_tokens, relation_of_type
from graphrag.retrieval.candidates import Candidate, Evidence, Query
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot

HOPS = 2
RESTART = 0.3  # the walk returns to a seed this often: most of the mass stays within two hops
ITERATIONS = 20
MIN_TYPE_WEIGHT = 0.05
NAMED_BOOST = 4.0
STEM = 5  # a question word names a relation when they share their first five letters (superseded ~ supersedes)
_LINKING_WORDS = frozenset({"by", "of", "to", "in", "on", "for", "from", "with", "has", "is"})

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Adjacency:
    """Links in both directions as CSR rows: neighbour, relationship type, walked forwards or not."""

    offsets: npt.NDArray[np.int64]
    neighbours: npt.NDArray[np.int64]
    types: npt.NDArray[np.int64]
    forward: npt.NDArray[np.bool_]
    type_weights: Floats
    type_stems: list[set[str]]

    @classmethod
    def of(cls, copy: GraphCopy) -> Adjacency:
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
        weights = np.full(len(links.type_names), MIN_TYPE_WEIGHT)
        for t in range(len(links.type_names)):
            of_type = links.types == t
            touched = len(np.unique(np.concatenate([links.sources[of_type], links.targets[of_type]])))
            if touched:
                weights[t] = max(MIN_TYPE_WEIGHT, math.log((linked + 1) / touched))
        stems = [
            {w[:STEM] for w in name_tokens(relation_of_type(name).replace("_", " ")) if w not in _LINKING_WORDS}
            for name in links.type_names
        ]
        return cls(offsets, neighbours, types, forward, weights, stems)

    def weights_for(self, question: str) -> Floats:
        """The type weights, raised for the types whose names the question uses."""
        words = {w[:STEM] for w in name_tokens(question) if len(w) >= STEM}
        boost = np.array([NAMED_BOOST if stems & words else 1.0 for stems in self.type_stems])
        return self.type_weights * boost if len(boost) else self.type_weights


class GraphWalk:
    """The ``graph`` retriever: entities the walk from ``query.seeds`` reaches most, with the path that
    brought it there; seeds themselves are left to the retrievers that found them."""

    evidence: Evidence = "graph"

    def __init__(self, snapshot: GraphSnapshot) -> None:
        self._snapshot = snapshot

    def retrieve(self, query: Query) -> list[Candidate]:
        copy = self._snapshot.current()
        adjacency: Adjacency = self._snapshot.derived("adjacency", Adjacency.of)
        index = copy.entities.index
        seeds = {index[i]: w for i, w in query.seeds.items() if i in index}
        if not seeds:
            return []
        weights = adjacency.weights_for(query.text)
        blocked = (
            {row for row, pack in enumerate(copy.entities.packs) if pack in query.hidden} if query.hidden else set()
        )
        nodes, parents = _neighbourhood(adjacency, seeds, weights, blocked)
        scores = _personalised_pagerank(adjacency, nodes, seeds, weights)
        entities = copy.entities
        ranked = sorted(
            (
                (score, row)
                for row, score in zip(nodes, scores, strict=True)
                if row not in seeds
                and score > 0
                and not entities.missing[row]
                and (query.packs is None or entities.packs[row] in query.packs)
                and (query.kinds is None or entities.kinds[row] in query.kinds)
            ),
            key=lambda item: (-item[0], entities.ids[item[1]]),
        )
        return [
            Candidate(entities.ids[row], float(score), _path(copy, parents, row))
            for score, row in ranked[: query.limit]
        ]


Parent = tuple[int, int, bool]  # (previous row, relationship type, walked forwards)


def _neighbourhood(
    adjacency: Adjacency, seeds: dict[int, float], weights: Floats, blocked: set[int]
) -> tuple[list[int], dict[int, Parent]]:
    """Rows within ``HOPS`` of a seed, seeds first, and for each the hop that reached it by its most
    specific relation (the ``via`` of a graph hit); ``blocked`` rows are never entered."""
    order = list(seeds)
    parents: dict[int, Parent] = {}
    frontier = list(seeds)
    for _ in range(HOPS):
        best: dict[int, tuple[float, Parent]] = {}
        for row in frontier:
            start, end = adjacency.offsets[row], adjacency.offsets[row + 1]
            for neighbour, rel_type, forward in zip(
                adjacency.neighbours[start:end].tolist(),
                adjacency.types[start:end].tolist(),
                adjacency.forward[start:end].tolist(),
                strict=True,
            ):
                if neighbour in seeds or neighbour in parents or neighbour in blocked:
                    continue
                weight = float(weights[rel_type])
                if neighbour not in best or weight > best[neighbour][0]:
                    best[neighbour] = (weight, (row, rel_type, forward))
        for neighbour, (_, parent) in best.items():
            parents[neighbour] = parent
        frontier = list(best)
        order += frontier
    return order, parents


def _personalised_pagerank(adjacency: Adjacency, nodes: list[int], seeds: dict[int, float], weights: Floats) -> Floats:
    """Visit probabilities of a walk that follows weighted links among ``nodes`` and restarts at a seed."""
    position = {row: i for i, row in enumerate(nodes)}
    sources: list[int] = []
    targets: list[int] = []
    edge_types: list[int] = []
    for row in nodes:
        start, end = adjacency.offsets[row], adjacency.offsets[row + 1]
        for neighbour, rel_type in zip(
            adjacency.neighbours[start:end].tolist(), adjacency.types[start:end].tolist(), strict=True
        ):
            target = position.get(neighbour)
            if target is not None:
                sources.append(position[row])
                targets.append(target)
                edge_types.append(rel_type)
    count = len(nodes)
    restart = np.zeros(count)
    for row, weight in seeds.items():
        restart[position[row]] = weight
    restart /= restart.sum()
    if not sources:
        return restart
    src = np.array(sources)
    dst = np.array(targets)
    edge_weight = weights[np.array(edge_types)]
    out_weight = np.bincount(src, weights=edge_weight, minlength=count)
    step = edge_weight / out_weight[src]
    visits = restart.copy()
    for _ in range(ITERATIONS):
        moved = np.bincount(dst, weights=visits[src] * step, minlength=count)
        stranded = visits[out_weight == 0].sum()  # a dead end restarts the walk
        visits = RESTART * restart + (1 - RESTART) * (moved + stranded * restart)
    return visits


def _path(copy: GraphCopy, parents: dict[int, Parent], row: int) -> list[str]:
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
