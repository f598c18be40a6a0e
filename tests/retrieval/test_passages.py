"""pack_context's passage windows: whole lines around the question's words, their line range still exact."""

from __future__ import annotations

import pytest

from graphrag.retrieval.lexical import PassageHit, PassageRanking, stems

pytestmark = pytest.mark.fast

FIRST = 10  # the file line the passage starts on


def passage(lines: list[str]) -> PassageHit:
    return PassageHit("doc", "doc.md", [FIRST, FIRST + len(lines) - 1], "0" * 64, "\n".join(lines))


def ranking(question: str) -> PassageRanking:
    return PassageRanking({}, dict.fromkeys(stems(question), 1.0))


def cited(hit: PassageHit, lines: list[str]) -> str:
    """The lines ``hit.lines`` names, as the file holds them."""
    return "\n".join(lines[hit.lines[0] - FIRST : hit.lines[1] - FIRST + 1])


def test_a_window_holds_the_lines_around_the_question_words_and_says_which() -> None:
    lines = [f"Line {n} about routine pump maintenance." for n in range(30)]
    lines[17] = "Close the coolant valve before a restart."

    window = ranking("When is the coolant valve closed?").window(passage(lines), 200)

    assert lines[17] in window.text and len(window.text) <= 200
    assert window.lines[0] < FIRST + 17 < window.lines[1]  # lines on both sides of it
    assert window.text == cited(window, lines)


def test_a_line_longer_than_the_window_comes_alone_and_whole() -> None:
    lines = ["# Notes", "", "The coolant valve " + "stays shut " * 60, "", "Other text."]

    window = ranking("coolant valve").window(passage(lines), 100)

    assert window.text == lines[2] and window.lines == [FIRST + 2, FIRST + 2]


def test_without_the_question_words_the_window_is_the_opening_without_blank_edges() -> None:
    lines = ["# Notes", "", "First paragraph.", "", "Second paragraph.", "", "Third paragraph."]

    window = ranking("zeppelin").window(passage(lines), 30)

    assert window.text == "# Notes\n\nFirst paragraph." and window.lines == [FIRST, FIRST + 2]
