"""Reading an experiment file into an :class:`EvaluationInput`, or a list of path-named errors.

JSON allows repeated object keys and most parsers silently keep the last one; a repeated key
in a measurement file is a lost observation, so it is rejected before pydantic sees the text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graphrag.errors import InvalidArgument
from graphrag.evaluation.contract import EvaluationInput, Loc, format_path


class ContractError(InvalidArgument):
    """The input violates the contract; ``issues`` holds ``path: message`` lines."""

    def __init__(self, issues: list[str]) -> None:
        super().__init__(f"{len(issues)} contract violation(s); first: {issues[0]}")
        self.issues = issues


class _Object(dict[str, Any]):
    duplicates: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object()
    obj.duplicates = []
    for key, value in pairs:
        if key in obj:
            obj.duplicates.append(key)
        obj[key] = value
    return obj


def _duplicate_keys(node: Any, loc: Loc = ()) -> list[str]:
    found: list[str] = []
    if isinstance(node, _Object):
        found.extend(f"{format_path((*loc, key))}: duplicate key" for key in node.duplicates)
        for key, value in node.items():
            found.extend(_duplicate_keys(value, (*loc, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_duplicate_keys(value, (*loc, index)))
    return found


def describe(error: ValidationError) -> list[str]:
    """Pydantic errors as ``json.path: message`` lines."""
    return [f"{format_path(tuple(item['loc']))}: {item['msg']}" for item in error.errors(include_url=False)]


def parse_input(raw: bytes | str) -> EvaluationInput:
    """Validate JSON text against the contract; raise :class:`ContractError` on any violation."""
    try:
        tree = json.loads(raw, object_pairs_hook=_pairs)
    except (ValueError, RecursionError) as error:
        raise ContractError([f"$: not valid JSON ({error})"]) from error
    duplicates = _duplicate_keys(tree)
    if duplicates:
        raise ContractError(duplicates)
    try:
        return EvaluationInput.model_validate_json(raw)
    except ValidationError as error:
        raise ContractError(describe(error)) from error


def load_input(path: Path) -> EvaluationInput:
    """Read and validate one experiment file."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ContractError([f"$: cannot read {path} ({error.strerror})"]) from error
    return parse_input(raw)
