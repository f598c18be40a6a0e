"""Hybrid ranking (``PackSearch``) with retrievers of the test's own, registered as a library would register
its own: lists decided in advance, a graph copy in memory, no store and no model. Properties of the fusion
itself, so they hold whatever the tuned weights are."""

from __future__ import annotations

from collections.abc import Collection
from typing import cast

import pytest

from graphrag.embedding import Embedder
from graphrag.retrieval.candidates import Candidate, Evidence, Question, Starts
from graphrag.retrieval.config import DEFAULT, RetrieverSpec, SearchConfig
from graphrag.retrieval.registry import Registration, register
from graphrag.retrieval.search import PackSearch
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.retrieval.vector_index import VectorIndex
from graphrag.retrieval.vocabulary import Described, RelationVocabulary, Step
from graphrag.stores.graph import GraphStore
from tests.retrieval.graphs import E, HeldCopy, graph_copy

pytestmark = pytest.mark.fast

COPY = graph_copy(
    [
        E("SM.MISSION.VOSTOK1", "Vostok 1"),
        E("SM.ROCKET.R7", "R-7 Semyorka"),
        E("SM.PERSON.KOROLEV", "Sergei Korolev"),
        E("SM.MISSION.LUNA9", "Luna 9"),
    ],
    [("SM.MISSION.VOSTOK1", "LAUNCHED_BY", "SM.ROCKET.R7"), ("SM.ROCKET.R7", "DESIGNED_BY", "SM.PERSON.KOROLEV")],
)


class Fixed:
    """A list decided in advance for each question, which keeps every query it was asked."""

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence
        self.lists: dict[str, list[Candidate]] = {}
        self.asked: list[tuple[Question, Starts | None]] = []

    def retrieve(self, question: Question, starts: Starts | None = None) -> list[Candidate]:
        self.asked.append((question, starts))
        return self.lists.get(question.text, [])[: question.limit]


class NoRelations:
    """A vocabulary of packs that declare no relation: no question word asks for a step."""

    def packs(self) -> list[str]:
        return ["demo"]

    def types(self) -> list[str]:
        return COPY.links.type_names

    def names(self, hidden: Collection[str] = ()) -> dict[str, tuple[Step, ...]]:
        return {}

    def described(self, hidden: Collection[str] = ()) -> tuple[Described, ...]:
        return ()


WORDS, MEANING, WALK = Fixed("text"), Fixed("vector"), Fixed("graph")
register("test-words", Registration(lambda sources, config: WORDS, "words, decided in advance", script="reads"))
register("test-meaning", Registration(lambda sources, config: MEANING, "meaning, decided in advance", script="gains"))
register("test-walk", Registration(lambda sources, config: WALK, "a walk, decided in advance", seeded=True))
CONFIG = DEFAULT.model_copy(
    update={
        "retrievers": (
            RetrieverSpec(name="test-words", weight_named=0.3, weight_unnamed=1.0),
            RetrieverSpec(name="test-meaning", weight_named=0.3, weight_unnamed=0.05),
            RetrieverSpec(name="test-walk", weight_named=1.0, weight_unnamed=0.0),
        )
    }
)


def search(config: SearchConfig = CONFIG) -> PackSearch:
    """The search as the server builds it, over the copy in memory. The linker counts the entities whose
    text holds a name in Neo4j; here every name is counted as held by all of them, as common as a word: a
    name is sure only where it is written as a reference (quoted, an id)."""
    for fixed in (WORDS, MEANING, WALK):
        fixed.asked.clear()
    snapshot = cast(GraphSnapshot, HeldCopy(COPY))
    vocabulary = cast(RelationVocabulary, NoRelations())
    found = PackSearch(
        cast(GraphStore, None), cast(Embedder, None), cast(VectorIndex, None), snapshot, vocabulary, config
    )
    table = found.linker.table()
    table.frequency.update(dict.fromkeys([*table.rows, *table.partial], config.linking.frequency_cap))
    return found


def ids(*scored: tuple[str, float]) -> list[Candidate]:
    return [Candidate(i, score) for i, score in scored]


