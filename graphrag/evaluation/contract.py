"""The versioned input contract of the offline retrieval evaluator (``EvaluationInput``).

Everything the decision depends on is a recorded observation in this file, so the model is
strict: unknown fields, wrong types, non-finite numbers and inconsistent offsets are
validation errors with a JSON path, and nothing missing is ever filled with a default that
could favour the candidate. Below the fields, the cross-field rules, each reported with the JSON path it
concerns: what no single field can check (offsets against the source text, one corpus snapshot, one span per
chunk id, one run per query and arm, arms that differ only in preregistered config keys). One module: the
fields and the rules that read them need each other.
"""

from __future__ import annotations

import math
from array import array
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic_core import InitErrorDetails, PydanticCustomError

from graphrag.evaluation.spans import splits_surrogate_pair, utf16_length, utf16_units

SCHEMA_VERSION = "1.0"

Stratum = Literal["identifier", "concept", "procedure", "hard"]
STRATA: tuple[Stratum, ...] = ("identifier", "concept", "procedure", "hard")
Split = Literal["development", "test"]
Origin = Literal["wp443", "platform_log", "synthetic"]
REAL_ORIGINS: frozenset[str] = frozenset({"wp443", "platform_log"})
ArmName = Literal["baseline", "candidate"]
ARM_NAMES: tuple[ArmName, ...] = ("baseline", "candidate")
Preference = Literal["baseline", "candidate", "tie"]
Provenance = Literal["recorded", "fixture", "synthetic"]

FLOATING_REVISIONS = frozenset({"latest", "main", "master", "head", "stable", "default", "current"})

