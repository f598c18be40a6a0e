"""``pack_graph``: neighbourhoods, shortest typed paths and ordered relation paths over typed links.

Hop bounds must be literals in Cypher, so the neighbourhood and shortest-path files are written
for depth 2 (``{1,2}``, pasteable as they are) and the depth, clamped to 1..4, replaces that one
literal. A hop may walk a relationship type forwards or backwards; which types go which way is
decided here from the vocabulary and the direction, and passed to Cypher as two lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from graphrag.errors import InvalidArgument
from graphrag.names import relation_of_type
from graphrag.retrieval.models import GraphEdge, GraphNode, GraphResult
from graphrag.retrieval.suggest import Suggestions
from graphrag.retrieval.vocabulary import RelationVocabulary, Step
from graphrag.stores.cypher import CypherFile, query
from graphrag.stores.graph import GraphStore

MAX_DEPTH = 4
DEAD_END_SHOWN = 50  # the entities whose leaving steps a dead end names
MAX_FRONTIER = 5_000  # a relation path goes on from at most this many entities per hop (the rest: truncated)
_HOPS = "{1,2}"
Direction = Literal["out", "in", "both"]


def with_depth(name: str, depth: int) -> CypherFile:
    """The query ``name`` with its single ``{1,2}`` hop bound set to ``depth`` (a validated literal)."""
    cypher = query(name)
    if not 1 <= depth <= MAX_DEPTH or cypher.body.count(_HOPS) != 1:
        raise ValueError(f"{name}: cannot set the hop bound to {depth!r}")
    return replace(cypher, body=cypher.body.replace(_HOPS, f"{{1,{depth}}}"))


@dataclass(frozen=True)
class Walk:
    """Which relationship types a hop may follow forwards and which backwards."""

    forward: list[str]
    backward: list[str]

    @property
    def types(self) -> list[str]:
        return sorted({*self.forward, *self.backward})

    @classmethod
    def of(cls, steps: Sequence[Step], direction: Direction) -> Walk:
        ahead = sorted({s.type for s in steps if s.forward})
        behind = sorted({s.type for s in steps if not s.forward})
        if direction == "out":
            return cls(ahead, behind)
        if direction == "in":
            return cls(behind, ahead)
        both = sorted({*ahead, *behind})
        return cls(both, both)


class Neighbourhood:
    """Every entity within ``depth`` hops, nearest first (by id within a depth), cut at ``limit``, and the
    links among them. Walked hop by hop from the entities kept, so the work is bounded by what may be
    returned: a hub's 50,000 neighbours are one hop read once, and the walk stops where the limit falls."""

    def __init__(self, graph: GraphStore, hidden: list[str]) -> None:
        self._graph = graph
        self._hidden = hidden

    def around(self, entity_id: str, depth: int, walk: Walk, limit: int) -> GraphResult | None:
        """None when no entity has that id (the caller resolved it before: the start is read with the rest)."""
        depths = {entity_id: 0}
        frontier, omitted = [entity_id], 0
        for hop in range(1, depth + 1):
            room = limit - (len(depths) - 1)
            row = self._graph.read(
                "retrieval_frontier",
                ids=frontier,
                seen=list(depths),
                forward=walk.forward,
                backward=walk.backward,
                cap=room,
                hidden=self._hidden,
            )[0]
            frontier = row["ids"]
            depths.update(dict.fromkeys(frontier, hop))
            omitted = row["reachable"] - len(frontier)
            if omitted > 0 or not frontier:
                break
        kept = list(depths)
        rows = {r["id"]: r for r in self._graph.read("retrieval_nodes", ids=kept, hidden=self._hidden)}
        if entity_id not in rows:
            return None
        links = self._graph.read("retrieval_links_among", ids=kept, types=walk.types)
        return GraphResult(
            nodes=[GraphNode(**rows[i], depth=d) for i, d in depths.items() if i in rows],
            edges=[_edge(link) for link in links],
            truncated=omitted > 0,
            omitted=omitted,
        )


class ShortestPaths:
    """The shortest typed paths between two entities, up to ``depth`` hops."""

    def __init__(self, graph: GraphStore, suggestions: Suggestions, hidden: list[str]) -> None:
        self._graph = graph
        self._suggestions = suggestions
        self._hidden = hidden

    def between(self, source: str, target: str, depth: int, walk: Walk, limit: int) -> list[list[str]]:
        rows = self._graph.read_cypher(
            with_depth("retrieval_shortest", depth),
            id=source,
            to=target,
            forward=walk.forward,
            backward=walk.backward,
            limit=limit,
            hidden=self._hidden,
        )
        if not rows:
            raise self._suggestions.not_found(source)
        if not rows[0]["target_found"]:
            raise self._suggestions.not_found(target)
        return sorted(
            _spelled(path["ids"], [Step(h["type"], h["forward"]) for h in path["hops"]]) for path in rows[0]["paths"]
        )


