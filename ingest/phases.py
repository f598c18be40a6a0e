"""How a run's phases are timed (the seconds each took, in its report) and cut into batches."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
Progress = Callable[[str, int, int], None]  # (phase, done, total)
EMBED_BATCH = 1000  # one graph transaction per batch, too, unless it is larger than writing.TRANSACTION_BYTES


def batches(items: list[T], size: int) -> Iterator[tuple[int, list[T]]]:
    for start in range(0, len(items), size):
        batch = items[start : start + size]
        yield start + len(batch), batch


@contextmanager
def timed(timings: dict[str, float], phase: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[phase] = timings.get(phase, 0.0) + time.perf_counter() - started
