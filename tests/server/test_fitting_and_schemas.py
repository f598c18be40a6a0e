"""``largest_fitting`` finds exactly what bisection finds, and compacted output schemas accept the same values."""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel

from graphrag.errors import ResponseTooLarge
from graphrag.server.budget import largest_fitting, wire_bytes
from graphrag.server.schemas import compact_nullables

pytestmark = pytest.mark.fast


class Sized(BaseModel):
    text: str


def bisection(sizes: list[int], budget: int) -> int | None:
    """The plain answer: the largest n whose response fits, or None when even n = 0 does not."""
    fitting = [n for n, size in enumerate(sizes) if wire_bytes(Sized(text="x" * size)) <= budget]
    return max(fitting) if fitting else None


@pytest.mark.parametrize("seed", range(300))
def test_largest_fitting_equals_bisection_on_any_monotone_size(seed: int) -> None:
    rng = random.Random(seed)
    high = rng.randint(0, 600)
    sizes, total = [], rng.randint(0, 200)
    for _ in range(high + 1):  # linear stretches, plateaus and jumps
        total += rng.choice([0, 0, 1, 3, 7, rng.randint(0, 400)])
        sizes.append(total)
    budget = rng.randint(200, 2 * sizes[-1] + 600)
    built: list[int] = []

    def build(n: int) -> Sized:
        built.append(n)
        return Sized(text="x" * sizes[n])

    expected = bisection(sizes, budget)
    if expected is None:
        with pytest.raises(ResponseTooLarge):
            largest_fitting(build, 0, high, budget, "it")
        return
    answer = largest_fitting(build, 0, high, budget, "it")
    assert built[-1] == expected and answer.text == "x" * sizes[expected]
    assert len(built) <= 2 * high.bit_length() + 4


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d"},
        "weight": {"anyOf": [{"type": "number"}, {"type": "null"}], "default": None},
        "paths": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        "status": {"anyOf": [{"enum": ["a", "b"], "type": "string"}, {"type": "null"}]},
    },
}


def test_compacted_schema_accepts_exactly_the_same_values() -> None:
    compact = compact_nullables(SCHEMA)
    assert compact["properties"]["kind"] == {"type": ["string", "null"], "description": "d"}
    assert compact["properties"]["paths"] == {"type": ["array", "null"], "items": {"type": "string"}}
    assert compact["properties"]["status"] == SCHEMA["properties"]["status"]  # an enum branch stays
    values = [None, "a", "c", 1, 1.5, True, [], ["x"], [1], {}]
    for name in SCHEMA["properties"]:
        for value in values:
            instance = {name: value}
            assert jsonschema.Draft202012Validator(SCHEMA).is_valid(instance) == jsonschema.Draft202012Validator(
                compact
            ).is_valid(instance), (name, value)
