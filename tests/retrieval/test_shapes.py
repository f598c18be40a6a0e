"""Relations read from the graph's own shape: hierarchy words and kind words resolved without word lists per
domain (no store)."""

from __future__ import annotations

import pytest

from graphrag.retrieval.guidance import plan, step_words, unread
from graphrag.retrieval.shapes import Shapes
from graphrag.retrieval.vocabulary import Step
from graphrag.retrieval.word_forms import attached_kind, kind_stems, named_kinds
from tests.retrieval.graphs import E, graph_copy

pytestmark = pytest.mark.fast

# A small classification: terms in a taxonomy (IS_A, child -> parent), items that show terms (HAS_FEATURE,
# item -> term), and terms filed under fields (IN_FIELD, term -> field).
TERMS = [E(f"t{i}", f"term {i}", kind="term") for i in range(8)]
ITEMS = [E(f"i{i}", f"item {i}", kind="item") for i in range(3)]
FIELDS = [E("f0", "field zero", kind="field")]
LINKS = [
    *((f"t{i}", "IS_A", f"t{(i - 1) // 2}") for i in range(1, 8)),
    ("i0", "HAS_FEATURE", "t3"),
    ("i1", "HAS_FEATURE", "t3"),
    ("i1", "HAS_FEATURE", "t4"),
    ("i2", "HAS_FEATURE", "t5"),
    ("t1", "IN_FIELD", "f0"),
]
SHAPES = Shapes.of(graph_copy([*TERMS, *ITEMS, *FIELDS], LINKS))
TERM = ("demo", "term")
# The names as the pack declares them: a relation named after a kind, and the inverses.
NAMES = {
    "is_a": (Step("IS_A", True),),
    "has_subtype": (Step("IS_A", False),),
    "has_feature": (Step("HAS_FEATURE", True),),
    "feature_of": (Step("HAS_FEATURE", False),),
}
KINDS = kind_stems(["term", "item", "field"])


def read(question: str, named: str) -> list[list[tuple[str, bool]]]:
    start = question.index(named)
    found = plan(question, NAMES, (start, start + len(named)), 3, (), KINDS, SHAPES.upwards(TERM), KINDS)
    return [sorted((s.type, s.forward) for s in step) for step in found]


def test_a_relation_each_source_of_which_has_one_target_is_a_hierarchy_going_up() -> None:
    assert SHAPES.upwards(TERM) == (Step("IS_A", True),)
    assert SHAPES.upwards(("other-pack", "term")) == ()  # a kind of another pack has shapes of its own
    assert not SHAPES.by_type["HAS_FEATURE"].hierarchy  # item i1 shows two terms


def test_a_kind_outside_a_hierarchys_shape_goes_up_the_one_its_entities_leave() -> None:
    """Six materials filed under terms are a small share of a large taxonomy's links, so no kind of its shape;
    they stand in it all the same."""
    terms = [E(f"t{i}", f"term {i}", kind="term") for i in range(80)]
    materials = [E(f"m{i}", f"material {i}", kind="material") for i in range(6)]
    links = [*((f"t{i}", "IS_A", f"t{i - 1}") for i in range(1, 80)), *((f"m{i}", "IS_A", "t0") for i in range(6))]
    shapes = Shapes.of(graph_copy([*terms, *materials], links))
    assert ("demo", "material") not in {end for pair in shapes.by_type["IS_A"].pairs for end in pair}
    assert shapes.upwards(("demo", "material")) == (Step("IS_A", True),)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which more specific kinds of term 1 are there?", [[("IS_A", False)]]),
        ("What are the subtypes of term 1?", [[("IS_A", False)]]),
        ("Name the narrower terms under term 1.", [[("IS_A", False)]]),
        ("What are the parents of term 3?", [[("IS_A", True)]]),
        ("Which broader term does term 3 belong to?", [[("IS_A", True)]]),
        ("What is term 3 a kind of?", [[("IS_A", True)]]),
        ("What kind of thing is term 3?", [[("IS_A", True)]]),
        ("What kind of thing is a term 3?", [[("IS_A", True)]]),
        ("Какие разновидности есть у «term 1»?", [[("IS_A", False)]]),
        ("Какие виды входят в «term 1»?", [[("IS_A", False)]]),
        ("К какой более общей группе относится «term 3»?", [[("IS_A", True)]]),
    ],
)
def test_hierarchy_words_walk_the_hierarchy_the_entity_stands_in(
    question: str, expected: list[list[tuple[str, bool]]]
) -> None:
    named = "term 1" if "term 1" in question else "term 3"
    assert read(question, named) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ('What kind of thing is the term defined as "a bucket of ice used to chill wine"?', [[("IS_A", True)]]),
        ('What kind of thing is "a bucket of ice used to chill wine"?', [[("IS_A", True)]]),
        ('What kind of vessel holds "a bucket of ice used to chill wine"?', []),  # only says what the answer is
    ],
)
def test_what_kind_of_thing_a_description_is_walks_up_from_the_entity_it_describes(
    question: str, expected: list[list[tuple[str, bool]]]
) -> None:
    found = plan(question, NAMES, None, 3, (), KINDS, SHAPES.upwards(TERM), KINDS)
    assert [sorted((s.type, s.forward) for s in step) for step in found] == expected


