"""An unknown id answers ``not_found`` with the known ids nearest to it (typos, a title given as id)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from graphrag.errors import NotFound, echo, name_list
from graphrag.names import fold
from graphrag.stores.graph import GraphStore


class Suggestions:
    """The known ids nearest to an unknown one, for a ``not_found`` that helps."""

    def __init__(self, graph: GraphStore, hidden: Iterable[str] = ()) -> None:
        self._graph = graph
        self._hidden = sorted(hidden)  # packs the caller may not see: never suggested

    def not_found(self, unknown: str) -> NotFound:
        rows = self._graph.read("graph_known_ids", hidden=self._hidden)
        wanted = fold(unknown)
        by_text: dict[str, str] = {}
        for row in rows:
            by_text.setdefault(fold(row["id"]), row["id"])
            by_text.setdefault(fold(str(row["title"])), row["id"])
        containing = [i for text, i in by_text.items() if wanted in text]
        close = [by_text[t] for t in difflib.get_close_matches(wanted, list(by_text), n=5, cutoff=0.5)]
        nearest = list(dict.fromkeys(close + containing))[:5]
        hint = f"; nearest known ids: {name_list(nearest)}" if nearest else "; no similar id is known"
        return NotFound(f"no entity has the id {echo(unknown)!r}{hint}")
