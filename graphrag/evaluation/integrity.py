"""Cross-field rules of the input contract, each reported with the JSON path it concerns.

Field types are pydantic's job; this module checks what no single field can: offsets against
the source text, one corpus snapshot, one span per chunk id, one run per query and arm, and
that the arms differ only in preregistered config keys.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from graphrag.evaluation.spans import splits_surrogate_pair, utf16_length, utf16_units

if TYPE_CHECKING:
    from graphrag.evaluation.contract import ArmConfig, EvaluationInput

Loc = tuple[str | int, ...]
Issue = tuple[Loc, str]

CONFIG_SECTIONS = ("models", "promptHashes", "chunker", "reranker", "generation", "contextSerialization")


class _SourceBounds:
    """Length (and code units, when the text is present) of every source, by id."""

    def __init__(self) -> None:
        self.length: dict[str, int] = {}
        self.units: dict[str, array[int]] = {}

    def check(self, loc: Loc, source_id: str, start: int, end: int) -> list[Issue]:
        if source_id not in self.length:
            return [((*loc, "sourceId"), f"unknown source '{source_id}' (not in corpus.sources)")]
        issues: list[Issue] = []
        length = self.length[source_id]
        units = self.units.get(source_id)
        for name, offset in (("start", start), ("end", end)):
            if offset > length:
                issues.append(((*loc, name), f"offset {offset} is outside the source (UTF-16 length {length})"))
            elif units is not None and splits_surrogate_pair(units, offset):
                issues.append(((*loc, name), "offset splits a surrogate pair"))
        if end <= start:
            issues.append(((*loc, "end"), f"end {end} must be greater than start {start}"))
        return issues


def _corpus(inp: EvaluationInput) -> tuple[_SourceBounds, list[Issue]]:
    bounds = _SourceBounds()
    issues: list[Issue] = []
    snapshot = inp.corpus.snapshot_id
    for index, source in enumerate(inp.corpus.sources):
        loc: Loc = ("corpus", "sources", index)
        if source.source_id in bounds.length:
            issues.append(((*loc, "sourceId"), f"duplicate source '{source.source_id}'"))
            continue
        if source.snapshot_id != snapshot:
            issues.append(
                ((*loc, "snapshotId"), f"source is from snapshot '{source.snapshot_id}', corpus is '{snapshot}'")
            )
        if source.text is None and source.utf16_length is None:
            issues.append((loc, "a source needs its text or its utf16Length so offsets can be checked"))
            continue
        if source.text is not None:
            length = utf16_length(source.text)
            if source.utf16_length is not None and source.utf16_length != length:
                issues.append(((*loc, "utf16Length"), f"utf16Length {source.utf16_length} but the text has {length}"))
            bounds.units[source.source_id] = utf16_units(source.text)
            bounds.length[source.source_id] = length
        elif source.utf16_length is not None:
            bounds.length[source.source_id] = source.utf16_length
    for name, arm in (("baseline", inp.arms.baseline), ("candidate", inp.arms.candidate)):
        if arm.corpus_snapshot_id != snapshot:
            issues.append(
                (
                    ("arms", name, "corpusSnapshotId"),
                    f"arm ran on snapshot '{arm.corpus_snapshot_id}', corpus is '{snapshot}'",
                )
            )
    return bounds, issues


def _queries(inp: EvaluationInput, bounds: _SourceBounds) -> list[Issue]:
    issues: list[Issue] = []
    seen: set[str] = set()
    for q_index, query in enumerate(inp.queries):
        loc: Loc = ("queries", q_index)
        if query.query_id in seen:
            issues.append(((*loc, "queryId"), f"duplicate query '{query.query_id}'"))
        seen.add(query.query_id)
        spans: set[tuple[str, int, int]] = set()
        for e_index, span in enumerate(query.evidence):
            e_loc: Loc = (*loc, "evidence", e_index)
            issues.extend(bounds.check(e_loc, span.source_id, span.start, span.end))
            key = (span.source_id, span.start, span.end)
            if key in spans:
                issues.append((e_loc, "duplicate evidence span"))
            spans.add(key)
    return issues


def _runs(inp: EvaluationInput, bounds: _SourceBounds) -> list[Issue]:
    issues: list[Issue] = []
    query_ids = {query.query_id for query in inp.queries}
    chunk_spans: dict[str, tuple[tuple[str, int, int], str]] = {}
    for name, arm in (("baseline", inp.arms.baseline), ("candidate", inp.arms.candidate)):
        recorded: set[str] = set()
        for r_index, run in enumerate(arm.runs):
            loc: Loc = ("arms", name, "runs", r_index)
            if run.query_id not in query_ids:
                issues.append(((*loc, "queryId"), f"unknown query '{run.query_id}'"))
            elif run.query_id in recorded:
                issues.append(((*loc, "queryId"), f"second run for query '{run.query_id}'"))
            recorded.add(run.query_id)
            in_ranking: set[str] = set()
            for h_index, hit in enumerate(run.hits):
                h_loc: Loc = (*loc, "hits", h_index)
                issues.extend(bounds.check(h_loc, hit.source_id, hit.start, hit.end))
                if hit.chunk_id in in_ranking:
                    issues.append(((*h_loc, "chunkId"), f"chunk '{hit.chunk_id}' appears twice in one ranking"))
                in_ranking.add(hit.chunk_id)
                span = (hit.source_id, hit.start, hit.end)
                first = chunk_spans.setdefault(hit.chunk_id, (span, format_path(h_loc)))
                if first[0] != span:
                    issues.append(
                        ((*h_loc, "chunkId"), f"chunk '{hit.chunk_id}' denotes a different span at {first[1]}")
                    )
        for query_id in sorted(query_ids - recorded):
            issues.append((("arms", name, "runs"), f"no run recorded for query '{query_id}'"))
    return issues


def flatten_config(config: ArmConfig) -> dict[str, object]:
    """``section.key -> value`` for every config entry, keyed by the JSON names."""
    dumped = config.model_dump(by_alias=True)
    return {f"{section}.{key}": value for section in CONFIG_SECTIONS for key, value in dumped[section].items()}


def config_differences(baseline: ArmConfig, candidate: ArmConfig) -> list[str]:
    """Sorted ``section.key`` names whose value (or presence) differs between the arms."""
    base, cand = flatten_config(baseline), flatten_config(candidate)
    return sorted(
        key
        for key in base.keys() | cand.keys()
        if key not in base or key not in cand or _typed(base[key]) != _typed(cand[key])
    )


def _config(inp: EvaluationInput) -> list[Issue]:
    allowed = set(inp.policy.may_differ)
    issues: list[Issue] = []
    for key in config_differences(inp.arms.baseline.config, inp.arms.candidate.config):
        if key not in allowed:
            section, name = key.split(".", 1)
            issues.append(
                (
                    ("arms", "candidate", "config", section, name),
                    f"differs from the baseline but '{key}' is not preregistered in policy.mayDiffer",
                )
            )
    return issues


def _typed(value: object) -> tuple[str, object]:
    """Compare config values with their JSON type, so ``true`` never equals ``1``."""
    return (type(value).__name__ if not isinstance(value, int | float) or isinstance(value, bool) else "n", value)


def _ratings(inp: EvaluationInput) -> list[Issue]:
    issues: list[Issue] = []
    query_ids = {query.query_id for query in inp.queries}
    judged: set[tuple[str, str]] = set()
    for index, rating in enumerate(inp.judge_ratings):
        loc: Loc = ("judgeRatings", index)
        key = (rating.query_id, rating.presented_first)
        if rating.query_id not in query_ids:
            issues.append(((*loc, "queryId"), f"unknown query '{rating.query_id}'"))
        elif key in judged:
            issues.append((loc, f"second judge rating for query '{rating.query_id}' in this order"))
        judged.add(key)
    rated: set[tuple[str, str]] = set()
    for index, human in enumerate(inp.human_ratings):
        loc = ("humanRatings", index)
        pair = (human.query_id, human.rater_id)
        if human.query_id not in query_ids:
            issues.append(((*loc, "queryId"), f"unknown query '{human.query_id}'"))
        elif pair in rated:
            issues.append((loc, f"rater '{human.rater_id}' rated query '{human.query_id}' twice"))
        rated.add(pair)
    return issues


def contract_issues(inp: EvaluationInput) -> list[Issue]:
    """Every cross-field violation of the contract, in document order."""
    bounds, issues = _corpus(inp)
    issues.extend(_queries(inp, bounds))
    issues.extend(_runs(inp, bounds))
    issues.extend(_config(inp))
    issues.extend(_ratings(inp))
    return issues


def format_path(loc: Loc) -> str:
    """``('queries', 3, 'end')`` -> ``queries[3].end``; odd keys are quoted."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("_", "").replace("-", "").isalnum() and not part[:1].isdigit():
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]".replace("'", '"')
    return out or "$"
