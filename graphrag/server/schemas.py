"""Tool registration with output schemas that clients validate quickly, and the length limit of every string
argument (``Bounded``).

Clients check every structured result against the tool's output schema (the MCP SDK's client does, with
``jsonschema``), so a schema's shape is paid for on every call, per result item. Pydantic spells an
optional field ``X | None`` as ``anyOf: [{type: X}, {type: null}]``, which a validator enters as two
sub-schemas per value; ``type: [X, "null"]`` accepts exactly the same values in one check. For a
100-node ``pack_graph`` answer that is about a third of the client's validation time.
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


def add_tool(mcp: FastMCP, fn: Callable[..., Any], annotations: ToolAnnotations) -> None:
    """Register ``fn`` as a tool whose output schema is ``compact_nullables`` of the one FastMCP derives."""
    tool = FunctionTool.from_function(fn, annotations=annotations)
    if tool.output_schema is not None:
        tool.output_schema = compact_nullables(tool.output_schema)
    mcp.add_tool(tool)
