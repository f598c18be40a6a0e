"""Tool latency on a real, already ingested pack, asked its own questions: p50/p95 of hybrid, text and
vector ``pack_search`` and of ``pack_context`` through the in-process MCP client, per question kind.

    python -m bench.question_latency QUESTIONS.json [--runs 2]

QUESTIONS.json is a question file as bench/questions/*.json (its ``pack`` names the pack to search, which
must be ingested into the stores the environment names). bench/mcp_tools.py times a synthetic pack whose
every entity shares the same few words, a worst case for full text (its phrase clauses read positions in
every document); real text is what an agent asks, so this bench times the same tools on a real pack.
Each question is asked once per tool after one untimed round, so caches hold what a running server's do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from fastmcp import Client

from bench.mcp_tools import percentiles
from graphrag.config import Settings
from graphrag.embedding import load_embedder
from graphrag.server.app import create_server

TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "hybrid": ("pack_search", {}),
    "text": ("pack_search", {"mode": "text"}),
    "vector": ("pack_search", {"mode": "vector"}),
    "context": ("pack_context", {}),
}


def kind_of(question: dict[str, Any]) -> str:
    if question["type"] == "single-hop":
        return "single-hop"
    return f"{question.get('hops', 1)}-hop {question.get('naming', '')}".strip()


async def timings(questions: list[dict[str, Any]], pack: str, rounds: int) -> dict[tuple[str, str], list[float]]:
    settings = Settings()
    server = create_server(settings, embedder=load_embedder(settings.graphrag_embedder))
    samples: dict[tuple[str, str], list[float]] = defaultdict(list)
    async with Client(server) as client:
        for round_ in range(rounds + 1):
            for question in questions:
                for label, (tool, extra) in TOOLS.items():
                    field = "question" if tool == "pack_context" else "query"
                    started = time.perf_counter()
                    await client.call_tool(tool, {field: question["text"], "packs": [pack], **extra})
                    if round_:
                        elapsed = time.perf_counter() - started
                        samples[(label, kind_of(question))].append(elapsed)
                        samples[(label, "all")].append(elapsed)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--runs", type=int, default=1, help="Timed rounds over every question (after one untimed).")
    parser.add_argument("--sample", type=int, default=200, help="Questions asked, spread over the file.")
    args = parser.parse_args()
    data = json.loads(args.questions.read_text(encoding="utf-8"))
    questions = data["queries"]
    step = max(1, len(questions) // args.sample)
    chosen = questions[::step][: args.sample]
    samples = asyncio.run(timings(chosen, data["pack"], args.runs))
    print(f"{len(chosen)} questions of {args.questions.name}, pack {data['pack']}, {args.runs} timed round(s)")
    print(f"{'tool':<8} {'kind':<18} {'n':>5} {'p50':>9} {'p95':>9}")
    for (label, kind), values in sorted(samples.items(), key=lambda kv: (kv[0][1] != "all", kv[0])):
        p50, p95 = percentiles(values)
        print(f"{label:<8} {kind:<18} {len(values):>5} {p50:>7.1f}ms {p95:>7.1f}ms")


if __name__ == "__main__":
    main()
