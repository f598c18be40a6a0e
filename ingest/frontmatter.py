"""Read a markdown file's YAML frontmatter exactly, with line numbers.

python-frontmatter silently drops a block that is not a mapping, lets the last duplicate
key win, and loses line numbers; authors need all three reported, so the block is split
and composed here with PyYAML's safe loader (the C one when available, for speed).

The composed nodes are walked once before anything is constructed. The walk holds a block to the
limits of ``ingest.limits`` (size, depth, values after alias expansion, no recursive alias) and to
what JSON and Neo4j can hold (no binary data or sets, integers within 64 bits, finite numbers,
non-empty keys), and names the line of whatever it rejects.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

try:
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - pure-Python PyYAML
    from yaml import SafeLoader  # type: ignore[assignment]

from graphrag.errors import echo
from ingest.limits import MAX_FRONTMATTER_CHARS, MAX_INTEGER, MAX_YAML_DEPTH, MAX_YAML_VALUES, MIN_INTEGER
from ingest.report import shown

_FENCE = "---"
_CLOSING_FENCE = re.compile(r"^(?:---|\.\.\.)[ \t\r]*$", re.MULTILINE)
_TOP_KEY = re.compile(r"^([^\s#:][^:]*):")
# `key: value` on one line, in a mapping or a list item: where a plain value holding ": " can be quoted.
_KEY_VALUE = re.compile(r"^(\s*(?:- )?[^\s#:\-\"'][^:]*):[ \t]+(\S.*?)\s*$")
_TAG = "tag:yaml.org,2002:"
# What a scalar of each typed tag must be; an explicit tag can give any text (`!!int abc`).
_TYPED = {
    _TAG + "int": "an integer within 64 bits",
    _TAG + "float": "a finite number",
    _TAG + "bool": "true or false",
    _TAG + "timestamp": "a date",
}
_CHECKED = {*_TYPED, _TAG + "binary"}  # scalars with any other tag are text or null: nothing to check


class FrontmatterError(Exception):
    """The block cannot be read: ``line`` is 1-based in the file."""

    def __init__(self, code: str, message: str, line: int | None, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code  # the rule broken (ingest/rules.py)
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


def compose_yaml(text: str) -> yaml.Node | None:
    """The nodes of plain safe YAML, with the lines of its keys (``pack.yaml``'s errors name them)."""
    return yaml.compose(text, Loader=SafeLoader)


def split(text: str) -> tuple[str, str, int] | None:
    """Split ``---`` YAML ``---`` body; None when the file has no frontmatter block at all."""
    if text.startswith("\ufeff"):
        text = text[1:]
    first_end = text.find("\n")
    if (text if first_end < 0 else text[:first_end]).rstrip() != _FENCE:
        return None
    close = _CLOSING_FENCE.search(text, first_end + 1) if first_end >= 0 else None
    if close is None:
        raise FrontmatterError("Y001", "frontmatter block opened with '---' is never closed", line=1)
    block = text[first_end + 1 : close.start()].removesuffix("\n")
    body_line = text.count("\n", 0, close.start()) + 2
    return block, text[close.end() + 1 :], body_line


def parse(text: str) -> Frontmatter | None:
    """Parse a file's text (line breaks already ``\\n``); None when there is no frontmatter (a README)."""
    parts = split(text)
    if parts is None:
        return None
    block, body, body_line = parts
    if len(block) > MAX_FRONTMATTER_CHARS:
        raise FrontmatterError(
            "Y004",
            f"frontmatter is {len(block):,} characters long, more than the {MAX_FRONTMATTER_CHARS:,} allowed",
            line=1,
        )
    result = Frontmatter(data={}, body=body, body_line=body_line)
    loader = SafeLoader(block)
    try:
        node = loader.get_single_node()
        data: Any = {}
        if node is not None:
            _Walk(result, loader).value(node, path=None, depth=0)
            data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else 1
        problem = echo(" ".join(filter(None, [exc.context, exc.problem])))
        message = f"invalid YAML: {problem}{_how_to_fix(exc, text, line)}"
        raise FrontmatterError("Y002", message, line=line, field=_key_on(text, line)) from exc
    except yaml.reader.ReaderError as exc:
        line = block.count("\n", 0, max(block.find(chr(exc.character)), 0)) + 2
        message = f"invalid YAML: character #x{exc.character:04x} is not allowed ({exc.reason})"
        raise FrontmatterError("Y002", message, line=line, field=_key_on(text, line)) from exc
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise FrontmatterError("Y003", f"frontmatter must be a mapping of keys, found a {type(data).__name__}", line=2)
    result.data = {str(k): _plain(v) for k, v in data.items()}
    return result


def _how_to_fix(exc: yaml.MarkedYAMLError, text: str, line: int) -> str:
    """The fix of the commonest YAML mistakes: a plain value holding ``": "``, which YAML reads as a second
    key (``title: Apollo 11: the first landing``; quoting the whole value makes it text again), and a tab
    where YAML takes only spaces."""
    lines = text.lstrip("\ufeff").split("\n")
    if 0 < line <= len(lines) and "\t" in lines[line - 1] and "cannot start any token" in str(exc.problem):
        return "; the line holds a tab, and YAML indents with spaces only: replace the tab with spaces"
    if "mapping values are not allowed" not in str(exc.problem):
        return ""
    match = _KEY_VALUE.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if match is None or ": " not in match.group(2):
        return ""
    key, value = match.groups()
    quoted = f"{key.strip()}: {json.dumps(value, ensure_ascii=False)}"  # a JSON string is a YAML double-quoted one
    return f"; the value holds ': ', which YAML reads as a new key: quote the whole value, as in {echo(quoted)}"


def _key_on(text: str, line: int) -> str | None:
    """The top-level key written on a file line, to name the field of a YAML error."""
    lines = text.lstrip("\ufeff").split("\n")
    match = _TOP_KEY.match(lines[line - 1]) if 0 < line <= len(lines) else None
    return match.group(1) if match else None


class _Walk:
    """One pass over the composed nodes: where each key stands, duplicate keys, and every value a store
    could not hold or that grows without bound. Plain text scalars, most of the nodes, cost no call."""

    def __init__(self, out: Frontmatter, loader: SafeLoader) -> None:
        self._out = out
        self._loader = loader
        self._values = 0
        self._key_line = 2  # the top-level key being walked: where an alias expands past the limit
        self._open: set[int] = set()  # the collections being walked: an alias to one of them is recursive

    def node(self, node: yaml.Node, parent: str | None, depth: int) -> None:
        line = _line(node)
        if id(node) in self._open:
            raise FrontmatterError("Y004", "recursive alias: a value contains itself", line, parent)
        if depth > MAX_YAML_DEPTH:
            raise FrontmatterError("Y004", f"values nested more than {MAX_YAML_DEPTH} levels deep", line, parent)
        self._values += len(node.value)
        if self._values > MAX_YAML_VALUES:
            message = f"more than {MAX_YAML_VALUES:,} values once aliases are expanded"
            raise FrontmatterError("Y004", message, self._key_line, parent)
        if node.tag == _TAG + "set":
            raise FrontmatterError("Y005", "a set (!!set) is not allowed; write a list", line, parent)
        self._open.add(id(node))
        if isinstance(node, yaml.MappingNode):
            self._mapping(node, parent, depth)
        else:
            for item in node.value:
                if not isinstance(item, yaml.ScalarNode) or item.tag in _CHECKED:
                    self.value(item, parent, depth)
        self._open.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, parent: str | None, depth: int) -> None:
        """Keys are read as the text written (``on:`` is 'on', not True; ``1:`` is '1'): they become
        property names and JSON keys, which are text."""
        seen: set[str] = set()
        merges: list[tuple[yaml.Node, int]] = []
        for key_node, value_node in node.value:
            line = _line(key_node)
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _TAG + "binary":
                raise FrontmatterError("Y005", "a key must be text", line, parent)
            key = key_node.value
            if not key or "\0" in key:
                raise FrontmatterError("Y005", f"key {shown(key)} is empty or holds a NUL character", line, parent)
            if key_node.tag == _TAG + "merge":
                merges.append((value_node, line))
            else:
                key_node.tag = _TAG + "str"
            path = key if parent is None else f"{parent}.{key}"
            if key in seen:
                self._out.duplicates.append((path, line))
            seen.add(key)
            if parent is None:
                self._key_line = line
            self._key_at(parent, key, line)
            if not isinstance(value_node, yaml.ScalarNode) or value_node.tag in _CHECKED:
                self.value(value_node, path, depth)
        for merged, line in merges:  # a key written in the mapping wins over a merged one, and so does its line
            for key in _merged_keys(merged) - seen:
                self._key_at(parent, key, line)

    def _key_at(self, parent: str | None, key: str, line: int) -> None:
        if parent is None:
            self._out.key_lines.setdefault(key, line)
        else:
            self._out.nested_key_lines.setdefault((parent, key), line)

    def value(self, node: yaml.Node, path: str | None, depth: int) -> None:
        if not isinstance(node, yaml.ScalarNode):
            self.node(node, path, depth + 1)
        elif node.tag == _TAG + "binary":
            raise FrontmatterError("Y005", "binary data (!!binary) is not allowed; write text", _line(node), path)
        elif node.tag in _TYPED:
            try:  # constructed once: construct_document reuses it
                valid = _storable(self._loader.construct_object(node))
            except (ValueError, LookupError, AttributeError):  # how PyYAML fails on `!!int abc`, `!!bool maybe`
                valid = False
            if not valid:
                raise FrontmatterError("Y005", f"{shown(node.value)} is not {_TYPED[node.tag]}", _line(node), path)


def _merged_keys(node: yaml.Node) -> set[str]:
    """The keys a merge (``<<: *k`` or ``<<: [*a, *b]``) brings in, its own merges' included (the walk has
    already refused a recursive alias)."""
    mappings = node.value if isinstance(node, yaml.SequenceNode) else [node]
    keys: set[str] = set()
    for mapping in mappings:
        if isinstance(mapping, yaml.MappingNode):
            for key_node, value_node in mapping.value:
                keys |= _merged_keys(value_node) if key_node.tag == _TAG + "merge" else {str(key_node.value)}
    return keys


def _storable(value: Any) -> bool:
    """Neo4j stores 64-bit integers; JSON has no infinity or NaN."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return True
    return MIN_INTEGER <= value <= MAX_INTEGER if isinstance(value, int) else math.isfinite(value)


def _line(node: yaml.Node) -> int:
    """The file line a node starts on (the block starts on line 2)."""
    return node.start_mark.line + 2


def _plain(value: Any) -> Any:
    """Dates become ISO text, so every value is JSON- and Neo4j-friendly."""
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):  # tuples: the pairs of !!omap and !!pairs
        return [_plain(v) for v in value]
    return value