def test_with_nothing_named_the_words_clear_first_answer_stays_first() -> None:
    question = "which mission first carried a person into orbit"
    WORDS.lists[question] = ids(("SM.MISSION.VOSTOK1", 9.0), ("SM.MISSION.LUNA9", 2.0))
    MEANING.lists[question] = ids(("SM.MISSION.LUNA9", 0.61), ("SM.MISSION.VOSTOK1", 0.60))
    ranking = search().rank(question, 5, None, None, "hybrid")
    assert [hit.id for hit in ranking.hits] == ["SM.MISSION.VOSTOK1", "SM.MISSION.LUNA9"]
    assert WALK.asked == []  # no start, no step asked: nothing to walk from


def test_where_words_cannot_read_the_question_meaning_decides() -> None:
    question = "какая миссия первой доставила человека на орбиту"  # Russian, over a pack written in English
    WORDS.lists[question] = ids(("SM.MISSION.LUNA9", 9.0))
    MEANING.lists[question] = ids(("SM.MISSION.VOSTOK1", 0.61), ("SM.MISSION.LUNA9", 0.40))
    ranking = search().rank(question, 5, None, None, "hybrid")
    assert ranking.hits[0].id == "SM.MISSION.VOSTOK1"
    assert ranking.reading.coverage == 0.0


def test_a_quoted_name_is_a_start_ranked_first_and_the_walk_leaves_from_it() -> None:
    question = 'What launched "Vostok 1"?'
    WORDS.lists[question] = ids(("SM.MISSION.LUNA9", 3.0), ("SM.MISSION.VOSTOK1", 2.0))
    walked = Candidate("SM.ROCKET.R7", 0.4, ["SM.MISSION.VOSTOK1", "launched_by", "SM.ROCKET.R7"])
    WALK.lists[question] = [walked]
    ranking = search().rank(question, 5, None, None, "hybrid")
    assert [starts.seeds for _, starts in WALK.asked if starts] == [{"SM.MISSION.VOSTOK1": 1.0}]
    assert ranking.hits[0].id == "SM.MISSION.VOSTOK1"
    rocket = next(hit for hit in ranking.hits if hit.id == "SM.ROCKET.R7")
    assert (rocket.matched, rocket.via) == (["graph"], walked.via)


def test_a_retriever_the_configuration_leaves_out_is_never_asked() -> None:
    question = "which mission carried a person"
    WORDS.lists[question] = ids(("SM.MISSION.VOSTOK1", 1.0))
    without_meaning = CONFIG.model_copy(update={"retrievers": CONFIG.retrievers[::2]})
    ranking = search(without_meaning).rank(question, 5, None, None, "hybrid")
    assert ([hit.id for hit in ranking.hits], len(MEANING.asked), len(WORDS.asked)) == (["SM.MISSION.VOSTOK1"], 0, 1)


def test_a_described_start_every_list_puts_first_is_walked_from_alone() -> None:
    """No name, no step read, yet the question may ask for what lies next to what it describes."""
    question = "what carried the first flight of a person into orbit"
    WORDS.lists[question] = ids(("SM.MISSION.VOSTOK1", 9.0), ("SM.MISSION.LUNA9", 2.0))
    MEANING.lists[question] = ids(("SM.MISSION.VOSTOK1", 0.61), ("SM.MISSION.LUNA9", 0.40))
    WALK.lists[question] = [Candidate("SM.ROCKET.R7", 0.4, ["SM.MISSION.VOSTOK1", "launched_by", "SM.ROCKET.R7"])]
    ranking = search().rank(question, 5, None, None, "hybrid")
    assert [starts.seeds for _, starts in WALK.asked if starts] == [
        {"SM.MISSION.VOSTOK1": 1.0}
    ]  # not the lists' next hits
    assert ranking.hits[0].id == "SM.MISSION.VOSTOK1"
    assert "SM.ROCKET.R7" in [hit.id for hit in ranking.hits]
    without = search(CONFIG.model_copy(update={"walk": CONFIG.walk.model_copy(update={"described": 0.0})}))
    assert "SM.ROCKET.R7" not in [hit.id for hit in without.rank(question, 5, None, None, "hybrid").hits]


def test_one_list_alone_agrees_with_nobody() -> None:
    """Full text that reads nothing of a question (or a configuration without meaning) leaves one list: its first
    hit is no described start."""
    question = "what carried the first flight of a person into orbit"
    WORDS.lists[question] = ids(("SM.MISSION.VOSTOK1", 9.0), ("SM.MISSION.LUNA9", 2.0))
    MEANING.lists[question] = []
    search().rank(question, 5, None, None, "hybrid")
    assert WALK.asked == []
