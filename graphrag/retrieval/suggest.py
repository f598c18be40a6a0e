"""An unknown id answers ``not_found`` with the known ids nearest to it (typos, a title given as id)."""

from __future__ import annotations

from collections.abc import Iterable

from graphrag.errors import NotFound, echo, name_list
from graphrag.names import nearest_names
from graphrag.stores.graph import GraphStore


class Suggestions:
    """The known ids nearest to an unknown one, for a ``not_found`` that helps."""

    def __init__(self, graph: GraphStore, hidden: Iterable[str] = ()) -> None:
        self._graph = graph
        self._hidden = sorted(hidden)  # packs the caller may not see: never suggested

    def not_found(self, unknown: str) -> NotFound:
        rows = self._graph.read("graph_known_ids", hidden=self._hidden)
        spellings = [(row["id"], row["id"]) for row in rows] + [(str(row["title"]), row["id"]) for row in rows]
        nearest = nearest_names(unknown, spellings)
        hint = f"; nearest known ids: {name_list(nearest)}" if nearest else "; no similar id is known"
        return NotFound(f"no entity has the id {echo(unknown)!r}{hint}")
