"""Retrievers by name: every ranked list a search configuration may name, and how hybrid search treats it.

A retriever is a class in a module of its own that registers itself under a name (``register``); the
configuration names the ones that run and what each weighs (``SearchConfig.retrievers``), and nothing
else in search knows them by name. The built-in ones are found by their module and imported when first
asked for, as the built-in embedders are, so validating a configuration imports no retriever. A test or a
library registers its own the same way, before a configuration names it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from graphrag.errors import InvalidArgument, name_list

if TYPE_CHECKING:
    from graphrag.embedding import Embedder
    from graphrag.retrieval.candidates import Retriever
    from graphrag.retrieval.config import SearchConfig
    from graphrag.retrieval.snapshot import GraphSnapshot
    from graphrag.retrieval.vector_index import VectorIndex
    from graphrag.stores.graph import GraphStore

# How the share of the question that full text can read (its script against the packs') weighs a list:
# ``reads`` scales by it, ``gains`` gains what it loses (``fusion.vector_gain``), ``none`` ignores it.
Script = Literal["reads", "gains", "none"]


@dataclass(frozen=True)
class Sources:
    """What a retriever is built from: the stores and the in-memory graph copy."""

    graph: GraphStore
    embedder: Embedder
    index: VectorIndex
    snapshot: GraphSnapshot


@dataclass(frozen=True)
class Registration:
    build: Callable[[Sources, SearchConfig], Retriever]
    meaning: str  # one line, for the configuration's table in docs/retrieval.md
    seeded: bool = False  # it walks from the starts the other lists found, so it runs after them
    script: Script = "none"


BUILT_IN: dict[str, str] = {
    "text": "graphrag.retrieval.lexical",
    "vector": "graphrag.retrieval.vector",
    "walk": "graphrag.retrieval.walk",
    "chain": "graphrag.retrieval.chain",
}
_REGISTERED: dict[str, Registration] = {}


def register(name: str, entry: Registration) -> None:
    """Make ``name`` a retriever a configuration may name (a second registration replaces the first)."""
    _REGISTERED[name] = entry


def names() -> list[str]:
    return sorted(BUILT_IN.keys() | _REGISTERED.keys())


def unknown(name: str) -> str | None:
    """Why ``name`` names no retriever (None: it does)."""
    if name in BUILT_IN or name in _REGISTERED:
        return None
    return f"unknown retriever {name!r}; known: {name_list(names())}"


def registration(name: str) -> Registration:
    """The retriever registered as ``name``; a built-in one's module is imported now, and registers it."""
    if (why := unknown(name)) is not None:
        raise InvalidArgument(why)
    if name not in _REGISTERED:
        importlib.import_module(BUILT_IN[name])
    return _REGISTERED[name]
