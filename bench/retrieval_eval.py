"""Retrieval quality of pack_search's modes on hand-written question files, from the product's own commands.

Example:
    python -m bench.retrieval_eval bench/questions/peps.json bench/questions/pack-personal.json \\
        --modes vector,text,hybrid --baseline vector --out-dir retrieval-eval

Each mode is recorded by `graphrag eval record` (a subprocess, so the hits are what the shipped command
records); mode `default` passes no --mode. Our own figures show where a mode wins: hit@1 and hit@5 of
single-hop questions, evidence recall@5 and @10 of multi-hop ones (macro over questions and micro over
evidence ids), per type/naming and language group, written to DIR/summary.json. For each mode against
the baseline, a complete EvaluationInput goes to `graphrag eval compare`, which adds span recall@10,
precision@5 and coverage@10 with paired bootstrap intervals per stratum (test split only). The questions
are ours (origin synthetic) and the arms carry no answers, judge or human ratings, so the gate outcome
cannot pass: quote the figures and intervals, never the outcome. --context also scores the first ten
entities of the pack_context tool, in process.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from graphrag.config import Settings
from graphrag.evaluation.contract import (
    STRATA,
    Arm,
    Arms,
    Corpus,
    EvaluationInput,
    Judge,
    Policy,
    Query,
    Source,
    Span,
    Split,
    Stratum,
)
from graphrag.evaluation.recording import RETRIEVAL_MODE_KEY, SEARCH_CONFIG_KEY, FoundEntity
from graphrag.evaluation.spans import utf16_length
from graphrag.stores.graph import GraphStore

DEFAULT = "default"  # the tool's own mode: `eval record` without --mode
MODES = (DEFAULT, "hybrid", "vector", "text")
CONTEXT = "context"
CONTEXT_TOOL = "pack_context"
DEPTH = 10
NO_PROMPT = "sha256:" + hashlib.sha256(b"").hexdigest()  # nothing was prompted: the hash of the empty prompt
CONFIG = {  # retrieval only: one entity summary per hit, no generation
    "models": {"generator": "none"},
    "promptHashes": {"answer": NO_PROMPT},
    "chunker": {"unit": "entity-summary"},
    "reranker": {"name": "none"},
    "generation": {"mode": "retrieval-only"},
    "contextSerialization": {"format": "title. summary"},
}
METRICS = ("hit@1", "hit@5", "recall@5", "recall@10", "microRecall@5", "microRecall@10")
SHOWN = ("recallAt10", "precisionAt5", "coverageAt10")


class Question(BaseModel):
    """One line of a question file; evidence names the entity ids that answer it."""

    model_config = ConfigDict(extra="ignore", alias_generator=to_camel, populate_by_name=True)

    query_id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    evidence: list[str] = Field(min_length=1)
    type: Literal["single-hop", "multi-hop"]
    naming: Literal["number", "id", "title", "description"]
    language: str = Field(min_length=1)
    hops: int = Field(default=1, ge=1, description="Typed steps from the start (multi-hop questions).")
    kind: str | None = Field(default=None, description="A generated question's kind (synonym, inverse), if tagged.")
    corpus: str = Field(default="", exclude=True)  # the question file's stem, set when loaded

    @property
    def groups(self) -> tuple[str, ...]:
        kind = f"{self.type}/{self.naming}" + (f"/{self.hops}hops" if self.hops > 1 else "")
        kind += f"/{self.kind}" if self.kind else ""
        return ("all", f"{self.corpus}:{kind}", f"{self.corpus}:lang:{self.language}")

    @property
    def stratum(self) -> Stratum:
        """Named by number or id: identifier; described: concept (one hop) or hard (several)."""
        if self.naming in ("number", "id"):
            return "identifier"
        if self.type == "single-hop":
            return "concept" if self.naming == "description" else "procedure"
        return "hard"

    @property
    def split(self) -> Split:
        """A stable quarter by id hash for development, so a growing file never moves a question."""
        return "development" if hashlib.sha256(self.query_id.encode()).digest()[0] % 4 == 0 else "test"


class QuestionFile(BaseModel):
    """A question file; ``pack`` (optional) limits every search to that pack."""

    model_config = ConfigDict(extra="ignore")

    about: str = ""
    pack: str | None = None
    queries: list[Question] = Field(min_length=1)


def cli(*args: str) -> list[str]:
    """The product's own command line, in this interpreter."""
    command = [sys.executable, "-m", "graphrag.cli", *args]
    print("$ graphrag " + " ".join(args), file=sys.stderr)
    return command