class RelationPath:
    """The entities reached by following relations in a given order, and the paths that reach them."""

    def __init__(self, graph: GraphStore, hidden: list[str]) -> None:
        self._graph = graph
        self._hidden = hidden

    def follow(self, start: str, hops: Sequence[Sequence[Step]], limit: int, to: str | None = None) -> GraphResult:
        """``hops``: each hop's steps, any of which it may take (a name two packs declare differently)."""
        frontier: dict[str, list[list[str]]] = {start: [[start]]}
        edges: dict[tuple[str, str, str], GraphEdge] = {}
        cut = False
        hint = ""
        for number, hop in enumerate(hops, 1):
            reached: dict[str, list[list[str]]] = {}
            for step in hop:
                rows = self._graph.read(
                    "retrieval_step", ids=list(frontier), type=step.type, forward=step.forward, hidden=self._hidden
                )
                for row in rows:
                    paths = reached.setdefault(row["target"], [])
                    for path in frontier[row["source"]]:
                        if len(paths) >= limit:
                            cut = True
                            break
                        paths.append([*path, step.label, row["target"]])
                    source, target = (row["source"], row["target"]) if step.forward else (row["target"], row["source"])
                    edges[(source, step.type, target)] = GraphEdge(
                        source=source, relation=relation_of_type(step.type), target=target, weight=row["weight"]
                    )
            if len(reached) > MAX_FRONTIER:
                cut = True
                reached = dict(sorted(reached.items())[:MAX_FRONTIER])
            if not reached:
                hint = self._dead_end(sorted(frontier), hop, number, len(hops))
            frontier = reached
        ends = sorted(e for e in frontier if to is None or e == to)
        every = [path for end in ends for path in frontier[end]]
        cut = cut or len(every) > limit
        paths = every[:limit]
        depth: dict[str, int] = {start: 0}
        for path in paths:
            for distance, entity in enumerate(path[::2]):
                depth.setdefault(entity, distance)
        found = self._graph.read("retrieval_nodes", ids=sorted({*depth, *ends}), hidden=self._hidden)
        nodes = {row["id"]: row for row in found}
        placeholders = {i for i in ends if i in nodes and nodes[i]["missing"]}
        return GraphResult(
            nodes=[
                GraphNode(**nodes[i], depth=d)
                for i, d in sorted(depth.items(), key=lambda x: (x[1], x[0]))
                if i in nodes
            ],
            edges=[e for key, e in sorted(edges.items()) if _on_paths(e, paths)],
            truncated=cut,
            omitted=0,
            paths=paths,
            reached=[e for e in ends if e not in placeholders],
            reached_missing=[e for e in ends if e in placeholders],
            hint=hint,
        )

    def _dead_end(self, ids: list[str], hop: Sequence[Step], number: int, hops: int) -> str:
        """Why a path reached nothing: the step no link takes from where it stood, and the steps that do."""
        rows = self._graph.read("retrieval_steps_from", ids=ids[:DEAD_END_SHOWN], hidden=self._hidden, cap=40)
        leaving = [Step(row["type"], row["forward"]).label for row in rows]
        where = ids[0] if len(ids) == 1 else f"any of the {len(ids)} entities reached before it"
        return (
            f"nothing is reached: no {' or '.join(sorted({s.label for s in hop}))} link leaves {where} "
            f"(step {number} of {hops}); "
            + (f"the relations that do: {', '.join(leaving)}" if leaving else "no link leaves it at all")
            + " (a name with ^ is walked backwards)"
        )


class PackGraph:
    """The one entry point of ``pack_graph``: validates names and picks the question asked; entities of
    ``hidden`` packs (team sources the caller may not read) are neither shown nor walked through."""

    def __init__(self, graph: GraphStore, vocabulary: RelationVocabulary, hidden: Iterable[str] = ()) -> None:
        self._graph = graph
        self._vocabulary = vocabulary
        self._hidden = sorted(hidden)
        self._suggestions = Suggestions(graph, self._hidden)

    def explore(
        self,
        entity_id: str,
        depth: int,
        relations: Sequence[str] | None,
        direction: Direction,
        limit: int,
        to: str | None,
        path: Sequence[str] | None,
    ) -> GraphResult:
        if path is not None:
            if not path:
                raise InvalidArgument("path is empty: give relation names in order, e.g. ['part_of', 'led_by']")
            if len(path) > MAX_DEPTH:
                raise InvalidArgument(f"path has {len(path)} relations; at most {MAX_DEPTH}")
            steps = [self._vocabulary.resolve(name, self._hidden) for name in path]  # each hop: a name's every meaning
        if relations is not None and not relations:
            raise InvalidArgument("relations is empty: leave it out to follow every relation")
        entity_id = self._existing(entity_id)
        to = self._existing(to) if to is not None else None
        if path is not None:
            return RelationPath(self._graph, self._hidden).follow(entity_id, steps, limit, to)
        chosen = (
            [s for name in relations for s in self._vocabulary.resolve(name, self._hidden)]
            if relations is not None
            else None
        )
        walk = Walk.of(chosen if chosen is not None else [Step(t, True) for t in self._vocabulary.types()], direction)
        result = Neighbourhood(self._graph, self._hidden).around(entity_id, depth, walk, limit)
        if result is None:
            raise self._suggestions.not_found(entity_id)
        if to is not None:
            shortest = ShortestPaths(self._graph, self._suggestions, self._hidden)
            result.paths = shortest.between(entity_id, to, depth, walk, limit)
        return result

    def _existing(self, entity_id: str) -> str:
        """``entity_id``, or the one entity it names in another case (else ``not_found`` with the nearest)."""
        if self._graph.read("retrieval_nodes", ids=[entity_id], hidden=self._hidden):
            return entity_id
        return self._suggestions.resolve(entity_id)


def _edge(row: dict[str, Any]) -> GraphEdge:
    return GraphEdge(
        source=row["source"], relation=relation_of_type(row["type"]), target=row["target"], weight=row["weight"]
    )


def _spelled(ids: list[str], steps: list[Step]) -> list[str]:
    """Alternating entity ids and relation names: ``[A, part_of, B, ^led_by, C]``."""
    out = [ids[0]]
    for step, entity in zip(steps, ids[1:], strict=True):
        out += [step.label, entity]
    return out


def _on_paths(edge: GraphEdge, paths: list[list[str]]) -> bool:
    return any(
        {edge.source, edge.target} == {path[i - 1], path[i + 1]} and path[i].lstrip("^") == edge.relation
        for path in paths
        for i in range(1, len(path), 2)
    )
