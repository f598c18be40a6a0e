"""The response budget on plain models: what ``fit_items`` and ``fit_list`` keep, shorten and count."""

from __future__ import annotations

from typing import ClassVar

import pytest
from pydantic import BaseModel

from graphrag.errors import ResponseTooLarge
from graphrag.retrieval.models import Clippable
from graphrag.server.budget import FIELD_UNITS, MARKER, fit_items, fit_list, utf16_units, wire_bytes

pytestmark = pytest.mark.fast


class Note(Clippable):
    clip_fields: ClassVar[tuple[str, ...]] = ("text",)

    id: str
    text: str


class Notes(BaseModel):
    items: list[Note]
    omitted: int = 0


def notes(*lengths: int) -> Notes:
    return Notes(items=[Note(id=f"N{i}", text=f"{i}" * n) for i, n in enumerate(lengths)])


def originals(response: Notes) -> list[tuple[str, str]]:
    return [(n.id, n.text) for n in response.items]


def test_a_response_that_fits_is_left_as_it_is() -> None:
    response = notes(10, 20)
    before = originals(response)
    fitted = fit_items(response, response.items, 32_000, "notes")
    assert originals(fitted) == before and not any(n.content_truncated for n in fitted.items)


def test_no_text_passes_the_field_cap_whatever_the_budget() -> None:
    response = notes(FIELD_UNITS + 500, 10)
    fitted = fit_items(response, response.items, 10**9, "notes")
    long, short = fitted.items
    assert utf16_units(long.text) == FIELD_UNITS + utf16_units(MARKER) and long.content_truncated
    assert short.text == "1" * 10 and not short.content_truncated


@pytest.mark.parametrize("budget", [1_500, 3_000, 6_000])
def test_texts_shorten_to_fit_and_every_item_stays_in_order(budget: int) -> None:
    response = notes(1_000, 50, 3_000, 200)
    before = originals(response)
    fitted = fit_items(response, response.items, budget, "notes")
    assert wire_bytes(fitted) <= budget
    assert [n.id for n in fitted.items] == [i for i, _ in before]
    for note, (_, text) in zip(fitted.items, before, strict=True):
        if note.content_truncated:
            assert note.text.endswith(MARKER) and text.startswith(note.text.removesuffix(MARKER))
        else:
            assert note.text == text


def test_the_longest_texts_are_shortened_first() -> None:
    """One common cap: a short text below it stays whole while the long ones are cut to it."""
    response = notes(50, 3_000, 2_000)
    fitted = fit_items(response, response.items, 3_000, "notes")
    short, longer, long = fitted.items
    assert short.text == "0" * 50 and not short.content_truncated
    assert longer.content_truncated and long.content_truncated
    assert utf16_units(longer.text) == utf16_units(long.text)


def test_items_that_fit_with_no_text_at_all_are_kept_and_the_rest_counted() -> None:
    response = notes(*[100] * 200)
    fitted = fit_list(response, "items", 4_000, "notes")
    assert wire_bytes(fitted) <= 4_000
    assert 0 < len(fitted.items) < 200
    assert fitted.omitted == 200 - len(fitted.items)
    assert [n.id for n in fitted.items] == [f"N{i}" for i in range(len(fitted.items))]  # the best first, kept


def test_a_list_that_fits_omits_nothing() -> None:
    fitted = fit_list(notes(10, 10, 10), "items", 32_000, "notes")
    assert fitted.omitted == 0 and len(fitted.items) == 3


def test_one_item_that_cannot_fit_even_empty_is_response_too_large() -> None:
    huge = Notes(items=[Note(id="X" * 5_000, text="t")])
    with pytest.raises(ResponseTooLarge, match=r"notes does not fit the response budget of 1000 bytes"):
        fit_list(huge, "items", 1_000, "notes")
