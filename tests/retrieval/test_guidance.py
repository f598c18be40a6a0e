"""Relation guidance read from questions: which typed steps, which direction, in which order (no store)."""

from __future__ import annotations

import pytest

from graphrag.retrieval.guidance import plan
from graphrag.retrieval.vocabulary import Described, Step
from graphrag.retrieval.word_forms import kind_stems

pytestmark = pytest.mark.fast


def vocabulary(declared: dict[str, str | None]) -> dict[str, tuple[Step, ...]]:
    """Relation names as the vocabulary gives them: each relation walks forward, its inverse backward."""
    names = {name: (Step(name.upper(), True),) for name in declared}
    return names | {inverse: (Step(name.upper(), False),) for name, inverse in declared.items() if inverse}


# The example pack's vocabulary: relations with declared inverses.
MISSIONS = vocabulary(
    {"launched_by": "launched", "built_by": "built", "led_by": "leads", "part_of": "has_part", "crewed_by": "flew"}
)
# Package metadata: relation names with no inverse declared.
PACKAGES = vocabulary(dict.fromkeys(["depends", "recommends", "conflicts", "build_depends_on"]))
PEPS = vocabulary({"requires": "required_by", "superseded_by": "supersedes", "replaces": "replaced_by"})
# Spack's recipes: relations whose names say little of how questions put them, and what their pack says of each.
RECIPES = vocabulary(dict.fromkeys(["depends_on", "build_depends_on", "test_depends_on", "provides"]))
RECIPES_DESCRIBED = [
    Described("depends_on", Step("DEPENDS_ON", True), "Needed at link or run time."),
    Described("build_depends_on", Step("BUILD_DEPENDS_ON", True), "Needed only to build the package."),
    Described("test_depends_on", Step("TEST_DEPENDS_ON", True), "Needed only to test the package."),
    Described("provides", Step("PROVIDES", True), "The package provides the target virtual package, e.g. mpi."),
]
PACKAGE_KIND = kind_stems(["package"])


def steps(
    question: str,
    names: dict[str, tuple[Step, ...]],
    named: str | None,
    described: list[Described] | None = None,
    kinds: frozenset[str] | None = None,
) -> list[list[tuple[str, bool]]]:
    anchor = None
    if named is not None:
        start = question.index(named)
        anchor = (start, start + len(named))
    if kinds is None:
        kinds = PACKAGE_KIND if described else frozenset()
    found = plan(question, names, anchor, 3, described or [], kinds)
    return [sorted((s.type, s.forward) for s in step) for step in found]


