"""Byte-stable JSON: sorted keys, two-space indent, floats with six fixed decimals.

Two runs over the same input must print identical bytes so a reviewer can diff reports;
``repr`` of floats is stable but noisy (0.30000000000000004), so floats are fixed-point.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

DECIMALS = 6


def _float(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError("non-finite number in a report")
    text = f"{value:.{DECIMALS}f}"
    return text[1:] if text.startswith("-") and float(text) == 0.0 else text


def _encode(value: Any, depth: int, out: list[str]) -> None:
    pad = "  " * (depth + 1)
    if value is None or isinstance(value, bool | str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, Mapping):
        if not value:
            out.append("{}")
            return
        out.append("{\n")
        for index, key in enumerate(sorted(value)):
            if not isinstance(key, str):
                raise TypeError(f"JSON object keys must be strings, got {key!r}")
            out.append(f"{pad}{json.dumps(key, ensure_ascii=False)}: ")
            _encode(value[key], depth + 1, out)
            out.append(",\n" if index < len(value) - 1 else "\n")
        out.append("  " * depth + "}")
    elif isinstance(value, Sequence):
        if not value:
            out.append("[]")
            return
        out.append("[\n")
        for index, item in enumerate(value):
            out.append(pad)
            _encode(item, depth + 1, out)
            out.append(",\n" if index < len(value) - 1 else "\n")
        out.append("  " * depth + "]")
    else:
        raise TypeError(f"cannot encode {type(value).__name__} as JSON")


def dumps(value: Any) -> str:
    """Canonical JSON text of plain data, ending in a newline."""
    out: list[str] = []
    _encode(value, 0, out)
    out.append("\n")
    return "".join(out)
