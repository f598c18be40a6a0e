"""The typed chain: the entities a question's relation steps lead to (``guidance``), in order.

``Which items are recommended by the dependencies of X?`` is two steps from X, ``depends`` forwards, then
``recommends`` forwards; the answer is where the second step ends, and the middle entities are how it
got there. Each seed's weight is shared among the links it leaves by (a hub passes a little to each),
and the candidates come chain by chain, depth first: a middle entity, then the ones it leads to, so the
first few hits hold whole chains. A step that leads nowhere from where the chain stands may first take
one untyped hop (``the rocket that launched Gagarin``: Gagarin flew a mission, the mission was launched).
"""

from __future__ import annotations

from collections.abc import Container

from graphrag.retrieval.candidates import Candidate, Evidence, Question, Starts
from graphrag.retrieval.config import WalkConfig
from graphrag.retrieval.registry import Registration, register
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.walk import Adjacency, Parent, hidden_rows, path_to, returnable

Moves = dict[int, float]


class RelationChain:
    """The ``chain`` retriever: nothing unless the question asks for typed steps and a start is known."""

    evidence: Evidence = "graph"

    def __init__(self, snapshot: GraphSnapshot, config: WalkConfig) -> None:
        self._snapshot = snapshot
        self._config = config

    def retrieve(self, question: Question, starts: Starts | None = None) -> list[Candidate]:
        copy = self._snapshot.current()
        index = copy.entities.index
        if starts is None or not starts.steps:
            return []
        seeds = {index[i]: w for i, w in starts.seeds.items() if i in index and w > 0}
        if not seeds:
            return []
        adjacency = Adjacency.current(self._snapshot, self._config)
        type_index = {name: i for i, name in enumerate(adjacency.type_names)}
        blocked = hidden_rows(copy, question)
        parents: dict[int, Parent] = {}
        mass: dict[int, float] = {}
        frontier: Moves = dict(seeds)
        bridged = False
        for steps in starts.steps:
            allowed = {(type_index[s.type], s.forward) for s in steps if s.type in type_index}
            reached = _step(adjacency, frontier, allowed, blocked, parents, seeds)
            if not reached and not bridged:
                bridged = True
                hop = _step(adjacency, frontier, None, blocked, parents, seeds)
                reached = _step(adjacency, hop, allowed, blocked, parents, seeds)
            if not reached:
                break
            for row, weight in reached.items():
                mass[row] = mass.get(row, 0.0) + weight
            frontier = reached
        children: dict[int, list[int]] = {}
        for row, (previous, _, _) in parents.items():
            children.setdefault(previous, []).append(row)
        order: list[int] = []
        seen = set(seeds)
        for seed in sorted(seeds, key=lambda r: -seeds[r]):
            _depth_first(seed, children, mass, order, seen)
        found = [row for row in order if row in mass and returnable(copy, question, row)]
        ids = copy.entities.ids
        return [Candidate(ids[row], mass[row], path_to(copy, parents, row)) for row in found[: question.limit]]


def _step(
    adjacency: Adjacency,
    frontier: Moves,
    allowed: set[tuple[int, bool]] | None,
    blocked: Container[int],
    parents: dict[int, Parent],
    seeds: Moves,
) -> Moves:
    """Where one step leads (``allowed`` None: any link), each entity's weight shared among its moves."""
    reached: Moves = {}
    for row, weight in frontier.items():
        moves = [
            (neighbour, rel_type, forward)
            for neighbour, rel_type, forward in zip(*adjacency.row(row), strict=True)
            if neighbour not in blocked and (allowed is None or (rel_type, forward) in allowed)
        ]
        for neighbour, rel_type, forward in moves:
            reached[neighbour] = reached.get(neighbour, 0.0) + weight / len(moves)
            if neighbour not in parents and neighbour not in seeds:
                parents[neighbour] = (row, rel_type, forward)
    return reached


def _depth_first(
    row: int, children: dict[int, list[int]], mass: dict[int, float], order: list[int], seen: set[int]
) -> None:
    for child in sorted(children.get(row, []), key=lambda r: -mass.get(r, 0.0)):
        if child in seen:
            continue
        seen.add(child)
        order.append(child)
        _depth_first(child, children, mass, order, seen)


MEANING = "The typed relation steps the question asks for, from the starts."
register(
    "chain",
    Registration(lambda sources, config: RelationChain(sources.snapshot, config.walk), MEANING, seeded=True),
)