@pytest.mark.parametrize(
    ("question", "names", "named", "expected"),
    [
        ("What does libfoo depend on?", PACKAGES, "libfoo", [[("DEPENDS", True)]]),
        ("What depends on libfoo?", PACKAGES, "libfoo", [[("DEPENDS", False)]]),
        ("What are the dependents of libfoo?", PACKAGES, "libfoo", [[("DEPENDS", False)]]),
        ("What are the build dependencies of libfoo?", PACKAGES, "libfoo", [[("BUILD_DEPENDS_ON", True)]]),
        (
            "Which packages is libfoo a build dependency of?",
            PACKAGES,
            "libfoo",
            [[("BUILD_DEPENDS_ON", False), ("BUILD_DEPENDS_ON", True)]],
        ),
        ("Which packages is libfoo a dependent of?", PACKAGES, "libfoo", [[("DEPENDS", True)]]),
        ("Which items conflict with libfoo?", PACKAGES, "libfoo", [[("CONFLICTS", False), ("CONFLICTS", True)]]),
        (
            "Which items are recommended by the dependencies of libfoo?",
            PACKAGES,
            "libfoo",
            [[("DEPENDS", True)], [("RECOMMENDS", True)]],
        ),
        (
            "What do the dependencies of libfoo recommend?",
            PACKAGES,
            "libfoo",
            [[("DEPENDS", True)], [("RECOMMENDS", True)]],
        ),
        (
            "What do the recommendations of libfoo depend on?",
            PACKAGES,
            "libfoo",
            [[("RECOMMENDS", True)], [("DEPENDS", True)]],
        ),
        (
            "What are the dependencies of the dependencies of libfoo?",
            PACKAGES,
            "libfoo",
            [[("DEPENDS", True)], [("DEPENDS", True)]],
        ),
        (
            "What do the dependencies of libfoo depend on?",
            PACKAGES,
            "libfoo",
            [[("DEPENDS", True)], [("DEPENDS", True)]],
        ),
        (
            "Which items are recommended by the reverse dependencies of libfoo?",
            PACKAGES,
            "libfoo",
            [[("DEPENDS", False)], [("RECOMMENDS", True)]],
        ),
        (  # "X is a <noun> of": an extension extends, a dependency is depended on; English does not say which
            "Which package is Apollo 11 an extension of?",
            {"extends": (Step("EXTENDS", True),)},
            "Apollo 11",
            [[("EXTENDS", False), ("EXTENDS", True)]],
        ),
        (
            "Who led the agency that built the rocket that launched Apollo 11?",
            MISSIONS,
            "Apollo 11",
            [[("LAUNCHED_BY", True)], [("BUILT_BY", True)], [("LED_BY", True)]],
        ),
        ("Which programme is Apollo 11 part of?", MISSIONS, "Apollo 11", [[("PART_OF", True)]]),
        ("Which PEPs are referred to in PEP 8?", {"refers": (Step("REFERS", True),)}, "PEP 8", [[("REFERS", True)]]),
        ("Who flew on Apollo 11?", MISSIONS, "Apollo 11", [[("CREWED_BY", True)]]),
        ("Who wrote the PEP that superseded PEP 513?", PEPS, "PEP 513", [[("SUPERSEDED_BY", True)]]),
        ("Which PEPs declare that they replace PEP 345?", PEPS, "PEP 345", [[("REPLACES", False)]]),
        ("Which PEP was PEP 345 replaced by?", PEPS, "PEP 345", [[("REPLACES", False)]]),
        (
            "PEP 459 requires a metadata PEP; which PEP superseded that required PEP?",
            PEPS,
            "PEP 459",
            [[("REQUIRES", True)], [("SUPERSEDED_BY", True)]],
        ),
    ],
)
def test_named_start(
    question: str, names: dict[str, tuple[Step, ...]], named: str, expected: list[list[tuple[str, bool]]]
) -> None:
    assert steps(question, names, named) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What does the library for parsing YAML files depend on?", [[("DEPENDS", True)]]),
        ("Which items depend on a library for parsing YAML files?", [[("DEPENDS", False)]]),
    ],
)
def test_described_start_stands_where_the_content_words_are(
    question: str, expected: list[list[tuple[str, bool]]]
) -> None:
    assert steps(question, PACKAGES, None) == expected


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Which states are used by the somatic state of a tissue volume?", None),
        ("Which methods are used by Apollo 11?", "Apollo 11"),
    ],
)
def test_a_passive_relation_word_reads_the_active_name_too(question: str, named: str | None) -> None:
    """A graph holding both ``uses`` and a few ``used_by`` links: "used by X" is X's outgoing ``uses`` as much
    as the incoming ``used_by``."""
    both = vocabulary(dict.fromkeys(["uses", "used_by"]))

    assert steps(question, both, named) == [[("USED_BY", False), ("USES", True)]]


def test_a_relation_word_between_an_article_and_the_entity_says_what_it_is() -> None:
    """``the formalization 'X'`` names X's kind; it is no step, though ``formalizes`` is a relation."""
    names = {"formalizes": (Step("FORMALIZES", True),), "fails_with": (Step("FAILS_WITH", True),)}
    question = "Which failure mode does the formalization 'Playbooks' fail with?"
    assert steps(question, names, "'Playbooks'") == [[("FAILS_WITH", False), ("FAILS_WITH", True)]]


def test_a_relation_met_again_after_a_demonstrative_refers_back() -> None:
    names = {"fails_with": (Step("FAILS_WITH", True),), "failure_mode": (Step("FAILURE_MODE", True),)}
    names["applies_to"] = (Step("APPLIES_TO", True),)
    question = "Playbooks fails with which failure mode, and which methods does that failure mode apply to?"
    assert steps(question, names, "Playbooks") == [
        [("FAILS_WITH", False), ("FAILS_WITH", True)],
        [("FAILURE_MODE", True)],
        [("APPLIES_TO", True)],
    ]


def test_a_word_that_only_begins_like_a_relation_is_none() -> None:
    assert steps("Which PEP added a builtin that drops you into the debugger?", MISSIONS, None) == []


