"""Relation guidance's bounds, whatever words it learns to read: no vocabulary or no relation word gives no
step, a chain never exceeds the configured length, and the one relation of a name is asked either way round."""

from __future__ import annotations

import pytest

from graphrag.retrieval.guidance import plan
from graphrag.retrieval.vocabulary import Step
from tests.retrieval.test_guidance import MISSIONS, PACKAGES

pytestmark = pytest.mark.fast

CHAIN = "Who led the agency that built the rocket that launched Apollo 11?"


def anchor(question: str, name: str) -> tuple[int, int]:
    start = question.index(name)
    return start, start + len(name)


@pytest.mark.parametrize("max_steps", [1, 2, 3, 4])
def test_a_chain_is_never_longer_than_the_configured_steps(max_steps: int) -> None:
    steps = plan(CHAIN, MISSIONS, anchor(CHAIN, "Apollo 11"), max_steps)
    assert 1 <= len(steps) <= max_steps
    assert steps[0] == {Step("LAUNCHED_BY", True)}  # the step nearest the named entity comes first


@pytest.mark.parametrize("question", ["What is Apollo 11?", "Tell me about Apollo 11.", ""])
def test_a_question_without_relation_words_asks_for_no_step(question: str) -> None:
    named = anchor(question, "Apollo 11") if "Apollo 11" in question else None
    assert plan(question, MISSIONS, named, 3) == []


def test_without_a_vocabulary_there_is_no_step() -> None:
    assert plan(CHAIN, {}, anchor(CHAIN, "Apollo 11"), 3) == []


@pytest.mark.parametrize("relation", ["depends", "recommends"])
def test_asking_from_either_side_takes_the_same_relation_opposite_ways(relation: str) -> None:
    rel_type = PACKAGES[relation][0].type
    verb = relation.removesuffix("s")
    subject = f"What does libfoo {verb}?"
    obj = f"What {relation} libfoo?"
    assert plan(subject, PACKAGES, anchor(subject, "libfoo"), 3) == [{Step(rel_type, True)}]
    assert plan(obj, PACKAGES, anchor(obj, "libfoo"), 3) == [{Step(rel_type, False)}]
