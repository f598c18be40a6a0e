"""Embedders turn summaries into vectors; any object with this shape can be plugged in.

``GRAPHRAG_EMBEDDER`` names a built-in model, or ``package.module:factory`` for your own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from graphrag.errors import InvalidArgument
from graphrag.plugins import plugged

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """``id`` names the model and its settings exactly: vectors of two ids are never mixed."""

    id: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One L2-normalised row per text."""
        ...


def _use(denoise: bool) -> Callable[[], Embedder]:
    def factory() -> Embedder:
        from graphrag.embedding.use import UniversalSentenceEncoder

        return UniversalSentenceEncoder(denoise=denoise)

    return factory


BUILT_IN: dict[str, Callable[[], Embedder]] = {
    "use-multilingual-v3": _use(denoise=False),
    "use-multilingual-v3-denoise": _use(denoise=True),
}


def load_embedder(name: str) -> Embedder:
    if name in BUILT_IN:
        return BUILT_IN[name]()
    if ":" in name:
        embedder = plugged("GRAPHRAG_EMBEDDER", name)
        if not isinstance(embedder, Embedder):
            raise InvalidArgument(f"GRAPHRAG_EMBEDDER={name!r} did not give an embedder (id, dimension, embed)")
        return embedder
    known = ", ".join(sorted(BUILT_IN))
    raise InvalidArgument(f"unknown GRAPHRAG_EMBEDDER {name!r}; built-in: {known}, or package.module:factory")
