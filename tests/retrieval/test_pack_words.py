"""The meaning list leaves out the words that name the searched packs as a whole (``PEP`` where every id is
``PEP-...``): read from the pack's own ids, never from a list of words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
import pytest

from graphrag.embedding import Embedder, Vectors
from graphrag.retrieval.candidates import Question
from graphrag.retrieval.config import VectorConfig
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.vector import VectorSearch
from graphrag.retrieval.vector_index import VectorHit, VectorIndex
from tests.retrieval.graphs import E, HeldCopy, graph_copy

pytestmark = pytest.mark.fast

PEPS = [E(f"PEP-{n:04d}", pack="peps") for n in range(1, 41)]
MISSIONS = [E(f"SM.MISSION.{name}", pack="missions") for name in ("VOSTOK1", "APOLLO11", "LUNA9")]


class Recorder:
    """An embedder that keeps every text it was given."""

    id = "recorder@1"
    dimension = 2

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.texts += texts
        return np.ones((len(texts), 2), np.float32)


class Nothing:
    def search(self, *args: object) -> list[VectorHit]:
        return []


WHOLE = VectorConfig(clauses=0)  # the question whole, not its parts


def embedded(question: str, packs: list[str] | None, config: VectorConfig = WHOLE) -> list[str]:
    recorder = Recorder()
    snapshot = cast(GraphSnapshot, HeldCopy(graph_copy([*PEPS, *MISSIONS])))
    VectorSearch(cast(Embedder, recorder), cast(VectorIndex, Nothing()), snapshot, config).retrieve(
        Question(question, 5, packs, None)
    )
    return recorder.texts


def test_a_word_every_id_of_the_pack_holds_is_left_out_of_the_question() -> None:
    question = "Which PEP made new file descriptors non-inheritable?"
    assert embedded(question, ["peps"]) == ["Which made new file descriptors non-inheritable?"]


def test_a_pack_too_small_to_tell_keeps_its_words() -> None:
    question = "Which mission launched on a Vostok rocket?"  # "mission" is in every id of a pack of three
    assert embedded(question, ["missions"]) == [question]


def test_the_words_stay_when_little_else_would_or_when_switched_off() -> None:
    assert embedded("PEP 8", ["peps"]) == ["PEP 8"]
    question = "Which PEP made new file descriptors non-inheritable?"
    assert embedded(question, ["peps"], VectorConfig(clauses=0, pack_words_share=0)) == [question]
