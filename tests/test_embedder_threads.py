"""The built-in model computes on one BLAS thread: on shared cores a second one waits for the first (see
``graphrag.embedding.use.BLAS_THREADS``). Without threadpoolctl the model's thread setting is silently ignored,
so this watches the process's BLAS while the model embeds."""

from __future__ import annotations

import threading

from threadpoolctl import threadpool_info

from graphrag.embedding import Embedder


def _blas_threads() -> set[int]:
    return {int(lib["num_threads"]) for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_the_model_embeds_on_one_blas_thread(embedder: Embedder) -> None:
    embedder.embed(["warm-up"])
    seen: set[int] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.update(_blas_threads())

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for _ in range(20):
            embedder.embed([f"summary {n} of a pack entity about graphs, vectors and agents" for n in range(300)])
            if 1 in seen:
                break
    finally:
        done.set()
        watcher.join()
    assert 1 in seen, f"BLAS ran on {sorted(seen)} threads while the model embedded"
