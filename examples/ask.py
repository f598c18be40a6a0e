"""Ask the example pack questions over MCP, as an agent would: `python -m examples.ask`.

Starts `graphrag serve` as a subprocess on stdio (the transport a desktop client uses), calls
each tool, and prints the gist of each structured answer. The server gets this process's environment
(NEO4J_PASSWORD, NEO4J_URI, GRAPHRAG_HOME, ...): a stdio client passes only a few safe variables
(HOME, PATH, ...) unless it is given the environment, and the server would then try the defaults.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from fastmcp import Client
from fastmcp.client.transports import StdioTransport


def server_command() -> str:
    beside = Path(sys.executable).with_name("graphrag")
    return str(beside) if beside.exists() else shutil.which("graphrag") or "graphrag"


async def ask(client: Client[Any], tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    print(f"\n>>> {tool}({json.dumps(arguments, ensure_ascii=False)})")
    result = await client.call_tool(tool, arguments)
    answer = result.structured_content or {}
    return answer


async def main() -> None:
    async with Client(StdioTransport(command=server_command(), args=["serve"], env=dict(os.environ))) as client:
        found = await ask(client, "pack_search", {"query": "первая мягкая посадка на Луну", "limit": 3})
        for hit in found["results"]:
            print(f"  {hit['score']:.3f}  {hit['id']:<22} {hit['title']}")

        walked = await ask(
            client, "pack_graph", {"id": "SM.MISSION.LUNA9", "path": ["part_of", "operated_by", "led_by"]}
        )
        print(f"  reached: {', '.join(walked['reached'])}")
        for path in walked["paths"]:
            print("  " + " -> ".join(path))

        linked = await ask(client, "pack_graph", {"id": "SM.MISSION.APOLLO11", "to": "SM.PERSON.VONBRAUN", "depth": 4})
        for path in linked["paths"]:
            print("  " + " -> ".join(path))

        entity = await ask(client, "pack_get", {"id": "SM.VEHICLE.SATURNV"})
        print(f"  {entity['title']}: {entity['summary']}")
        for link in entity["outgoing"]:
            print(f"  -[{link['relation']}]-> {link['title']}")
        for link in entity["incoming"]:
            print(f"  <-[{link['relation']}]- {link['title']}")

        await ask(
            client,
            "save_memory",
            {
                "content": "Demo: Luna 9 landed on 3 February 1966.",
                "source_id": "missions/luna-9.md",
                "fact_key": "demo.luna9.landing",
            },
        )
        memory = await ask(client, "search", {"query": "Luna landed"})
        for record in memory["result"]:
            print(f"  [{record['status']}] {record['content']}")


if __name__ == "__main__":
    asyncio.run(main())
