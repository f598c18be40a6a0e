"""Graphs built in memory as the retrievers see them (``GraphCopy``), for the fast tier: no store involved."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graphrag.retrieval.snapshot import Entities, GraphCopy, Links


@dataclass(frozen=True)
class E:
    """One entity row; ``missing`` makes it a placeholder (walked through, never returned)."""

    id: str
    title: str = ""
    aliases: tuple[str, ...] = ()
    pack: str = "demo"
    kind: str = "entity"
    missing: bool = False


def graph_copy(entities: Sequence[E], links: Sequence[tuple[str, str, str]] = ()) -> GraphCopy:
    """``links`` as ``(source id, RELATIONSHIP_TYPE, target id)``."""
    index = {e.id: row for row, e in enumerate(entities)}
    type_names = sorted({rel_type for _, rel_type, _ in links})
    type_index = {name: i for i, name in enumerate(type_names)}
    return GraphCopy(
        entities=Entities(
            ids=[e.id for e in entities],
            titles=[e.title for e in entities],
            aliases=[list(e.aliases) for e in entities],
            packs=[e.pack for e in entities],
            kinds=[e.kind for e in entities],
            missing=np.array([e.missing for e in entities], dtype=bool),
            index=index,
        ),
        links=Links(
            sources=np.array([index[s] for s, _, _ in links], dtype=np.int64),
            targets=np.array([index[t] for _, _, t in links], dtype=np.int64),
            types=np.array([type_index[r] for _, r, _ in links], dtype=np.int64),
            type_names=type_names,
        ),
    )


class HeldCopy:
    """A ``GraphSnapshot`` over a copy built in memory: what the retrievers and the search read of it (the
    copy, and the tables derived from it once), without a store."""

    def __init__(self, copy: GraphCopy) -> None:
        self._copy = copy
        self._derived: dict[str, Any] = {}

    def current(self) -> GraphCopy:
        return self._copy

    def derived(self, name: str, build: Callable[[GraphCopy], Any]) -> Any:
        if name not in self._derived:
            self._derived[name] = build(self._copy)
        return self._derived[name]