def test_a_hierarchy_step_chains_with_a_relation_step() -> None:
    """Two typed steps, the first inverse: down the taxonomy, then to the items having those terms as a
    feature (the relative clause does not say which way ``have`` runs: both, one of which leads nowhere)."""
    assert read("Which items have a feature that is a more specific kind of term 1?", "term 1") == [
        [("IS_A", False)],
        [("HAS_FEATURE", False), ("HAS_FEATURE", True)],
    ]


def test_the_kind_asked_for_adds_the_step_that_reaches_it() -> None:
    """``show`` is no relation word: the chain reaches terms, the question asks for items."""
    question = "Which items show a more specific kind of term 1?"
    start = question.index("term 1")
    read_steps = plan(question, NAMES, (start, start + 6), 3, (), KINDS, SHAPES.upwards(TERM), KINDS)
    asked = named_kinds(question, SHAPES.kinds, (start, start + 6))
    assert SHAPES.complete(read_steps, TERM, asked, 3) == [{Step("IS_A", False)}, {Step("HAS_FEATURE", False)}]
    assert SHAPES.complete([], TERM, ["item"], 3) == [{Step("HAS_FEATURE", False)}]
    assert SHAPES.complete([], TERM, ["term"], 3) == []  # which term ...: no step


@pytest.mark.parametrize(
    ("question", "attached", "expected"),
    [
        # the field of term 1 first, then its broader term: the kind bound to the entity by "of" is the first step
        ("Which broader term covers the field of term 1?", "field", [{Step("IN_FIELD", True)}, {Step("IS_A", True)}]),
        (
            "Which broader term covers the fields of the term 1?",
            "field",
            [{Step("IN_FIELD", True)}, {Step("IS_A", True)}],
        ),
        # the field stands further out: reached last, as the kind asked for; the term bound is the entity's own kind
        (
            "In which field do you meet the broader term of term 1?",
            "term",
            [{Step("IS_A", True)}, {Step("IN_FIELD", True)}],
        ),
        ("Which items show term 1 of the field?", None, [{Step("HAS_FEATURE", False)}]),
    ],
)
def test_a_kind_bound_to_the_entity_by_of_is_reached_first(
    question: str, attached: str | None, expected: list[set[Step]]
) -> None:
    start = question.index("term 1")
    anchor = (start, start + 6)
    assert attached_kind(question, SHAPES.kinds, anchor) == attached
    read_steps = plan(question, NAMES, anchor, 3, (), KINDS, SHAPES.upwards(TERM), KINDS)
    asked = named_kinds(question, SHAPES.kinds, anchor)
    assert SHAPES.complete(read_steps, TERM, asked, 3, attached) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which broader term covers the broader term of term 3?", [[("IS_A", True)], [("IS_A", True)]]),
        ("Which terms belong to the broader term of term 3?", [[("IS_A", True)], [("IS_A", False)]]),
    ],
)
def test_hierarchy_words_apart_are_steps_apart(question: str, expected: list[list[tuple[str, bool]]]) -> None:
    assert read(question, "term 3") == expected


def test_which_kind_of_names_what_the_entity_is_not_a_step() -> None:
    assert read("Which kind of vessel carries term 3?", "term 3") == []


def test_a_kind_word_inside_a_relation_name_is_no_relation() -> None:
    """``has_term`` would read every "which term ...": the word names the answer's kind, not a relation."""
    names = {"has_term": (Step("HAS_TERM", True),), "is_a": (Step("IS_A", True),)}
    question = "Which term is defined as a gentle way of term 2 in fat?"
    start = question.index("term 2")
    assert plan(question, names, (start, start + 6), 3, (), KINDS, (), KINDS) == []


def test_the_kind_a_question_asks_for_is_read_outside_the_entity() -> None:
    question = "Which items show term 3?"
    start = question.index("term 3")
    assert named_kinds(question, SHAPES.kinds, (start, start + 6)) == ["item"]
    assert SHAPES.between(TERM, ("demo", "item")) == (Step("HAS_FEATURE", False),)
    assert SHAPES.between(TERM, ("demo", "field")) == (Step("IN_FIELD", True),)


def test_a_common_name_is_all_the_question_says_besides_its_frame() -> None:
    """``What is list a kind of?``: nothing but the name is left, so the question is about it; a quoted passage
    is content of its own."""
    question = "What is term 3 a kind of?"
    start = question.index("term 3")
    assert unread(question, NAMES, (start, start + 6), (), KINDS, SHAPES.upwards(TERM), KINDS) == []
    quoting = 'Which term 3 is used in this example: "a gentle way of cooking"?'
    start = quoting.index("term 3")
    assert unread(quoting, NAMES, (start, start + 6), (), KINDS, SHAPES.upwards(TERM), KINDS) == [
        "used",
        "example",
        "gentle",
        "way",
        "cooking",
    ]


def test_the_words_that_ask_for_steps_are_read_wherever_the_entity_stands() -> None:
    assert step_words(
        "Which more specific kinds of term 1 have a feature?", NAMES, (), KINDS, SHAPES.upwards(TERM), KINDS
    ) == {
        "more",
        "specific",
        "kinds",
        "feature",
    }
