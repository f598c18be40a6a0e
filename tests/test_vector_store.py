"""Embedded Qdrant's one-client-per-folder lock: a short hold is waited out, a long one is named."""

from __future__ import annotations

import threading
import time

import pytest

from graphrag.config import Settings
from graphrag.errors import StoreUnavailable
from graphrag.stores.vectors import LOCK_WAIT_SECONDS, VectorStore


def test_a_briefly_held_folder_is_waited_for(settings: Settings) -> None:
    holder = VectorStore.open(settings)
    threading.Timer(0.5, holder.close).start()

    with VectorStore.open(settings) as second:
        assert second.where == str(settings.qdrant_path)


def test_a_held_folder_is_named_with_what_to_do(settings: Settings) -> None:
    with VectorStore.open(settings):
        started = time.monotonic()
        with pytest.raises(StoreUnavailable) as failure:
            VectorStore.open(settings)
    assert time.monotonic() - started >= LOCK_WAIT_SECONDS - 0.5
    assert str(settings.qdrant_path) in str(failure.value) and "QDRANT_URL" in str(failure.value)


def test_a_collection_without_points_mirrors_as_empty(settings: Settings) -> None:
    """A first ingest whose every file is rejected leaves an empty collection; the server mirrors it."""
    with VectorStore.open(settings) as store:
        store.ensure_collection("some-embedder", 8)
        embedder, payloads, vectors = store.snapshot()
    assert (embedder, payloads, vectors.shape) == ("some-embedder", [], (0, 0))
