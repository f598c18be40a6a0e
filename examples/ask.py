"""Ask the example pack three questions over MCP, as an agent would: `python -m examples.ask`.

Starts `graphrag serve` as a subprocess on stdio (the same transport a desktop client uses)
and prints each tool call with its structured answer.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from fastmcp import Client
from fastmcp.client.transports import StdioTransport

QUESTIONS: list[tuple[str, dict[str, Any]]] = [
    ("pack_search", {"query": "первая мягкая посадка на Луну", "limit": 3}),
    ("pack_graph", {"id": "SM.MISSION.LUNA9", "path": ["part_of", "operated_by", "led_by"]}),
    ("pack_graph", {"id": "SM.MISSION.APOLLO11", "to": "SM.PERSON.VONBRAUN", "depth": 4}),
    ("pack_get", {"id": "SM.VEHICLE.SATURNV"}),
]


def server_command() -> str:
    beside = Path(sys.executable).with_name("graphrag")
    return str(beside) if beside.exists() else shutil.which("graphrag") or "graphrag"


async def main() -> None:
    async with Client(StdioTransport(command=server_command(), args=["serve"])) as client:
        for tool, arguments in QUESTIONS:
            result = await client.call_tool(tool, arguments)
            print(f"\n>>> {tool}({json.dumps(arguments, ensure_ascii=False)})")
            print(json.dumps(result.structured_content, ensure_ascii=False, indent=2)[:3000])


if __name__ == "__main__":
    asyncio.run(main())
