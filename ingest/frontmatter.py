"""Read a markdown file's YAML frontmatter exactly, with line numbers.

python-frontmatter silently drops a block that is not a mapping, lets the last duplicate
key win, and loses line numbers; authors need all three reported, so the block is split
and composed here with PyYAML's safe loader (the C one when available, for speed).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

try:
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - pure-Python PyYAML
    from yaml import SafeLoader  # type: ignore[assignment]

_FENCE = "---"
_CLOSING_FENCE = re.compile(r"^(?:---|\.\.\.)[ \t\r]*$", re.MULTILINE)
_TOP_KEY = re.compile(r"^([^\s#:][^:]*):")


class FrontmatterError(Exception):
    """The block cannot be read: ``line`` is 1-based in the file."""

    def __init__(self, message: str, line: int | None, field: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.field = field


@dataclass
class Frontmatter:
    """A parsed block: the data, the body after it, and where each key stands in the file."""

    data: dict[str, Any]
    body: str
    body_line: int
    key_lines: dict[str, int] = field(default_factory=dict)
    nested_key_lines: dict[tuple[str, str], int] = field(default_factory=dict)
    duplicates: list[tuple[str, int]] = field(default_factory=list)


def load_yaml(text: str) -> Any:
    """Plain safe YAML (for ``pack.yaml``), with the fast loader."""
    return yaml.load(text, Loader=SafeLoader)


def split(text: str) -> tuple[str, str, int] | None:
    """Split ``---`` YAML ``---`` body; None when the file has no frontmatter block at all."""
    if text.startswith("\ufeff"):
        text = text[1:]
    first_end = text.find("\n")
    if (text if first_end < 0 else text[:first_end]).rstrip() != _FENCE:
        return None
    close = _CLOSING_FENCE.search(text, first_end + 1) if first_end >= 0 else None
    if close is None:
        raise FrontmatterError("frontmatter block opened with '---' is never closed", line=1)
    block = text[first_end + 1 : close.start()].removesuffix("\n")
    body_line = text.count("\n", 0, close.start()) + 2
    return block, text[close.end() + 1 :], body_line


def parse(text: str) -> Frontmatter | None:
    """Parse a file's text; None when there is no frontmatter (a README, a licence)."""
    parts = split(text)
    if parts is None:
        return None
    block, body, body_line = parts
    result = Frontmatter(data={}, body=body, body_line=body_line)
    loader = SafeLoader(block)
    try:
        node = loader.get_single_node()
        data: Any = {}
        if node is not None:
            _walk(node, result, parent=None)
            data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else 1
        problem = " ".join(filter(None, [exc.context, exc.problem]))
        raise FrontmatterError(f"invalid YAML: {problem}", line=line, field=_key_on(text, line)) from exc
    except yaml.YAMLError as exc:
        raise FrontmatterError(f"invalid YAML: {exc}", line=1) from exc
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise FrontmatterError(f"frontmatter must be a mapping of keys, found a {type(data).__name__}", line=2)
    result.data = {str(k): _plain(v) for k, v in data.items()}
    return result


def _key_on(text: str, line: int) -> str | None:
    """The top-level key written on a file line, to name the field of a YAML error."""
    lines = text.lstrip("\ufeff").split("\n")
    match = _TOP_KEY.match(lines[line - 1]) if 0 < line <= len(lines) else None
    return match.group(1) if match else None


def _walk(node: yaml.Node, out: Frontmatter, parent: str | None) -> None:
    """Record key lines (top level and one level below) and duplicate keys anywhere; scalars are skipped
    without a call, since they are most of the nodes."""
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            line = key_node.start_mark.line + 2
            if key in seen:
                out.duplicates.append((key if parent is None else f"{parent}.{key}", line))
            seen.add(key)
            if parent is None:
                out.key_lines.setdefault(key, line)
            else:
                out.nested_key_lines.setdefault((parent, key), line)
            if not isinstance(value_node, yaml.ScalarNode):
                _walk(value_node, out, key if parent is None else f"{parent}.{key}")
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            if not isinstance(item, yaml.ScalarNode):
                _walk(item, out, parent)


def _plain(value: Any) -> Any:
    """Dates become ISO text, so every value is JSON- and Neo4j-friendly."""
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
