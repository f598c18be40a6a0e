"""The model's ready copy in the user's cache: a start reads it instead of parsing the package's files, and the
vectors are the same bit for bit; a damaged copy is replaced, and a cache that cannot be written costs only
time."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphrag.embedding.use import TOKENIZER, WEIGHTS, UniversalSentenceEncoder, cache_folder

TEXTS = ["The style guide for Python code", "Москва — столица России", "42 ships launched in 1969"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return cache_folder()


def _copy(cache: Path) -> Path:
    (copy,) = cache.iterdir()
    return copy


def test_a_second_start_reads_the_ready_copy_and_embeds_the_same(cache: Path) -> None:
    first = UniversalSentenceEncoder().embed(TEXTS)
    kept = _copy(cache)
    assert sorted(p.name for p in kept.iterdir()) == sorted([TOKENIZER, WEIGHTS])
    stamp = (kept / TOKENIZER).stat().st_mtime_ns
    again = UniversalSentenceEncoder().embed(TEXTS)
    assert (kept / TOKENIZER).stat().st_mtime_ns == stamp  # read, not written again
    assert np.array_equal(first, again)


def test_the_denoised_model_shares_the_copy_and_still_denoises(cache: Path) -> None:
    plain = UniversalSentenceEncoder().embed(TEXTS)
    denoised = UniversalSentenceEncoder(denoise=True).embed(TEXTS)
    assert len(list(cache.iterdir())) == 1
    assert np.array_equal(plain[:2], denoised[:2])  # no numbers: the same
    assert not np.array_equal(plain[2], denoised[2])


def test_a_damaged_copy_is_replaced(cache: Path, caplog: pytest.LogCaptureFixture) -> None:
    expected = UniversalSentenceEncoder().embed(TEXTS)
    (_copy(cache) / TOKENIZER).write_bytes(b"not a pickle")
    assert np.array_equal(UniversalSentenceEncoder().embed(TEXTS), expected)
    assert "cannot be read" in caplog.text
    assert np.array_equal(UniversalSentenceEncoder().embed(TEXTS), expected)


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # the cache folder would be under a file
    assert UniversalSentenceEncoder().embed(TEXTS).shape == (3, 512)


def test_a_new_version_s_copy_replaces_the_old_one(cache: Path) -> None:
    former = cache / "use-multilingual-v3@0.0.1"
    former.mkdir(parents=True)
    (former / WEIGHTS).write_bytes(b"85 MB once")
    UniversalSentenceEncoder().embed(TEXTS)
    assert [p.name for p in cache.iterdir()] == [_copy(cache).name]
    assert not former.exists()
