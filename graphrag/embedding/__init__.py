"""Embedders turn summaries into vectors; any object with this shape can be plugged in.

``GRAPHRAG_EMBEDDER`` names a built-in model, or ``package.module:factory`` for your own.
"""

from __future__ import annotations

from collections.abc import Sequence
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


# name -> its factory, imported only when chosen (the model's package is heavy)
BUILT_IN: dict[str, str] = {
    "use-multilingual-v3": "graphrag.embedding.use:plain",
    "use-multilingual-v3-denoise": "graphrag.embedding.use:denoised",
}


def load_embedder(name: str) -> Embedder:
    if name in BUILT_IN or ":" in name:
        embedder = plugged("GRAPHRAG_EMBEDDER", BUILT_IN.get(name, name))
        if not isinstance(embedder, Embedder):
            raise InvalidArgument(f"GRAPHRAG_EMBEDDER={name!r} did not give an embedder (id, dimension, embed)")
        return embedder
    known = ", ".join(sorted(BUILT_IN))
    raise InvalidArgument(f"unknown GRAPHRAG_EMBEDDER {name!r}; built-in: {known}, or package.module:factory")
