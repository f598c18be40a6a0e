"""Tool registration with schemas every client can use and every conversation can afford, and the length limit
of every string argument (``Bounded``).

Input schemas: an optional argument is its own type (``type: array``), not pydantic's ``anyOf: [array, null]``
with ``default: null``: clients that build arguments from the schema (the MCP Inspector's CLI turns
``packs=["x"]`` into a list only for ``type: array``) cannot read an ``anyOf``; leaving the argument out means
null. Output schemas are an outline: the answer's top-level fields with their JSON types (arrays with their
items' type), no descriptions. A client learns that a tool answers structured content and its shape, while
tools/list stays small enough to send in every conversation (docs/mcp.md says what each field means; the full
nested schemas were 60% of a 32 KB tool list). ``type: [X, "null"]`` spells a nullable field in one check,
which a validator enters once instead of two ``anyOf`` branches.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastmcp import FastMCP
from fastmcp.tools import FunctionTool
from mcp.types import ToolAnnotations
from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from graphrag.names import MAX_ID_LENGTH

# destructive and idempotent mean something only where a tool writes (MCP's ToolAnnotations): not sent for readers
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
# Keywords that only constrain values of their own type, so they keep their meaning beside "null".
_TYPE_SCOPED = frozenset({"type", "items", "format"})
_NULL = {"type": "null"}


@dataclass(frozen=True)
class Bounded:
    """A string argument's limit: at most ``chars`` characters once NFC-normalised (an ``e`` and a combining
    accent count once) and ``utf8`` bytes of UTF-8 as sent (4 per character unless given). Without it a long
    value reached Neo4j, which refuses an index key of some kilobytes with an error the caller saw as
    ``internal``; past the limit the call is ``invalid_argument`` before any store is touched. The tool's
    input schema says ``maxLength: chars``."""

    chars: int
    utf8: int | None = None

    @property
    def max_bytes(self) -> int:
        return self.utf8 if self.utf8 is not None else 4 * self.chars

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        found = handler(schema)
        found["maxLength"] = self.chars
        return found

    def _check(self, value: str) -> str:
        chars = len(unicodedata.normalize("NFC", value))
        size = len(value.encode("utf-8", "surrogatepass"))
        if chars > self.chars or size > self.max_bytes:
            raise ValueError(
                f"at most {self.chars:,} characters and {self.max_bytes:,} bytes of UTF-8 "
                f"(this has {chars:,} characters, {size:,} bytes)"
            )
        return value


# The limits of the tools' string arguments, by what they hold (docs/mcp.md, "Argument limits").
EntityId = Annotated[str, Bounded(MAX_ID_LENGTH)]  # entity and pack ids: the packs' own limit
Name = Annotated[str, Bounded(200)]  # kinds, relations, workspaces, scopes, sources of memory
Query = Annotated[str, Bounded(2_000)]  # a query or question (the embedder reads far less)
Cursor = Annotated[str, Bounded(2_000)]  # a paging cursor this server gave out
Key = Annotated[str, Bounded(500)]  # indexed keys of memory: source_id, fact_key
Digest = Annotated[str, Bounded(200)]  # hashes, revisions, record and observation ids, blob shas


def compact_nullables(schema: Any) -> Any:
    """``schema`` with each ``anyOf: [{type: X, ...}, {type: null}]`` spelled ``type: [X, "null"], ...``.

    Only branches whose keywords all apply to one JSON type alone (``type``, ``items``, ``format``) are
    merged, so the set of accepted values never changes; an ``enum`` or ``const`` branch stays as it is.
    """
    if isinstance(schema, list):
        return [compact_nullables(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: compact_nullables(value) for key, value in schema.items()}
    branches = out.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and _NULL in branches:
        other = branches[1 - branches.index(_NULL)]
        if isinstance(other, dict) and isinstance(other.get("type"), str) and set(other) <= _TYPE_SCOPED:
            del out["anyOf"]
            out.update(other)
            out["type"] = [other["type"], "null"]
    return out


def plain_optionals(schema: dict[str, Any]) -> dict[str, Any]:
    """An input schema whose optional arguments (``X | None = None``) say their own type only: the branch that
    is not null, with the argument's description, and no ``default: null`` (left out is null)."""
    properties = {}
    for name, prop in schema.get("properties", {}).items():
        branches = prop.get("anyOf")
        if prop.get("default", 0) is None and isinstance(branches, list) and len(branches) == 2 and _NULL in branches:
            rest = {key: value for key, value in prop.items() if key not in ("anyOf", "default")}
            prop = {**branches[1 - branches.index(_NULL)], **rest}
        properties[name] = prop
    return {**schema, "properties": properties}


def outline(schema: dict[str, Any]) -> dict[str, Any]:
    """The output schema a client is sent: the top-level fields with their types (``_typed``), which are required,
    and FastMCP's marker of a wrapped result; every value of the full schema fits it."""
    defs = schema.get("$defs", {})
    out: dict[str, Any] = {
        "type": "object",
        "properties": {name: _typed(prop, defs) for name, prop in schema.get("properties", {}).items()},
    }
    if schema.get("required"):
        out["required"] = schema["required"]
    return {**out, **{key: value for key, value in schema.items() if key.startswith("x-")}}


def _typed(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A field's JSON type (nullable as ``[X, "null"]``), and an array's items' type; anything else, any value."""
    compact = compact_nullables(_dereferenced(prop, defs))
    if "type" not in compact:
        types = [branch.get("type") for branch in compact.get("anyOf", [])]
        if not types or not all(isinstance(t, str) for t in types):
            return {}
        compact = {"type": types[0] if len(types) == 1 else types}
    out: dict[str, Any] = {"type": compact["type"]}
    items = _dereferenced(compact.get("items"), defs)
    if isinstance(items, dict) and "type" in items:
        out["items"] = {"type": items["type"]}
    return out


def _dereferenced(value: Any, defs: dict[str, Any]) -> Any:
    """``value`` with a ``$ref`` to ``$defs`` (and those of its ``anyOf`` branches) replaced by the definition."""
    if isinstance(value, dict) and isinstance(value.get("$ref"), str):
        return defs.get(value["$ref"].rsplit("/", 1)[-1], {})
    if isinstance(value, dict) and isinstance(value.get("anyOf"), list):
        return {**value, "anyOf": [_dereferenced(branch, defs) for branch in value["anyOf"]]}
    return value


def add_tool(mcp: FastMCP, fn: Callable[..., Any], annotations: ToolAnnotations) -> None:
    """Register ``fn`` as a tool with ``plain_optionals`` inputs and an ``outline`` of the output FastMCP derives."""
    tool = FunctionTool.from_function(fn, annotations=annotations)
    tool.parameters = plain_optionals(tool.parameters)
    if tool.output_schema is not None:
        tool.output_schema = outline(tool.output_schema)
    mcp.add_tool(tool)
