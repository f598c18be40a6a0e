"""The search configuration: loading it, the full-text query it shapes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphrag.errors import InvalidArgument
from graphrag.retrieval.config import DEFAULT, SearchConfig, TextConfig
from graphrag.retrieval.lexical import TextQuery

pytestmark = pytest.mark.fast


def test_the_default_round_trips_through_its_file(tmp_path: Path) -> None:
    path = tmp_path / "search.json"
    path.write_text(DEFAULT.model_dump_json(), encoding="utf-8")
    assert SearchConfig.load(path) == DEFAULT
    assert SearchConfig.load(path).digest() == DEFAULT.digest()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"retrievers": [{"name": "text", "weight_named": -1, "weight_unnamed": 1}]}', "retrievers.0.weight_named"),
        ('{"retrievers": [{"name": "bm25", "weight_named": 1, "weight_unnamed": 1}]}', "retrievers.0.name"),
        ('{"retrievers": [], "walk": {"hops": 9}}', "retrievers"),
        ('{"retrievers": [{"name": "text", "weight_named": 1, "weight_unnamed": 1}], "pool": 1, "typo": 1}', "typo"),
        ("not json", "(top level)"),
    ],
)
def test_a_bad_file_names_the_field(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "search.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidArgument, match=rf"search config .*search\.json: {re.escape(message)}"):
        SearchConfig.load(path)


def test_neighbouring_words_become_sloppy_phrases_as_configured() -> None:
    query = TextQuery.of('What "parses" fast JSON, in C?', TextConfig(phrase_slop=3, phrase_boost=2.5, quote_boost=0))
    assert query is not None
    assert query.lucene == '"parses" OR "fast" OR "json" OR "parses fast"~3^2.5 OR "fast json"~3^2.5'
    words_alone = TextQuery.of("parses fast JSON", TextConfig(phrase_boost=0))
    assert words_alone is not None and words_alone.lucene == '"parses" OR "fast" OR "json"'


def test_one_quoted_word_is_found_as_written_too() -> None:
    """``Which term is also known as 'Aubergine'?``: the synonym asked for, not the frame's words."""
    query = TextQuery.of("Which term is also known as 'Aubergine'?", TextConfig(phrase_boost=0))
    assert query is not None
    assert query.quoted == '"aubergine"~3'
    assert query.lucene.endswith('OR "aubergine"~3^8')


def test_a_quoted_passage_is_one_more_phrase_with_its_stop_words_in_place() -> None:
    query = TextQuery.of(
        'Which PEP says "the cache is flushed"?', TextConfig(phrase_boost=0, quote_slop=2, quote_boost=3)
    )
    assert query is not None
    assert query.lucene.endswith(' OR "the cache is flushed"~2^3')
    off = TextQuery.of('Which PEP says "the cache is flushed"?', TextConfig(phrase_boost=0, quote_boost=0))
    assert off is not None and "~" not in off.lucene and off.quoted is None


def test_a_quoted_passage_goes_to_the_analyzer_as_written_with_only_a_phrases_syntax_escaped() -> None:
    """``3.6`` and ``we'd`` are one word each to the index's analyzer, as they were in the text it indexed."""
    query = TextQuery.of(
        'Which PEP says "Until 3.6 final, we\'d keep a\\b *as is*"?', TextConfig(phrase_boost=0, quote_boost=3)
    )
    assert query is not None
    assert query.quoted == '"until 3.6 final, we\'d keep a\\\\b *as is"~3'
    assert query.lucene.endswith(f" OR {query.quoted}^3")


def test_words_that_ask_for_steps_are_left_to_the_walks_but_not_inside_quotes() -> None:
    """``What did X replace?``: ``replace`` is the step, not a word of the start's text."""
    query = TextQuery.of(
        'What did the asyncio PEP replace, the one "meant to replace asyncore"?',
        TextConfig(phrase_boost=0, quote_boost=0),
        frozenset({"replace"}),
    )
    assert query is not None
    assert query.words == '"asyncio" OR "pep" OR "one" OR "meant" OR "asyncore" OR "replace"'
    alone = TextQuery.of("Replace?", TextConfig(phrase_boost=0), frozenset({"replace"}))
    assert alone is not None and alone.words == '"replace"'  # all the question says: kept


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("What else is ukulele called?", '"ukulele"'),
        ("Which term is also known as 'Aubergine'?", '"term" OR "aubergine"'),
        ("Find the term that also goes by the name zithern.", '"find" OR "term" OR "zithern"'),
        ('What is "synopsis" another word for?', '"synopsis"'),
        ("Как ещё называют баклажан?", '"баклажан"'),
        ("Which entry lists MLitt as a synonym?", '"entry" OR "lists" OR "mlitt" OR "synonym"'),  # "Synonyms:" lines
    ],
)
def test_the_words_that_ask_for_another_name_are_left_out_of_full_text(question: str, words: str) -> None:
    """An entry whose text says "also known as" must not outrank the one that names what was asked."""
    query = TextQuery.of(question, TextConfig(phrase_boost=0, quote_boost=0))
    assert query is not None and query.words == words


def test_a_retriever_nothing_registered_is_refused_naming_those_that_are(tmp_path: Path) -> None:
    path = tmp_path / "search.json"
    path.write_text('{"retrievers": [{"name": "bm25", "weight_named": 1, "weight_unnamed": 1}]}', encoding="utf-8")
    known = r"known: chain, (.+, )?text, vector, walk$"  # and any a test module registered
    with pytest.raises(InvalidArgument, match=rf"retrievers\.0\.name: Value error, unknown retriever 'bm25'; {known}"):
        SearchConfig.load(path)