def evidence_sources(files: dict[Path, QuestionFile]) -> dict[str, str]:
    """Source text of every evidence entity, as `eval record` defines it; unknown or out-of-pack ids stop the run."""
    ids = sorted({e for f in files.values() for q in f.queries for e in q.evidence})
    with GraphStore.connect(Settings()) as graph:
        rows = {r["id"]: r for r in graph.read("retrieval_entities", ids=ids)}
    problems = [
        f"{path.name}: {q.query_id}: evidence {e} " + (f"is in pack {rows[e]['pack']}" if e in rows else "is no entity")
        for path, f in files.items()
        for q in f.queries
        for e in q.evidence
        if e not in rows or (f.pack is not None and rows[e]["pack"] != f.pack)
    ]
    if problems:
        sys.exit("\n".join(problems))
    return {i: FoundEntity(i, r["title"], r["summary"] or "").text for i, r in rows.items()}


async def context_rankings(files: dict[Path, QuestionFile]) -> dict[str, list[str]]:
    """Ids of pack_context's first ten entities per question, through the in-process MCP server."""
    from fastmcp import Client
    from fastmcp.exceptions import ToolError

    from graphrag.server.app import create_server

    rankings: dict[str, list[str]] = {}
    async with Client(create_server(Settings())) as client:
        names = sorted(tool.name for tool in await client.list_tools())
        if CONTEXT_TOOL not in names:
            sys.exit(f"--context: the server has no {CONTEXT_TOOL} tool (it has {', '.join(names)}); run without it")
        for f in files.values():
            for q in f.queries:
                arguments: dict[str, Any] = {"question": q.text, **({"packs": [f.pack]} if f.pack else {})}
                try:
                    answer = await client.call_tool(CONTEXT_TOOL, arguments)
                except ToolError as error:
                    sys.exit(f"--context: {CONTEXT_TOOL} failed on {q.query_id}: {error}")
                entities = (answer.structured_content or {}).get("entities", [])
                rankings[q.query_id] = [entity["id"] for entity in entities[:DEPTH]]
    return rankings


def record(arm_spec: str, files: dict[Path, QuestionFile], config: Path, out_dir: Path) -> tuple[Arm, Corpus]:
    """One `graphrag eval record` per question file, merged into one arm and corpus. ``arm_spec`` is a
    mode, or ``LABEL=FILE``: hybrid ranked with that search configuration."""
    mode, _, search_file = arm_spec.partition("=")
    arms: list[Arm] = []
    sources: dict[str, Source] = {}
    for path, f in files.items():
        arm_file, corpus_file = out_dir / f"arm-{path.stem}-{mode}.json", out_dir / f"corpus-{path.stem}-{mode}.json"
        args = ["eval", "record", str(path), "--config", str(config), "--out", str(arm_file)]
        args += ["--corpus-out", str(corpus_file), "--label", mode, "--limit", str(DEPTH)]
        if search_file:
            args += ["--search-config", search_file]
        elif mode != DEFAULT:
            args += ["--mode", mode]
        args += ["--pack", f.pack] if f.pack else []
        if subprocess.run(cli(*args), check=False).returncode != 0:
            sys.exit(f"graphrag eval record failed for {mode} on {path}")
        arms.append(Arm.model_validate_json(arm_file.read_bytes()))
        for source in Corpus.model_validate_json(corpus_file.read_bytes()).sources:
            sources.setdefault(source.source_id, source)
    snapshots = {arm.corpus_snapshot_id for arm in arms}
    if len(snapshots) > 1:
        sys.exit(f"the store changed while recording mode {mode} ({', '.join(sorted(snapshots))}); run again")
    merged = arms[0].model_copy(
        update={"recorded_at": max(a.recorded_at for a in arms), "runs": [r for a in arms for r in a.runs]}
    )
    return merged, Corpus(snapshot_id=merged.corpus_snapshot_id, sources=list(sources.values()))


