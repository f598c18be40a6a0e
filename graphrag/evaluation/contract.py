"""The versioned input contract of the offline retrieval evaluator (``EvaluationInput``).

Everything the decision depends on is a recorded observation in this file, so the model is
strict: unknown fields, wrong types, non-finite numbers and inconsistent offsets are
validation errors with a JSON path, and nothing missing is ever filled with a default that
could favour the candidate. Cross-field rules live in :mod:`graphrag.evaluation.integrity`.
"""

from __future__ import annotations

import math
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

from graphrag.evaluation.integrity import contract_issues

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
