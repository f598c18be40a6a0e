"""Stored vectors: an embedder for the million-entity bench that reuses real embeddings instead of computing one
per entity. The model embedded the bank's 10,000 summaries in 6 minutes on our shared two cores (load
average about 10): a million would take the model ten hours there, and this takes about a minute.

A bank of ``BANK_SIZE`` distinct summaries, written as the synthetic pack writes them, is embedded once by the
real model and kept in a ``.npy`` file. A text's vector is then derived from its hash: bank row ``a`` plus
``w`` (0.2 to 0.5) times bank row ``b``, plus a little Gaussian noise (norm about 0.15), normalised. So every
vector is distinct and lies where the model's vectors lie, clustered around real embeddings as the model's
own are: an HNSW recall measured on them means something, unlike on random 512-d vectors (HNSW's worst case,
see bench/vector_recall.py). What it does not keep is meaning: an entity's vector has nothing to do with its
text, so hybrid search's ranking is not judged here, only its latency. A question (one call of at most
``QUESTION_TEXTS`` texts: the question whole and its parts) is embedded by the model itself, so a query costs
what it costs in service.

Plugged in as any embedder is, ``GRAPHRAG_EMBEDDER=bench.stored_vectors:from_environment`` with
``BENCH_VECTOR_BANK`` naming the bank file, so ``graphrag serve`` and ``graphrag ingest`` can use it too. Its
id names the bank, so its vectors are never mixed with the model's.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench.synthetic import WORDS, summary
from graphrag.embedding import Embedder, Vectors, load_embedder
from graphrag.retrieval.config import DEFAULT

BANK_SIZE = 10_000
MODEL = "use-multilingual-v3"
NOISE = 0.15
QUESTION_TEXTS = 1 + DEFAULT.vector.clauses  # a question whole and the parts the vector list searches


class StoredVectors:
    """Vectors derived from a text's hash over a bank of real embeddings (see the module's docstring); a call
    with a question's few texts (ingest embeds in batches) is the model's, so a query pays the model's time and
    asks with real embeddings."""

    def __init__(self, bank: Vectors, model: Embedder) -> None:
        self._bank = bank
        self._model = model
        self.dimension = int(bank.shape[1])
        self.id = f"bench-stored-vectors-{len(bank)}@{model.id}"

    def embed(self, texts: Sequence[str]) -> Vectors:
        if len(texts) <= QUESTION_TEXTS:
            return self._model.embed(texts)
        return self.derive(texts)

    def derive(self, texts: Sequence[str]) -> Vectors:
        rows = np.empty((len(texts), self.dimension), dtype=np.float32)
        scale = NOISE / np.sqrt(self.dimension)
        for i, text in enumerate(texts):
            digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
            a, b, seed = (int.from_bytes(digest[at : at + 4], "little") for at in (0, 4, 8))
            weight = 0.2 + 0.3 * digest[12] / 255
            noise = np.random.default_rng(seed).standard_normal(self.dimension) * scale
            row = self._bank[a % len(self._bank)] + weight * self._bank[b % len(self._bank)] + noise
            rows[i] = row / np.linalg.norm(row)
        return rows


def bank(path: Path, size: int = BANK_SIZE, seed: int = 2026) -> tuple[Vectors, Embedder]:
    """The bank at ``path`` (embedded now, once, if the file is missing) and the model that made it."""
    model = load_embedder(MODEL)
    if not path.exists():
        rng = random.Random(seed)
        languages = list(WORDS)
        texts = [summary(rng, languages[i % len(languages)]) for i in range(size)]
        matrix = np.vstack([model.embed(texts[start : start + 1000]) for start in range(0, size, 1000)])
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, matrix.astype(np.float32))
    return np.load(path), model


def stored_vectors(path: Path) -> StoredVectors:
    return StoredVectors(*bank(path))


def from_environment() -> StoredVectors:
    """The plug-in factory (``GRAPHRAG_EMBEDDER``): the bank named by ``BENCH_VECTOR_BANK``."""
    return stored_vectors(Path(os.environ["BENCH_VECTOR_BANK"]))
