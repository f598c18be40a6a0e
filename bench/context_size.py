"""How large ``pack_context``'s answers are on a real, already ingested pack, asked its own questions: the
median, p90 and largest size of the answer's JSON (what an agent reads) and on the wire (the JSON text block
and the structured content, as the response budget counts them), per question kind, through the in-process
MCP client.

    python -m bench.context_size QUESTIONS.json [--show QUESTION]

QUESTIONS.json is a question file as bench/questions/*.json (its ``pack`` names the pack, which must be
ingested into the stores the environment names). An answer should hold what supports the question, not
fill the budget (docs/mcp.md, pack_context); ``--show`` prints the answer to a question of your own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from fastmcp import Client
from mcp.types import CallToolResult

from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.server.app import create_server


def sizes(result: Any) -> tuple[int, int]:
    """Bytes of the answer's compact JSON, and of the tool result on the wire."""
    answer = json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))
    wire = CallToolResult(content=result.content, structured_content=result.structured_content)
    return len(answer.encode()), len(wire.model_dump_json(by_alias=True, exclude_none=True).encode())


async def measured(questions: list[dict[str, Any]], pack: str, show: str | None) -> dict[str, list[tuple[int, int]]]:
    settings = Settings()
    server = create_server(settings, embedder=load_embedder(settings.graphrag_embedder))
    found: dict[str, list[tuple[int, int]]] = defaultdict(list)
    async with Client(server) as client:
        for question in questions:
            result = await client.call_tool("pack_context", {"question": question["text"], "packs": [pack]})
            found[question["type"]].append(sizes(result))
            found["all"].append(sizes(result))
        if show:
            result = await client.call_tool("pack_context", {"question": show, "packs": [pack]})
            print(json.dumps(result.structured_content, indent=1, ensure_ascii=False))
            print("{:,} bytes of JSON, {:,} on the wire\n".format(*sizes(result)))
    return found


def spread(values: list[int]) -> str:
    p90 = statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]
    return f"{statistics.median(values):>8,.0f} {p90:>8,.0f} {max(values):>8,}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--show", metavar="QUESTION", help="Also ask this, and print its answer (not counted).")
    args = parser.parse_args()
    data = json.loads(args.questions.read_text(encoding="utf-8"))
    found = asyncio.run(measured(data["queries"], data["pack"], args.show))
    print(f"pack_context answers to {args.questions.name}, pack {data['pack']}, in bytes")
    print(f"{'':<18} {'JSON':^26}  {'wire':^26}")
    print(f"{'kind':<12} {'n':>5} " + f"{'median':>8} {'p90':>8} {'max':>8}  " * 2)
    for kind, pairs in sorted(found.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        answers, wires = ([pair[i] for pair in pairs] for i in (0, 1))
        print(f"{kind:<12} {len(pairs):>5} {spread(answers)}  {spread(wires)}")


if __name__ == "__main__":
    main()
