"""The one names module: how ids, relation names and text are spelled and compared everywhere."""

from __future__ import annotations

import pytest

from graphrag.names import (
    clauses,
    fold,
    name_tokens,
    nearest_names,
    normalise_relation,
    query_words,
    quoted_passages,
    word_sequence,
)

pytestmark = pytest.mark.fast


@pytest.mark.parametrize("spelling", ["PEP 8", "pep-0008", "PEP-0008", "Pep8", "pep_8", "PEP:008", "pep/8"])
def test_id_spellings_share_one_key(spelling: str) -> None:
    assert name_tokens(spelling) == ["pep", "8"]


def test_name_tokens_keep_scripts_and_split_cjk_per_character() -> None:
    assert name_tokens("PD.FORM.047") == name_tokens("pd form 47") == ["pd", "form", "47"]
    assert name_tokens("Юрий ГАГАРИН") == ["юрий", "гагарин"]
    assert name_tokens("阿波罗计划") == ["阿", "波", "罗", "计", "划"]


@pytest.mark.parametrize("raw", ["crewedBy", "crewed-by", "Crewed By", "CREWED_BY", "crewed_by"])
def test_relation_spellings_normalise_alike(raw: str) -> None:
    assert normalise_relation(raw) == "crewed_by"


def test_fold_is_case_width_and_yo_insensitive() -> None:
    assert fold("ЁЛКА") == fold("елка") == "елка"
    assert fold("ＡＢＣ") == "abc"


def test_query_words_drop_stop_words_and_bigram_cjk() -> None:
    assert query_words("What is the Apollo programme?") == ["apollo", "programme"]
    assert query_words("阿波罗计划") == ["阿波", "波罗", "罗计", "计划"]


def test_quoted_passages_are_the_text_inside_quotes_of_any_script() -> None:
    text = "Which says \"a fast parser\", «быстрый разбор» or “x”, not Illumina's '450k' (the users' own)?"
    assert [text[a:b] for a, b in quoted_passages(text)] == ["a fast parser", "быстрый разбор", "x", "450k"]


def test_the_word_sequence_keeps_order_and_repeats_and_drops_stop_words() -> None:
    assert word_sequence("The parser of the parser, in C") == ["parser", "parser"]
    assert query_words("The parser of the parser, in C") == ["parser"]


@pytest.mark.parametrize(
    ("unknown", "known", "typos_only", "expected"),
    [
        ("lanched_by", ["launched_by", "launched", "led_by", "built_by"], False, ["launched_by", "launched", "led_by"]),
        ("SM.PROGRAM.APPOLO", ["SM.PROGRAM.APOLLO", "SM.PROGRAM.LUNA"], True, ["SM.PROGRAM.APOLLO"]),
        ("apollo", ["SM.PROGRAM.APOLLO", "SM.PROGRAM.LUNA"], False, ["SM.PROGRAM.APOLLO"]),  # a fragment
        ("apollo", ["SM.PROGRAM.APOLLO"], True, []),  # a link target: typos only
        ("PD.FORM.093", ["PD.FORM.039", "PD.FORM.094"], True, []),  # another number is another entity
    ],
)
def test_nearest_names_is_the_one_rule(unknown: str, known: list[str], typos_only: bool, expected: list[str]) -> None:
    assert nearest_names(unknown, [(name, name) for name in known], typos_only=typos_only) == expected


def test_a_question_s_parts_keep_quotes_whole_and_split_the_rest_at_punctuation() -> None:
    text = 'What needs the package described as "HDF5 filters (Blosc, BZip2), used by h5py", and who wrote it?'
    assert clauses(text, 2) == ["HDF5 filters (Blosc, BZip2), used by h5py", "What needs the package described as"]
    assert clauses("Кто возглавил бюро, построившее ракету Гагарина?", 2) == [
        "Кто возглавил бюро",
        "построившее ракету Гагарина",
    ]
    assert clauses("What does the Saturn V depend on?", 2) == []  # one part: the question itself
    assert clauses("Which rocket, and why?", 2) == []  # no part of enough words
