"""The one search for the largest answer that fits a byte budget (docs/mcp.md, response budget).

Shared by the MCP tools' budget (``graphrag.server.budget``) and the pages of live team documents
(``graphrag.github.documents``), which know nothing of MCP: both ask for the largest ``n`` whose answer,
as the client receives it, stays within ``GRAPHRAG_RESPONSE_BUDGET_BYTES``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from graphrag.errors import ResponseTooLarge

ENVELOPE_BYTES = 200  # the JSON-RPC envelope and the result's own keys, rounded up

T = TypeVar("T")


def largest_fitting(
    build: Callable[[int], T], low: int, high: int, budget: int, what: str, size: Callable[[T], int]
) -> T:
    """``build(n)`` for the largest ``n`` in ``low..high`` whose answer fits (``size`` grows with ``n``);
    ``response_too_large`` when even ``build(low)`` does not.

    An answer that fits whole is serialised once. Otherwise the search probes where a straight line
    through the sizes at the ends of the bracket meets the budget, and the value next to it: sizes grow
    about linearly with ``n``, so this usually settles in two probes where bisection takes ``log2(high)``.
    A probe that does not halve the bracket is followed by a bisection step, which bounds the worst case.
    """
    best = build(high)
    size_high = size(best)
    if size_high <= budget:
        return best
    size_low = size(build(low))
    if size_low > budget:
        raise ResponseTooLarge(
            f"{what} does not fit the response budget of {budget} bytes (GRAPHRAG_RESPONSE_BUDGET_BYTES)"
        )
    interpolate = True
    while high - low > 1:
        width = high - low
        if interpolate:
            guess = low + (budget - size_low) * width // max(size_high - size_low, 1)
            probes = [min(max(guess, low + 1), high - 1)]
            probes.append(probes[0] + 1 if probes[0] + 1 < high else probes[0] - 1)
        else:
            probes = [(low + high) // 2]
        for middle in probes:
            if not low < middle < high:
                continue
            probed = size(build(middle))
            if probed <= budget:
                low, size_low = middle, probed
            else:
                high, size_high = middle, probed
        interpolate = (high - low) * 2 <= width
    return build(low)
