"""Blind human labelling: export without arm names, a separate decoding key, and re-import.

Annotators see each development question with two answers labelled A and B and the context
each answer was given. Which arm is A, and the item order, come from SHA-256 of a seed, the
experiment id and the query id: deterministic (byte-identical reruns) yet opaque without the
seed and the experiment file. The key alone maps A/B back to baseline/candidate on import.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Final, Literal

from graphrag.errors import InvalidArgument
from graphrag.evaluation.contract import (
    ARM_NAMES,
    ArmName,
    EvaluationInput,
    HumanRating,
    Identifier,
    Preference,
    Query,
    Strict,
)
from graphrag.evaluation.loading import ContractError
from graphrag.evaluation.metrics import RECALL_DEPTH, select_context
from graphrag.evaluation.spans import utf16_slice

EXPORT_FORMAT: Final = "graphrag.eval.blind-labels/v1"
KEY_FORMAT: Final = "graphrag.eval.annotation-key/v1"
DEFAULT_SEED = 42
INSTRUCTIONS = (
    "For each item, compare answers A and B on evidence support and completeness, not style: "
    "which answer's claims are supported by its own context and cover what the question needs? "
    "Set preference to 'A', 'B' or 'tie' and raterId to your identifier. Leave both null to skip."
)
Letter = Literal["A", "B", "tie"]


class ContextChunk(Strict):
    chunk_id: str
    source_id: str
    start: int
    end: int
    text: str | None


class BlindClaim(Strict):
    text: str
    citations: list[str]


class BlindAnswer(Strict):
    text: str
    claims: list[BlindClaim]
    context: list[ContextChunk]


class LabelItem(Strict):
    item_id: Identifier
    question: str
    answer_a: BlindAnswer
    answer_b: BlindAnswer
    preference: Letter | None
    rater_id: Identifier | None


class LabelFile(Strict):
    format: Literal["graphrag.eval.blind-labels/v1"]
    experiment_id: str
    key_id: str
    instructions: str
    items: list[LabelItem]


class KeyItem(Strict):
    item_id: Identifier
    query_id: Identifier
    answer_a: ArmName
    answer_b: ArmName


class KeyFile(Strict):
    format: Literal["graphrag.eval.annotation-key/v1"]
    experiment_id: str
    key_id: str
    seed: int
    items: list[KeyItem]


def _digest(seed: int, experiment_id: str, purpose: str, query_id: str) -> bytes:
    return hashlib.sha256("\0".join((str(seed), experiment_id, purpose, query_id)).encode()).digest()


def _key_id(inp: EvaluationInput, seed: int) -> str:
    ids = "\0".join(sorted(q.query_id for q in inp.queries if q.split == "development"))
    return hashlib.sha256(f"{seed}\0{inp.experiment_id}\0{ids}".encode()).hexdigest()[:16]


def assignments(inp: EvaluationInput, seed: int = DEFAULT_SEED) -> list[tuple[str, Query, ArmName]]:
    """``(item id, query, arm shown as A)`` for every development query, in shuffled order."""
    development = [q for q in inp.queries if q.split == "development"]
    ordered = sorted(development, key=lambda q: (_digest(seed, inp.experiment_id, "order", q.query_id), q.query_id))
    result: list[tuple[str, Query, ArmName]] = []
    for index, query in enumerate(ordered, start=1):
        flip = _digest(seed, inp.experiment_id, "sides", query.query_id)[0] & 1
        result.append((f"item-{index:04d}", query, "candidate" if flip else "baseline"))
    return result


class _Blinder:
    """Builds the A/B answers of one experiment, with each answer's own packed context."""

    def __init__(self, inp: EvaluationInput) -> None:
        self.budget = inp.policy.context_budget
        self.texts = {s.source_id: s.text for s in inp.corpus.sources}
        self.runs = {name: {run.query_id: run for run in inp.arm(name).runs} for name in ARM_NAMES}

    def _text(self, source_id: str, start: int, end: int) -> str | None:
        text = self.texts.get(source_id)
        return None if text is None else utf16_slice(text, start, end)

    def answer(self, arm: ArmName, query_id: str) -> BlindAnswer:
        run = self.runs[arm][query_id]
        context = select_context(run.hits, self.budget)[:RECALL_DEPTH]
        return BlindAnswer(
            text=run.answer.text,
            claims=[BlindClaim(text=c.text, citations=list(c.citations)) for c in run.answer.claims],
            context=[
                ContextChunk(
                    chunk_id=h.chunk_id,
                    source_id=h.source_id,
                    start=h.start,
                    end=h.end,
                    text=self._text(h.source_id, h.start, h.end),
                )
                for h in context
            ],
        )