def test_word_order_of_another_language_is_not_read() -> None:
    assert steps(
        "Какую формализацию уточняет (recommends) libfoo, и какой является уточняемая?", PACKAGES, "libfoo"
    ) == [[("RECOMMENDS", False), ("RECOMMENDS", True)]]


def test_quoted_words_are_never_relation_words() -> None:
    """The question cites a description: its "depends" is the description's, not a step to take."""
    question = 'Which package says "it depends on nothing and conflicts with no one"?'
    assert steps(question, PACKAGES, None) == []
    assert steps('What depends on the package described as "a fast parser"?', PACKAGES, None) == [[("DEPENDS", False)]]


@pytest.mark.parametrize(
    ("question", "named", "expected"),
    [
        ("What is needed to build libfoo?", "libfoo", [[("BUILD_DEPENDS_ON", True)]]),
        ("What does libfoo need at link or run time?", "libfoo", [[("DEPENDS_ON", True)]]),
        ("Which packages need libfoo at link or run time?", "libfoo", [[("DEPENDS_ON", False)]]),
        ("Which packages need libfoo for their tests?", "libfoo", [[("TEST_DEPENDS_ON", False)]]),
        (
            "Which packages need the packages that provide mpi to build?",
            "mpi",
            [[("PROVIDES", False)], [("BUILD_DEPENDS_ON", False)]],
        ),
        (
            "What do the packages needed to build libfoo provide?",
            "libfoo",
            [[("BUILD_DEPENDS_ON", True)], [("PROVIDES", True)]],
        ),
    ],
)
def test_relation_words_no_name_spells_are_read_from_the_relations_descriptions(
    question: str, named: str, expected: list[list[tuple[str, bool]]]
) -> None:
    assert steps(question, RECIPES, named, RECIPES_DESCRIBED) == expected


def test_without_descriptions_the_names_alone_miss_those_words() -> None:
    assert steps("What is needed to build libfoo?", RECIPES, "libfoo") == []


@pytest.mark.parametrize(
    "question",
    [
        "Which package builds the Python bindings of mpi?",  # one word a description holds: no relation
        "Which package is needed?",  # a word every relation of its kind holds, and the kind's own word
        "Which package has the most tests?",  # one word of one relation's description
    ],
)
def test_a_word_or_two_a_description_happens_to_hold_is_no_relation(question: str) -> None:
    assert steps(question, RECIPES, None, RECIPES_DESCRIBED) == []


# A classification whose descriptions name each relation's far end by a noun phrase.
TERMS = vocabulary({"is_a": "has_subtype", "part_of": "has_part", "made_of": "material_of", "in_field": "field_of"})
TERMS_DESCRIBED = [
    Described("is_a", Step("IS_A", True), "The broader term this one is a kind of."),
    Described("part_of", Step("PART_OF", True), "The whole this thing is a part of."),
    Described("made_of", Step("MADE_OF", True), "A material or substance this thing is made of."),
    Described("in_field", Step("IN_FIELD", True), "The field, subject or activity the term is used in."),
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What substance goes into rudder?", [[("MADE_OF", True)]]),
        ("Which larger whole includes the substance used to make rudder?", [[("MADE_OF", True)], [("PART_OF", True)]]),
        ("Which larger whole includes the whole containing rudder?", [[("PART_OF", True)], [("PART_OF", True)]]),
        ("Which subject area does rudder come from?", [[("IN_FIELD", True)]]),
        ("Which substance is rudder made of?", [[("MADE_OF", True)]]),  # named already: one step, not two
    ],
)
def test_a_noun_a_description_names_the_relations_far_end_by_asks_for_that_step(
    question: str, expected: list[list[tuple[str, bool]]]
) -> None:
    assert steps(question, TERMS, "rudder", TERMS_DESCRIBED, kinds=kind_stems(["term"])) == expected


def test_a_description_that_is_a_sentence_names_no_far_end() -> None:
    """ "A mission belongs to a programme" says what the relation's near end does: "programme" is no step."""
    described = [Described("part_of", Step("PART_OF", True), "A mission belongs to a programme.")]

    assert steps("Which programme has the most launches?", {}, None, described) == []