def figures(questions: Sequence[Question], ranking: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """Per group: hit@k of single-hop questions, evidence recall@k of multi-hop ones (macro and micro)."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for q in questions:
        hits, evidence = ranking.get(q.query_id, []), set(q.evidence)
        for group in q.groups:
            s = sums[group]
            if q.type == "single-hop":
                s["single"] += 1
                s["hit@1"] += bool(evidence & set(hits[:1]))
                s["hit@5"] += bool(evidence & set(hits[:5]))
                continue
            s["multi"] += 1
            s["evidence"] += len(evidence)
            for k in (5, 10):
                found = len(evidence & set(hits[:k]))
                s[f"recall@{k}"] += found / len(evidence)
                s[f"found@{k}"] += found
    out: dict[str, dict[str, float]] = {}
    for group, s in sorted(sums.items(), key=lambda item: (item[0] != "all", item[0].startswith("lang"), item[0])):
        out[group] = {"singleHop": int(s["single"]), "multiHop": int(s["multi"])}
        if s["single"]:
            out[group].update({m: s[m] / s["single"] for m in ("hit@1", "hit@5")})
        if s["multi"]:
            out[group].update({m: s[m] / s["multi"] for m in ("recall@5", "recall@10")})
            out[group].update({f"microRecall@{k}": s[f"found@{k}"] / s["evidence"] for k in (5, 10)})
    return out


def print_tables(summary: dict[str, dict[str, dict[str, float]]]) -> None:
    """One aligned table per metric: a row per mode, a column per group that has the metric."""
    for metric in METRICS:
        groups = list(dict.fromkeys(g for per in summary.values() for g, f in per.items() if metric in f))
        if not groups:
            continue
        count = "singleHop" if metric.startswith("hit") else "multiHop"
        first = next(iter(summary.values()))
        heads = [f"{g.replace('-hop', '')} ({first[g][count]:.0f})" for g in groups]
        widths = [max(len(h), 5) for h in heads]
        left = max(len(metric), *(len(mode) for mode in summary))
        print(f"\n{metric:<{left}}  " + "  ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True)))
        for mode, per in summary.items():
            cells = [f"{per[g][metric]:.3f}" if metric in per.get(g, {}) else "-" for g in groups]
            print(f"{mode:<{left}}  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)))


def experiment(
    questions: Sequence[Question],
    baseline: tuple[Arm, Corpus],
    candidate: tuple[Arm, Corpus],
    evidence: dict[str, str],
    registered_at: datetime,
) -> EvaluationInput:
    """A complete input: our questions (synthetic), both recorded arms, and no judge or human ratings.

    The policy's thresholds are this module's constants, fixed before any arm was recorded; the budget
    is the service's response budget, so recall@10 measures the ranking rather than a packing choice.
    """
    snapshot = baseline[0].corpus_snapshot_id
    texts = {s.source_id: s.text or "" for _, corpus in (baseline, candidate) for s in corpus.sources}
    for entity_id, text in evidence.items():
        texts.setdefault(entity_id, text)
    policy = Policy(
        registered_at=registered_at,
        minimum_recall_gain=0.05,
        maximum_precision_loss=0.02,
        maximum_answer_loss=0.02,
        context_budget=Settings().graphrag_response_budget_bytes,
        may_differ=[f"reranker.{RETRIEVAL_MODE_KEY}", f"reranker.{SEARCH_CONFIG_KEY}"],
    )
    queries = [
        Query(
            query_id=q.query_id,
            text=q.text,
            stratum=q.stratum,
            split=q.split,
            origin="synthetic",  # written by us, not logged from users
            evidence=[Span(source_id=e, start=0, end=utf16_length(texts[e])) for e in dict.fromkeys(q.evidence)],
        )
        for q in questions
    ]
    return EvaluationInput(
        schema_version="1.0",
        experiment_id=f"retrieval-{baseline[0].label}-vs-{candidate[0].label}-{snapshot}",
        provenance="recorded",  # the arms are real recordings of the service; the questions' origin says synthetic
        policy=policy,
        corpus=Corpus(
            snapshot_id=snapshot,
            sources=[Source(source_id=i, snapshot_id=snapshot, text=text) for i, text in sorted(texts.items())],
        ),
        queries=queries,
        arms=Arms(baseline=baseline[0], candidate=candidate[0]),
        judge=Judge(model="none", revision="none", prompt_hash=NO_PROMPT),  # no judge ran
        judge_ratings=[],
        human_ratings=[],
    )


def compare(path: Path, report_path: Path) -> dict[str, Any]:
    """`graphrag eval compare` on one input; exits 0 and 1 are verdicts, anything else stops the run."""
    result = subprocess.run(cli("eval", "compare", str(path)), capture_output=True, text=True, check=False)
    if result.returncode not in (0, 1):
        sys.exit(f"graphrag eval compare {path} exited {result.returncode}:\n{result.stderr}")
    report_path.write_text(result.stdout, encoding="utf-8")
    return dict(json.loads(result.stdout))


def print_report(report: dict[str, Any]) -> None:
    """The span metrics with their intervals, per-stratum means, and the outcome with its reasons."""
    arms, comparison = report["arms"], report["comparison"]
    base, cand = arms["baseline"]["label"], arms["candidate"]["label"]
    print(f"\n{base} vs {cand}: {comparison['queries']} test queries, outcome {report['outcome']}")
    for metric in SHOWN:
        m = report["metrics"][metric]
        low, high = m["interval95"]
        print(
            f"  {metric:<13} {base} {m['baseline']:.3f}  {cand} {m['candidate']:.3f}  "
            f"diff {m['difference']:+.3f} [{low:+.3f}, {high:+.3f}]  {m['reading']}"
        )
    for stratum in STRATA:
        entry = comparison["byStratum"][stratum]
        if entry["queries"]:
            cells = [f"{m} {entry[m]['baseline']:.3f}->{entry[m]['candidate']:.3f}" for m in SHOWN]
            print(f"  {stratum:<10} n={entry['queries']:<4} " + "  ".join(cells))
    for reason in report["reasons"]:
        print(f"  - {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("questions", nargs="+", type=Path, help="Question files (JSON).")
    parser.add_argument(
        "--modes",
        default="vector,text,hybrid",
        help=f"Comma-separated, of {', '.join(MODES)}, or LABEL=FILE: hybrid with that search configuration.",
    )
    parser.add_argument("--baseline", help="The mode or label the others are compared with (default: the first).")
    parser.add_argument("--out-dir", type=Path, help="Where arms, inputs and reports go (default: a temp dir).")
    parser.add_argument("--context", action="store_true", help=f"Also score {CONTEXT_TOOL}'s entities.")
    args = parser.parse_args()
    specs = list(dict.fromkeys(m.strip() for m in args.modes.split(",") if m.strip()))
    labels = {spec.partition("=")[0]: spec for spec in specs}
    baseline = args.baseline or next(iter(labels), "")
    if any(spec not in MODES and "=" not in spec for spec in specs) or baseline not in labels:
        parser.error(f"--modes takes {', '.join(MODES)} or LABEL=FILE, and --baseline must be one of them")
    registered_at = datetime.now(UTC)  # the policy's constants are fixed before any arm is recorded
    files = {path: QuestionFile.model_validate_json(path.read_bytes()) for path in args.questions}
    for path, f in files.items():
        for q in f.queries:
            q.corpus = path.stem
    questions = [q for f in files.values() for q in f.queries]
    repeated = sorted(i for i, n in Counter(q.query_id for q in questions).items() if n > 1)
    if repeated:
        sys.exit(f"query ids repeat across the question files: {', '.join(repeated)}")
    out_dir: Path = args.out_dir or Path(tempfile.mkdtemp(prefix="retrieval-eval-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    evidence = evidence_sources(files)
    rankings = {CONTEXT: asyncio.run(context_rankings(files))} if args.context else {}  # before record opens Qdrant
    config = out_dir / "config.json"
    config.write_text(json.dumps(CONFIG, indent=2) + "\n", encoding="utf-8")
    recorded = {label: record(spec, files, config, out_dir) for label, spec in labels.items()}
    modes = list(labels)
    if len({arm.corpus_snapshot_id for arm, _ in recorded.values()}) > 1:
        sys.exit("the store changed between the modes' recordings; run again on a quiet store")
    for mode, (arm, _) in recorded.items():
        rankings[mode] = {run.query_id: [hit.source_id for hit in run.hits] for run in arm.runs}
    summary = {name: figures(questions, rankings[name]) for name in [*modes, CONTEXT] if name in rankings}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print_tables(summary)
    for mode in modes:
        if mode == baseline:
            continue
        name = f"{baseline}-vs-{mode}"
        inp = experiment(questions, recorded[baseline], recorded[mode], evidence, registered_at)
        path = out_dir / f"compare-{name}.json"
        path.write_text(inp.model_dump_json(indent=2, exclude_none=True) + "\n", encoding="utf-8")
        print_report(compare(path, out_dir / f"report-{name}.json"))
    print(f"\nfiles in {out_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