def _other(arm: ArmName) -> ArmName:
    return "candidate" if arm == "baseline" else "baseline"


def blind_export(inp: EvaluationInput, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """The labelling file: questions, answers A/B with their context, empty preferences."""
    blinder = _Blinder(inp)
    items = [
        LabelItem(
            item_id=item_id,
            question=query.text,
            answer_a=blinder.answer(first, query.query_id),
            answer_b=blinder.answer(_other(first), query.query_id),
            preference=None,
            rater_id=None,
        )
        for item_id, query, first in assignments(inp, seed)
    ]
    export = LabelFile(
        format=EXPORT_FORMAT,
        experiment_id=inp.experiment_id,
        key_id=_key_id(inp, seed),
        instructions=INSTRUCTIONS,
        items=items,
    )
    return export.model_dump(by_alias=True)


def decoding_key(inp: EvaluationInput, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """The private key that maps each item's A and B back to baseline and candidate."""
    key = KeyFile(
        format=KEY_FORMAT,
        experiment_id=inp.experiment_id,
        key_id=_key_id(inp, seed),
        seed=seed,
        items=[
            KeyItem(item_id=item_id, query_id=query.query_id, answer_a=first, answer_b=_other(first))
            for item_id, query, first in assignments(inp, seed)
        ],
    )
    return key.model_dump(by_alias=True)


def import_labels(inp: EvaluationInput, labels: LabelFile, key: KeyFile) -> tuple[EvaluationInput, int]:
    """Merge filled labels as human ratings; returns the new input and how many were added."""
    expected = KeyFile.model_validate(decoding_key(inp, key.seed))
    if key != expected:
        raise InvalidArgument("the key does not belong to this experiment (regenerate it with annotation-key)")
    if labels.experiment_id != inp.experiment_id or labels.key_id != key.key_id:
        raise InvalidArgument("the labels were exported for a different experiment or key")
    decode = {item.item_id: item for item in key.items}
    questions = {q.query_id: q.text for q in inp.queries}
    existing = {(r.query_id, r.rater_id): r.preference for r in inp.human_ratings}
    added: list[HumanRating] = []
    for index, item in enumerate(labels.items):
        where = f"items[{index}]"
        if item.preference is None and item.rater_id is None:
            continue
        if item.preference is None or item.rater_id is None:
            raise ContractError([f"{where}: preference and raterId must be filled together"])
        entry = decode.get(item.item_id)
        if entry is None:
            raise ContractError([f"{where}.itemId: unknown item '{item.item_id}'"])
        if questions[entry.query_id] != item.question:
            raise ContractError([f"{where}.question: does not match the exported question"])
        preference: Preference = {"A": entry.answer_a, "B": entry.answer_b}.get(item.preference, "tie")
        previous = existing.get((entry.query_id, item.rater_id))
        if previous is not None:
            if previous != preference:
                raise ContractError([f"{where}: rater '{item.rater_id}' already rated this query differently"])
            continue
        existing[(entry.query_id, item.rater_id)] = preference
        added.append(HumanRating(query_id=entry.query_id, rater_id=item.rater_id, preference=preference))
    data = inp.model_dump(by_alias=True, mode="json", exclude_none=True)
    data["humanRatings"] = [*data["humanRatings"], *(r.model_dump(by_alias=True) for r in added)]
    merged = EvaluationInput.model_validate_json(json.dumps(data, ensure_ascii=False))
    return merged, len(added)