Identifier = Annotated[str, StringConstraints(min_length=1, max_length=256, pattern=r"^\S(?:.*\S)?$")]
ConfigKey = Annotated[str, StringConstraints(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
QualifiedKey = Annotated[str, StringConstraints(min_length=3, max_length=260, pattern=r"^[A-Za-z]+\.[A-Za-z0-9_-]+$")]
Text = Annotated[str, StringConstraints(min_length=1)]
Offset = Annotated[int, Field(ge=0)]
PromptHash = Annotated[str, StringConstraints(pattern=r"^sha256:[0-9a-f]{64}$")]


def _pinned(revision: str) -> str:
    if revision.lower() in FLOATING_REVISIONS:
        raise PydanticCustomError(
            "floating_revision", "'{rev}' is a moving reference; pin a revision", {"rev": revision}
        )
    return revision


PinnedRevision = Annotated[Identifier, AfterValidator(_pinned)]


def _scalar(value: Any) -> float | int | str | bool:
    """Config values are finite numbers, strings or booleans, nothing else."""
    if isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        raise PydanticCustomError("finite_number", "config values must be finite numbers")
    raise PydanticCustomError("config_scalar", "config values must be a finite number, a string or a boolean")


ConfigValue = Annotated[
    float | int | str | bool,
    PlainValidator(_scalar),
    WithJsonSchema({"anyOf": [{"type": "number"}, {"type": "string"}, {"type": "boolean"}]}),
]
Settings = Annotated[dict[ConfigKey, ConfigValue], Field(min_length=1)]


class Strict(BaseModel):
    """Shared configuration: camelCase JSON, no extras, no coercion, no NaN, immutable."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        allow_inf_nan=False,
        frozen=True,
    )


class Policy(Strict):
    """Decision thresholds, fixed and timestamped before either arm is recorded."""

    registered_at: AwareDatetime
    minimum_recall_gain: Annotated[float, Field(gt=0, le=1)]
    maximum_precision_loss: Annotated[float, Field(ge=0, le=1)]
    maximum_answer_loss: Annotated[float, Field(ge=0, le=1)]
    context_budget: Annotated[int, Field(gt=0, description="Common context budget in UTF-16 code units.")]
    may_differ: Annotated[
        list[QualifiedKey],
        Field(description="Config keys (section.key) the arms are allowed to differ in."),
    ]


class Source(Strict):
    """One document of the frozen corpus; its text (or at least its length) bounds offsets."""

    source_id: Identifier
    snapshot_id: Identifier
    text: str | None = None
    utf16_length: Annotated[int | None, Field(ge=0)] = None


class Corpus(Strict):
    snapshot_id: Identifier
    sources: Annotated[list[Source], Field(min_length=1)]


class Span(Strict):
    """A half-open ``[start, end)`` range of UTF-16 code units in one source."""

    source_id: Identifier
    start: Offset
    end: Offset


class Query(Strict):
    query_id: Identifier
    text: Text
    stratum: Stratum
    split: Split
    origin: Origin
    evidence: Annotated[list[Span], Field(min_length=1)]


class Hit(Strict):
    chunk_id: Identifier
    source_id: Identifier
    start: Offset
    end: Offset


class Claim(Strict):
    """One claim of a generated answer; ``supported`` is the calibrated judge's verdict."""

    text: Text
    citations: list[Identifier]
    supported: bool


class Answer(Strict):
    text: str
    claims: list[Claim]


class Run(Strict):
    """What one arm retrieved (raw ranking, best first) and generated for one query."""

    query_id: Identifier
    hits: list[Hit]
    answer: Answer


class ArmConfig(Strict):
    models: Annotated[dict[ConfigKey, PinnedRevision], Field(min_length=1)]
    prompt_hashes: Annotated[dict[ConfigKey, PromptHash], Field(min_length=1)]
    chunker: Settings
    reranker: Settings
    generation: Settings
    context_serialization: Settings


class Arm(Strict):
    label: Identifier
    recorded_at: AwareDatetime
    corpus_snapshot_id: Identifier
    config: ArmConfig
    runs: list[Run]


class Arms(Strict):
    baseline: Arm
    candidate: Arm


class Judge(Strict):
    model: Identifier
    revision: PinnedRevision
    prompt_hash: PromptHash


class JudgeRating(Strict):
    """The judge's preference with one presentation order, already decoded to arm names."""

    query_id: Identifier
    presented_first: ArmName
    preference: Preference


class HumanRating(Strict):
    query_id: Identifier
    rater_id: Identifier
    preference: Preference


class EvaluationInput(Strict):
    """A complete, frozen experiment: policy, corpus, labelled queries, both arms, ratings."""

    model_config = ConfigDict(title="EvaluationInput")

    schema_version: Literal["1.0"]
    experiment_id: Identifier
    provenance: Provenance
    policy: Policy
    corpus: Corpus
    queries: Annotated[list[Query], Field(min_length=1)]
    arms: Arms
    judge: Judge
    judge_ratings: list[JudgeRating]
    human_ratings: list[HumanRating]

    @model_validator(mode="after")
    def _consistent(self) -> EvaluationInput:
        issues = contract_issues(self)
        if issues:
            raise ValidationError.from_exception_data(
                "EvaluationInput",
                [
                    InitErrorDetails(type=PydanticCustomError("contract", message), loc=loc, input=None)
                    for loc, message in issues
                ],
            )
        return self

    def arm(self, name: ArmName) -> Arm:
        return self.arms.baseline if name == "baseline" else self.arms.candidate


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of the input (field names as they appear in JSON)."""
    schema = EvaluationInput.model_json_schema(by_alias=True, mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"urn:graphrag:evaluation-input:{SCHEMA_VERSION}"
    return schema


# Cross-field rules

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
    query_ids = {query.query_id for query in inp.queries}
    judge = [
        (r.query_id, str(r.presented_first), f"second judge rating for query '{r.query_id}' in this order")
        for r in inp.judge_ratings
    ]
    human = [
        (h.query_id, h.rater_id, f"rater '{h.rater_id}' rated query '{h.query_id}' twice") for h in inp.human_ratings
    ]
    return _each_once("judgeRatings", judge, query_ids) + _each_once("humanRatings", human, query_ids)


def _each_once(section: str, ratings: list[tuple[str, str, str]], query_ids: set[str]) -> list[Issue]:
    """Ratings (query id, what may not repeat for it, what to say if it does) of known queries, each once."""
    issues: list[Issue] = []
    seen: set[tuple[str, str]] = set()
    for index, (query_id, second, repeated) in enumerate(ratings):
        loc: Loc = (section, index)
        if query_id not in query_ids:
            issues.append(((*loc, "queryId"), f"unknown query '{query_id}'"))
        elif (query_id, second) in seen:
            issues.append((loc, repeated))
        seen.add((query_id, second))
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