@pytest.mark.parametrize(
    ("question", "named", "expected"),
    [
        ("What are the components of Apollo programme?", "Apollo programme", [[("PART_OF", False)]]),
        ("Which pieces make up Apollo programme?", "Apollo programme", [[("PART_OF", False), ("PART_OF", True)]]),
        ("Name the parts of the programme.", None, [[("PART_OF", False)]]),
    ],
)
def test_a_relation_word_goes_by_its_synonyms_and_an_opening_imperative_is_no_content(
    question: str, named: str | None, expected: list[list[tuple[str, bool]]]
) -> None:
    assert steps(question, MISSIONS, named) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which PEP gave annotations semantics for static type checkers?", []),
        ("Which PEP defined type hints?", []),
        ("What kinds of annotations are there?", [[("SUPERSEDED_BY", False)]]),
    ],
)
def test_a_word_for_sorts_that_qualifies_a_noun_asks_for_no_kinds(
    question: str, expected: list[list[tuple[str, bool]]]
) -> None:
    """``type checkers``: the word says which checkers; ``kinds of X`` walks the hierarchy down."""
    upwards = (Step("SUPERSEDED_BY", True),)
    start = question.index("annotations") if "annotations" in question else None
    anchor = (start, start + len("annotations")) if start is not None else None
    found = plan(question, PEPS, anchor, 3, (), frozenset(), upwards)
    assert [sorted((s.type, s.forward) for s in step) for step in found] == expected


# A thesaurus in SKOS's words: ``X broader Y`` says Y is the broader concept.
CONCEPTS = vocabulary({"broader": "narrower", "related": None})


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the broader concept of cooking?", [[("BROADER", True)]]),
        ("Which concept is broader than cooking?", [[("BROADER", True)]]),
        ("What are the narrower concepts of cooking?", [[("BROADER", False)]]),
        ("Which concepts are narrower than cooking?", [[("BROADER", False)]]),
        ("What is cooking broader than?", [[("BROADER", False)]]),
        ("Which broader concept covers the narrower concepts of cooking?", [[("BROADER", False)], [("BROADER", True)]]),
    ],
)
def test_a_relation_named_by_a_comparative_names_its_far_end(
    question: str, expected: list[list[tuple[str, bool]]]
) -> None:
    """``broader`` is no agent (``the users of X``) but what the relation reaches, as a description's noun is."""
    assert steps(question, CONCEPTS, "cooking", kinds=kind_stems(["concept"])) == expected


# A classification whose fields list their terms (``has_term``), declared with an inverse in the participle.
FIELDS = vocabulary({"has_term": "used_in", "made_of": "material_of"})


@pytest.mark.parametrize(
    ("question", "named", "expected"),
    [
        ("Name the subjects warplane is used in.", "warplane", [[("HAS_TERM", False)]]),
        ("Which fields is warplane used in?", "warplane", [[("HAS_TERM", False)]]),
        ("Which fields use warplane?", "warplane", [[("HAS_TERM", False)]]),
        ("Which terms does seafaring use?", "seafaring", [[("HAS_TERM", True)]]),
        ("What is warplane made of?", "warplane", [[("MADE_OF", True)]]),
        ("Which things are made of steel?", "steel", [[("MADE_OF", False)]]),
    ],
)
def test_a_relation_named_in_the_participle_reads_passively_itself(
    question: str, named: str, expected: list[list[tuple[str, bool]]]
) -> None:
    """``X is used in``: the question's participle speaks in the name's voice (``X used_in Y``), not the passive
    of an active name; ``fields use X`` is the active voice, whose object stands first in ``used_in``."""
    start = question.index(named)
    kinds = kind_stems(["term", "field"])
    found = plan(question, FIELDS, (start, start + len(named)), 3, (), kinds, (), kinds)
    assert [sorted((s.type, s.forward) for s in step) for step in found] == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which PEPs do the PEPs mentioned in PEP 781 supersede?", [[("MENTIONS", True)], [("SUPERSEDED_BY", False)]]),
        ("Which PEPs is PEP 781 mentioned in?", [[("MENTIONS", False)]]),
        ("Which PEPs mention PEP 781?", [[("MENTIONS", False)]]),
        ("Which PEPs depended on PEP 781?", [[("DEPENDS_ON", False)]]),  # the name's own preposition: active
    ],
)
def test_a_participle_before_a_preposition_is_passive(question: str, expected: list[list[tuple[str, bool]]]) -> None:
    """``the PEPs mentioned in X`` is a relative clause in the passive (X mentions them)."""
    names = vocabulary({"mentions": "mentioned_by", "superseded_by": "supersedes", "depends_on": None})
    assert steps(question, names, "PEP 781") == expected
