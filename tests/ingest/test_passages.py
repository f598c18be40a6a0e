"""Passages: sections or windows of a body, whose line range is exactly the text they quote."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.frontmatter import parse
from ingest.passages import MAX_CHARS, cut

pytestmark = pytest.mark.fast

RST = """---
id: X
---

Abstract
========

First paragraph.

Motivation
----------

Why it matters.
"""


def quoted_lines(file_text: str, first: int, last: int) -> str:
    return "\n".join(file_text.split("\n")[first - 1 : last])


def test_rest_and_markdown_sections_become_passages_with_their_headings() -> None:
    fm = parse(RST)
    assert fm is not None
    passages = cut("X", fm.body, fm.body_line)

    assert [(p.heading, p.first, p.last) for p in passages] == [("Abstract", 5, 8), ("Motivation", 10, 13)]
    assert passages[0].text == "Abstract\n========\n\nFirst paragraph."
    assert [p.heading for p in cut("Y", "intro\n\n# One\ntext\n```\n# not a heading\n```\n## Two\nmore", 1)] == [
        "",
        "One",
        "Two",
    ]


def test_a_long_section_is_cut_into_windows_at_blank_lines() -> None:
    body = "\n\n".join(f"paragraph {i} " + "word " * 60 for i in range(20))
    passages = cut("X", body, 1)

    assert len(passages) > 3
    assert all(len(p.text) < 2 * MAX_CHARS for p in passages)
    assert all(p.text.startswith("paragraph") for p in passages)


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(
        st.one_of(
            st.just(""),
            st.just("Title"),
            st.just("====="),
            st.just("# Heading"),
            st.just("```"),
            st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=300),
        ),
        max_size=60,
    )
)
def test_every_passage_quotes_exactly_its_line_range(lines: list[str]) -> None:
    text = "---\nid: X\n---\n" + "\n".join(lines)
    fm = parse(text)
    assert fm is not None
    for passage in cut("X", fm.body, fm.body_line):
        assert passage.text == quoted_lines(text, passage.first, passage.last)
        assert passage.text.strip()
