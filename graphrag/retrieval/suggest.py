"""An id given in another case is the one entity it names in any case; an unknown id answers ``not_found`` with
the known ids nearest to it (typos, a title given as id)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from graphrag.errors import InvalidArgument, NotFound, echo, name_list
from graphrag.names import fold, nearest_names
from graphrag.stores.graph import GraphStore


class Suggestions:
    """The known ids nearest to an unknown one, for a ``not_found`` that helps."""

    def __init__(self, graph: GraphStore, hidden: Iterable[str] = ()) -> None:
        self._graph = graph
        self._hidden = sorted(hidden)  # packs the caller may not see: never suggested

    def resolve(self, unknown: str) -> str:
        """The id of the one entity whose id is ``unknown`` in any case (``sm.mission.apollo11``); several such
        entities are ``invalid_argument`` naming them, none is ``not_found`` with the nearest ids."""
        rows = self._graph.read("retrieval_known_ids", hidden=self._hidden)
        wanted = fold(unknown)
        same = sorted(str(row["id"]) for row in rows if fold(row["id"]) == wanted)
        if len(same) == 1:
            return same[0]
        if same:
            raise InvalidArgument(f"the id {echo(unknown)!r} is ambiguous in case: it may be {name_list(same)}")
        raise self._nearest(unknown, rows)

    def not_found(self, unknown: str) -> NotFound:
        return self._nearest(unknown, self._graph.read("retrieval_known_ids", hidden=self._hidden))

    def _nearest(self, unknown: str, rows: list[dict[str, Any]]) -> NotFound:
        spellings = [(row["id"], row["id"]) for row in rows] + [(str(row["title"]), row["id"]) for row in rows]
        nearest = nearest_names(unknown, spellings)
        hint = f"; nearest known ids: {name_list(nearest)}" if nearest else "; no similar id is known"
        return NotFound(f"no entity has the id {echo(unknown)!r}{hint}")
