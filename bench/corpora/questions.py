"""Retrieval questions with known evidence, generated from any pack's files and a phrasing file.

Hand-written question files are few and their authors knew the answers they hoped for; these come from
the pack's own text and typed links, so every evidence list is exact and the count can be large. Six
kinds: a verbatim body phrase to find its entity (single-hop), one typed step from an entity named by id
or title (named), the same step from an entity described by its summary or a body phrase (described),
two typed steps (two-hop), an entity asked for by one of its other names (synonym, none by default), and
one step backward worded with the relation's declared inverse (inverse, none by default). The files are
read directly, not through the product, so a parsing bug of the product cannot hide in its own test set.

Example:
    python -m bench.corpora.questions spack-pack --phrasing bench/corpora/phrasing/spack.yaml \\
        --out spack-questions.json --seed 17 --counts single=200,named=120,described=120,twohop=100
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field

Direction = Literal["forward", "backward"]
Step = tuple[str, Direction]
K = TypeVar("K", bound=Hashable)

KINDS = {"single": "sh", "named": "mn", "described": "md", "twohop": "th", "synonym": "sy", "inverse": "iv"}
DEFAULT_COUNTS = {"single": 200, "named": 120, "described": 120, "twohop": 100, "synonym": 0, "inverse": 0}
TAGGED = ("synonym", "inverse")  # kinds whose questions carry a "kind" field, and that the about lists only if asked
MIN_WORDS, MAX_WORDS = 8, 16
MAX_ANSWERS, MAX_MIDDLES = 4, 3
MAX_DESCRIPTION_WORDS = 24
MIN_PER_SLOT = 3  # every relation and direction with enough starts gets a few questions
FORWARD_SHARE = 2  # forward questions outnumber backward ones about 2:1
ATTEMPTS = 6  # phrases tried per entity before it counts as having none unique
MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
UNDERLINE = re.compile(r"^([=\-~^\"'`*+#:.])\1{2,}\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
PLAIN = re.compile(r"[\w(\"'“‘][\w'’\".,;:!?()/%&+-]*")
SENTENCE = re.compile(r"(.+?[.!?])(?=\s+[A-Z0-9\"'(\[]|$)")
POSSESSIVE = re.compile(r"['’]s\W*")  # what is left of "zlib's" once the name is out
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
SYNONYM_LINE = re.compile(r"^Synonyms: (.+)\.$", re.MULTILINE)  # a body line "Synonyms: derelict, hulk."


class Replacement(BaseModel):
    """A regular expression and its replacement (``\\1`` groups), applied to a whole id or title."""

    model_config = ConfigDict(extra="forbid")

    pattern: str
    replace: str
    field: Literal["id", "title"] = "id"

    def apply(self, text: str) -> str | None:
        return re.sub(self.pattern, self.replace, text) if re.fullmatch(self.pattern, text) else None


class Mention(BaseModel):
    """How a question names an entity: its id or its title, optionally rewritten (PEP-0513 -> PEP 513)."""

    model_config = ConfigDict(extra="forbid")

    field: Literal["id", "title"] = "id"
    rewrite: list[Replacement] = Field(default_factory=list)


class BodyRules(BaseModel):
    """Parts of a body that are lists or links rather than prose, so no phrase comes from them."""

    model_config = ConfigDict(extra="forbid")

    skip_sections: list[str] = Field(default_factory=list)
    skip_lines: list[str] = Field(default_factory=list)


class Described(BaseModel):
    """Noun phrases standing for an entity: by its summary ``{d}``, or by a phrase of its body ``{d}``
    (no phrase templates: by its summary only)."""

    model_config = ConfigDict(extra="forbid")

    summary: list[str] = Field(min_length=1)
    phrase: list[str] = Field(default_factory=list)


class Templates(BaseModel):
    """One relation's wording: questions from ``{x}``, noun phrases of ``{x}``, second steps from ``{y}``."""

    model_config = ConfigDict(extra="forbid")

    forward: list[str] = Field(default_factory=list)
    backward: list[str] = Field(default_factory=list)
    noun_forward: list[str] = Field(default_factory=list)
    noun_backward: list[str] = Field(default_factory=list)
    clause_forward: list[str] = Field(default_factory=list)
    clause_backward: list[str] = Field(default_factory=list)

    def question(self, direction: Direction) -> list[str]:
        return self.forward if direction == "forward" else self.backward

    def noun(self, direction: Direction) -> list[str]:
        return self.noun_forward if direction == "forward" else self.noun_backward

    def clause(self, direction: Direction) -> list[str]:
        return self.clause_forward if direction == "forward" else self.clause_backward


class Phrasing(BaseModel):
    """A pack's question wording, in one language."""

    model_config = ConfigDict(extra="forbid")

    language: str = "en"
    query_prefix: str | None = None
    gap: str | None = Field(default=None, description="What stands where a name was taken out (else nothing).")
    mention: Mention = Field(default_factory=Mention)
    name_forms: list[Replacement] = Field(default_factory=list)
    body: BodyRules = Field(default_factory=BodyRules)
    single_hop: list[str] = Field(min_length=1)
    described: Described
    relations: dict[str, Templates]
    synonym: list[str] = Field(default_factory=list, description="Questions for the entity another name {name} is.")
    inverse: dict[str, list[str]] = Field(
        default_factory=dict, description="Per relation with a declared inverse: questions one step back from {x}."
    )


@dataclass
class Entity:
    id: str
    title: str
    summary: str
    body: str
    language: str | None
    aliases: list[str] = field(default_factory=list)
    synonyms: list[str] = field(default_factory=list)  # from a "Synonyms:" line of the body


@dataclass
class Pack:
    id: str
    entities: dict[str, Entity]
    links: dict[Step, dict[str, set[str]]]  # (relation, direction) -> entity -> neighbours
    unresolved: int
    inverses: dict[str, str] = field(default_factory=dict)  # relation -> its declared inverse's name

    def step(self, relation: str, direction: Direction, start: str) -> set[str]:
        return self.links.get((relation, direction), {}).get(start, set())


def relation_name(name: str) -> str:
    """The product's normalisation: ``dependsOn`` and ``depends-on`` are ``depends_on``."""
    return CAMEL.sub("_", name.strip()).replace("-", "_").replace(" ", "_").lower()


def read_markdown(path: Path) -> tuple[dict[str, Any], str] | None:
    """The frontmatter mapping and body of a file, or None when it has none or it fails to parse."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == "---"), None)
    if end is None:
        return None
    try:
        header = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError:
        return None
    return (header, "\n".join(lines[end + 1 :])) if isinstance(header, dict) else None


def link_targets(value: Any) -> Iterator[str]:
    """Targets as a link value may spell them: an id, a list of ids, objects with an ``id``."""
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str | int):
            yield str(item)
        elif isinstance(item, dict) and isinstance(item.get("id"), str | int):
            yield str(item["id"])


def declared_links(header: dict[str, Any], vocabulary: dict[str, str]) -> Iterator[tuple[str, str, bool]]:
    """(relation, target, reversed) for each link of a frontmatter; an inverse name reverses the link.

    Links are written under ``related`` (a mapping, a list of relation/target objects, or a bare list
    meaning relates_to) or, for a declared relation, as a top-level key.
    """
    related = header.get("related")
    written: list[tuple[str, Any]] = []
    if isinstance(related, dict):
        written.extend((str(key), value) for key, value in related.items())
    elif isinstance(related, list):
        for item in related:
            if isinstance(item, dict) and "target" in item:
                written.append((str(item.get("relation", "relates_to")), item["target"]))
            else:
                written.append(("relates_to", item))
    written.extend((k, v) for k, v in header.items() if isinstance(k, str) and relation_name(k) in vocabulary)
    for key, value in written:
        name = relation_name(key)
        declared = vocabulary.get(name, name)
        yield from ((declared, target, declared != name) for target in link_targets(value))


def read_pack(folder: Path) -> Pack:
    """Entities and typed links of a pack folder, each link in its declared direction."""
    meta_path = folder / "pack.yaml"
    meta = yaml.safe_load(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
    meta = meta if isinstance(meta, dict) else {}
    pack_id = str(meta.get("id", folder.name))
    default_language = meta.get("language") if isinstance(meta.get("language"), str) else None
    vocabulary: dict[str, str] = {}  # relation or inverse name -> declared relation
    inverses: dict[str, str] = {}
    for name, spec in (meta.get("relations") or {}).items():
        vocabulary[relation_name(name)] = relation_name(name)
        if isinstance(spec, dict) and spec.get("inverse"):
            vocabulary[relation_name(str(spec["inverse"]))] = relation_name(name)
            inverses[relation_name(name)] = relation_name(str(spec["inverse"]))
    entities: dict[str, Entity] = {}
    raw: list[tuple[str, str, str, bool]] = []
    for path in sorted(folder.rglob("*.md")):
        if any(part.startswith(".") for part in path.relative_to(folder).parts):
            continue
        parsed = read_markdown(path)
        if parsed is None:
            continue
        header, body = parsed
        entity_id = str(header.get("id") or f"{pack_id}/{path.relative_to(folder).with_suffix('').as_posix()}")
        heading = next((m.group(2) for line in body.splitlines() if (m := MD_HEADING.match(line))), path.stem)
        language = header.get("language")
        aliases = header.get("aliases")
        entities[entity_id] = Entity(
            id=entity_id,
            title=str(header.get("title") or header.get("name") or heading),
            summary=str(header.get("summary") or ""),
            body=body,
            language=language if isinstance(language, str) else default_language,
            aliases=[str(a) for a in aliases] if isinstance(aliases, list) else [],
            synonyms=[s.strip() for m in SYNONYM_LINE.finditer(body) for s in m.group(1).split(", ") if s.strip()],
        )
        raw.extend((entity_id, *link) for link in declared_links(header, vocabulary))
    by_name: dict[str, list[str]] = defaultdict(list)
    for entity in entities.values():
        for name in {entity.title.lower(), *(a.lower() for a in entity.aliases)}:
            by_name[name].append(entity.id)
    links: dict[Step, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    unresolved = 0
    for source, relation, target, reverse in raw:
        found = target if target in entities else None
        if found is None and len(by_name.get(target.lower(), [])) == 1:
            found = by_name[target.lower()][0]
        if found is None or found == source:
            unresolved += found is None
            continue
        start, end = (found, source) if reverse else (source, found)
        links[(relation, "forward")][start].add(end)
        links[(relation, "backward")][end].add(start)
    return Pack(pack_id, entities, links, unresolved, inverses)


def normal(text: str) -> str:
    return " ".join(text.split()).lower()


def plain(text: str) -> str:
    """Words only, to see whether a phrase repeats the summary whatever the markup."""
    return " ".join(re.findall(r"\w+", text.lower()))


def prose(body: str, rules: BodyRules) -> list[str]:
    """The body's paragraphs, whitespace collapsed, without headings, code, skipped sections and lines."""
    lines = body.splitlines()
    skip_lines = [re.compile(p) for p in rules.skip_lines]
    paragraphs: list[str] = []
    current: list[str] = []
    skipping = fenced = False

    def flush() -> None:
        if current:
            paragraphs.append(" ".join(" ".join(current).split()))
            current.clear()

    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        heading = MD_HEADING.match(line)
        underlined = bool(line.strip()) and UNDERLINE.match(following) and not UNDERLINE.match(line)
        if FENCE.match(line):
            fenced = not fenced
            flush()
        elif heading or underlined:
            flush()
            skipping = (heading.group(2) if heading else line.strip()) in rules.skip_sections
        elif (
            fenced
            or skipping
            or not line.strip()
            or UNDERLINE.match(line)
            or line.startswith(("    ", "\t", ".."))
            or any(p.search(line) for p in skip_lines)
        ):
            flush()
        else:
            current.append(line.strip())
    flush()
    return paragraphs


class Texts:
    """Every body, normalised in one string, to tell whether a phrase occurs in any other entity's body."""

    def __init__(self, pack: Pack) -> None:
        self.spans: dict[str, tuple[int, int]] = {}
        parts: list[str] = []
        offset = 0
        for entity in pack.entities.values():
            text = normal(entity.body)
            self.spans[entity.id] = (offset, offset + len(text))
            parts.append(text)
            offset += len(text) + 1
        self.text = "\n".join(parts)

    def elsewhere(self, phrase: str, owner: str) -> bool:
        needle, (start, end) = normal(phrase), self.spans[owner]
        at = self.text.find(needle)
        while at != -1:
            if at < start or at + len(needle) > end:
                return True
            at = self.text.find(needle, at + 1)
        return False


class Generator:
    """The six kinds of questions over one pack, each kind from its own seeded random stream."""

    def __init__(self, pack: Pack, phrasing: Phrasing, seed: int) -> None:
        self.pack, self.phrasing, self.seed = pack, phrasing, seed
        self.texts = Texts(pack)
        self.relations = [r for r in phrasing.relations if any(k[0] == r for k in pack.links)]
        self.phrases: dict[str, str | None] = {}
        self.patterns: dict[str, re.Pattern[str]] = {}
        self.summary_keys: Counter[str] = Counter()
        self.plain_summaries: dict[str, str] = {}
        mentions = Counter(self.mention(e).lower() for e in pack.entities)
        self.mentionable = {e for e in pack.entities if mentions[self.mention(e).lower()] == 1}
        self.report: dict[str, str] = {}

    def stream(self, kind: str) -> random.Random:
        return random.Random(f"{self.seed}:{kind}")

    def in_language(self, entity_id: str) -> bool:
        """An entity written in the questions' language (or in none said), so a phrase of it fits them."""
        language = self.pack.entities[entity_id].language
        return language is None or language == self.phrasing.language

    def nameable(self, entity_id: str) -> bool:
        """A start a question can name: in its language, and no other entity goes by the same mention."""
        return self.in_language(entity_id) and entity_id in self.mentionable

    def mention(self, entity_id: str) -> str:
        entity = self.pack.entities[entity_id]
        text = entity.id if self.phrasing.mention.field == "id" else entity.title
        for rule in self.phrasing.mention.rewrite:
            text = rule.apply(text) or text
        return text

    def names(self, entity_id: str) -> re.Pattern[str]:
        """Every spelling of an entity's name, to take out of a phrase that describes it."""
        if entity_id in self.patterns:
            return self.patterns[entity_id]
        entity = self.pack.entities[entity_id]
        forms = {entity.id, entity.title, self.mention(entity_id), *entity.aliases, *entity.synonyms}
        forms |= {
            f
            for rule in self.phrasing.name_forms
            if (f := rule.apply(entity.id if rule.field == "id" else entity.title))
        }
        alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True) if f.strip())
        self.patterns[entity_id] = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)
        return self.patterns[entity_id]

    def without_names(self, text: str, entity_id: str) -> str:
        """The text with the entity's names taken out, each left as the phrasing's gap if it has one."""
        gap = self.phrasing.gap
        words = self.names(entity_id).sub(f" {gap} " if gap else " ", text).split()
        kept = [w for w in words if (re.search(r"\w", w) or w == gap) and not POSSESSIVE.fullmatch(w)]
        return " ".join(w for i, w in enumerate(kept) if not (gap and w == gap and i and kept[i - 1] == gap))

    def windows(self, entity_id: str) -> list[list[str]]:
        """Runs of at least MIN_WORDS plain words from the body's prose, with the summary cut out."""
        entity = self.pack.entities[entity_id]
        summary = normal(entity.summary)
        runs: list[list[str]] = []
        for paragraph in prose(entity.body, self.phrasing.body):
            lowered = paragraph.lower()
            pieces = [paragraph]
            if summary and summary in lowered:
                at = lowered.index(summary)
                pieces = [paragraph[:at], paragraph[at + len(summary) :]]
            elif summary and plain(paragraph) in plain(summary):
                continue
            for piece in pieces:
                run: list[str] = []
                for word in [*piece.split(), ""]:
                    if PLAIN.fullmatch(word) and "://" not in word:
                        run.append(word)
                        continue
                    if len(run) >= MIN_WORDS:
                        runs.append(run)
                    run = []
        return runs

    def phrase(self, entity_id: str) -> str | None:
        """A phrase of 8-16 words from the body, names removed, in no other body and not from the summary."""
        if entity_id in self.phrases:
            return self.phrases[entity_id]
        rng = random.Random(f"{self.seed}:phrase:{entity_id}")
        runs = self.windows(entity_id)
        summary = plain(self.pack.entities[entity_id].summary)
        found = None
        for _ in range(ATTEMPTS if runs else 0):
            run = rng.choice(runs)
            length = rng.randint(MIN_WORDS, min(MAX_WORDS, len(run)))
            start = rng.randint(0, len(run) - length)
            words = run[start : start + length]
            shown = self.without_names(" ".join(words), entity_id).rstrip(".,;:")
            half = len(words) // 2
            from_summary = summary and any(plain(" ".join(p)) in summary for p in (words[:half], words[half:]))
            if (
                len(shown.split()) >= MIN_WORDS
                and not from_summary
                and not self.texts.elsewhere(shown, entity_id)
                and not self.texts.elsewhere(" ".join(words), entity_id)
            ):
                found = shown
                break
        self.phrases[entity_id] = found
        return found

    def summary_words(self, entity_id: str) -> list[str]:
        summary = " ".join(self.pack.entities[entity_id].summary.split())
        match = SENTENCE.match(summary)
        return self.without_names(match.group(1) if match else summary, entity_id).split()

    def summary_description(self, entity_id: str) -> str | None:
        """The summary's first sentence without the entity's names, if no other summary says the same.

        Names are taken out of every summary before comparing, so templated summaries (``Virtual package
        X: ...``) count as the same.
        """
        if not self.summary_keys:
            self.summary_keys = Counter(plain(" ".join(self.summary_words(e))) for e in self.pack.entities)
            self.plain_summaries = {e.id: plain(e.summary) for e in self.pack.entities.values()}
        words = self.summary_words(entity_id)
        key = plain(" ".join(words))
        if len(words) < 3 or self.summary_keys[key] > 1:
            return None
        if any(key in text for other, text in self.plain_summaries.items() if other != entity_id):
            return None
        if words[0][1:] == words[0][1:].lower():
            words[0] = words[0][:1].lower() + words[0][1:]
        text = " ".join(words[:MAX_DESCRIPTION_WORDS]).rstrip(".")
        return text + " …" if len(words) > MAX_DESCRIPTION_WORDS else text

    def single_hop(self, count: int) -> Iterator[tuple[str, list[str], int]]:
        rng = self.stream("single")
        eligible = sorted(e for e in self.pack.entities if self.in_language(e) and self.windows(e))
        rng.shuffle(eligible)
        tried = written = 0
        for entity_id in eligible:
            if written == count:
                break
            tried += 1
            if (phrase := self.phrase(entity_id)) is not None:
                written += 1
                yield rng.choice(self.phrasing.single_hop).format(phrase=phrase), [entity_id], 1
        self.report["single"] = f"{written} of {len(eligible)} entities with prose ({tried} tried for a unique phrase)"

    def one_step_starts(self) -> dict[Step, list[str]]:
        """Starts per relation and direction whose answer has 1-4 entities."""
        starts: dict[Step, list[str]] = {}
        for relation in self.relations:
            templates = self.phrasing.relations[relation]
            for direction in ("forward", "backward"):
                step: Step = (relation, direction)
                if templates.question(direction):
                    starts[step] = [
                        start
                        for start, ends in sorted(self.pack.links.get(step, {}).items())
                        if 1 <= len(ends) <= MAX_ANSWERS and self.in_language(start)
                    ]
        return starts

    def weights(self) -> dict[Step, float]:
        """How often each relation occurs, forward counted twice."""
        sizes = Counter({r: sum(map(len, self.pack.links.get((r, "forward"), {}).values())) for r in self.relations})
        return {
            (r, d): sizes[r] * (FORWARD_SHARE if d == "forward" else 1) for r in sizes for d in ("forward", "backward")
        }

    def one_step(self, kind: str, count: int, used: set[tuple[Step, str]]) -> Iterator[tuple[str, list[str], int]]:
        """Named or described one-step questions, relations in proportion to their links.

        A described start needs a description; starts are tried in random order until the quota is met, as
        finding a unique body phrase for every start of a large pack would take long.
        """
        rng = self.stream(kind)
        starts = self.one_step_starts()
        untried: dict[Step, list[str]] = {}
        for step, found in starts.items():  # popped from the end: starts an earlier kind used come last
            shuffled = rng.sample(found, len(found))
            untried[step] = [s for s in shuffled if (step, s) in used] + [s for s in shuffled if (step, s) not in used]
        written: Counter[Step] = Counter()
        floor = MIN_PER_SLOT
        while (left := count - sum(written.values())) > 0:
            quota = allocate(left, self.weights(), {k: len(v) for k, v in untried.items()}, floor)
            if not quota:
                break
            floor = 0  # a slot whose starts had no description leaves its share to the others
            for step, wanted in quota.items():
                relation, direction = step
                for _ in range(wanted):
                    while untried[step]:
                        start = untried[step].pop()
                        if kind == "named":
                            subject = self.mention(start) if self.nameable(start) else None
                        else:
                            subject = self.describe(start, rng)
                        if subject is not None:
                            break
                    else:
                        break
                    used.add((step, start))
                    written[step] += 1
                    template = rng.choice(self.phrasing.relations[relation].question(direction))
                    ends = sorted(self.pack.step(relation, direction, start))
                    yield capitalised(template.format(x=subject)), [start, *ends], 1
        shown = ", ".join(f"{r} {d} {written[(r, d)]}/{len(v)}" for (r, d), v in starts.items() if v)
        self.report[kind] = f"{sum(written.values())} of {sum(map(len, starts.values()))} starts ({shown})"

    def describe(self, entity_id: str, rng: random.Random) -> str | None:
        """A noun phrase for the entity without its name: its summary half of the time, else a body phrase."""
        choices: list[tuple[str, Callable[[str], str | None]]] = [
            ("summary", self.summary_description),
            ("phrase", self.phrase),
        ]
        if rng.random() < 0.5:
            choices.reverse()
        for source, find in choices:
            templates = self.phrasing.described.summary if source == "summary" else self.phrasing.described.phrase
            if templates and (text := find(entity_id)) is not None:
                return rng.choice(templates).format(d=text)
        return None

    def two_step_chains(self) -> dict[tuple[Step, Step], list[tuple[str, list[str], list[str]]]]:
        """(start, middles, finals) per pair of steps that has wording; a step straight back is no chain."""
        chains: dict[tuple[Step, Step], list[tuple[str, list[str], list[str]]]] = {}
        steps: list[Step] = [(r, d) for r in self.relations for d in ("forward", "backward")]
        for first in steps:
            if not self.phrasing.relations[first[0]].noun(first[1]):
                continue
            for second in steps:
                if not self.phrasing.relations[second[0]].clause(second[1]) or (
                    first[0] == second[0] and first[1] != second[1]
                ):
                    continue
                found = []
                for start, middles in sorted(self.pack.links.get(first, {}).items()):
                    if not (1 <= len(middles) <= MAX_MIDDLES) or not self.nameable(start):
                        continue
                    finals = set().union(*(self.pack.step(*second, m) for m in middles)) - {start} - middles
                    if 1 <= len(finals) <= MAX_ANSWERS:
                        found.append((start, sorted(middles), sorted(finals)))
                if found:
                    chains[(first, second)] = found
        return chains

    def two_hop(self, count: int) -> Iterator[tuple[str, list[str], int]]:
        rng = self.stream("twohop")
        chains = self.two_step_chains()
        sizes = {pair: len(found) for pair, found in chains.items()}
        quota = allocate(count, {pair: math.sqrt(n) for pair, n in sizes.items()}, sizes, floor=1)
        for (first, second), wanted in quota.items():
            for start, middles, finals in rng.sample(chains[(first, second)], wanted):
                noun = rng.choice(self.phrasing.relations[first[0]].noun(first[1])).format(x=self.mention(start))
                clause = rng.choice(self.phrasing.relations[second[0]].clause(second[1]))
                yield capitalised(clause.format(y=noun)), [start, *middles, *finals], 2
        self.report["twohop"] = f"{sum(quota.values())} of {sum(sizes.values())} chains over {len(chains)} step pairs"

    def other_names(self, entity_id: str) -> list[str]:
        """Names an entity also goes by: its aliases and the synonyms its body lists."""
        entity = self.pack.entities[entity_id]
        return list(dict.fromkeys([*entity.aliases, *entity.synonyms]))

    def synonym(self, count: int) -> Iterator[tuple[str, list[str], int]]:
        """An entity asked for by another of its names, one no other entity goes by (as title, alias,
        synonym or name form) and that its title does not contain; evidence: that entity."""
        rng = self.stream("synonym")
        if not self.phrasing.synonym:
            self.report["synonym"] = "no synonym templates in the phrasing file"
            return
        owners: dict[str, set[str]] = defaultdict(set)
        for entity in self.pack.entities.values():
            forms = {entity.title, *self.other_names(entity.id)}
            forms |= {
                f for rule in self.phrasing.name_forms if rule.field == "title" and (f := rule.apply(entity.title))
            }
            for form in forms:
                owners[plain(form)].add(entity.id)
        candidates: dict[str, list[str]] = {}
        for entity_id in sorted(self.pack.entities):
            title = f" {plain(self.pack.entities[entity_id].title)} "
            names = [
                name
                for name in self.other_names(entity_id)
                if plain(name) and owners[plain(name)] == {entity_id} and f" {plain(name)} " not in title
            ]
            if names and self.in_language(entity_id):
                candidates[entity_id] = names
        written = 0
        for entity_id in rng.sample(sorted(candidates), min(count, len(candidates))):
            name = rng.choice(candidates[entity_id])
            written += 1
            yield capitalised(rng.choice(self.phrasing.synonym).format(name=name)), [entity_id], 1
        self.report["synonym"] = f"{written} of {len(candidates)} entities with another name no other entity goes by"

    def inverse(self, count: int, used: set[tuple[Step, str]]) -> Iterator[tuple[str, list[str], int]]:
        """One step backward along a relation with a declared inverse, worded with the inverse's meaning,
        from a start named by its mention; 1-4 answers. Relations by the square root of their links, so the
        smaller ones get a fair share; starts the named and described questions took come last."""
        rng = self.stream("inverse")
        templates = {relation_name(name): wording for name, wording in self.phrasing.inverse.items() if wording}
        untried: dict[Step, list[str]] = {}
        sizes: dict[Step, float] = {}
        for relation in templates:
            step: Step = (relation, "backward")
            if relation not in self.pack.inverses:
                continue
            found = [
                start
                for start, ends in sorted(self.pack.links.get(step, {}).items())
                if 1 <= len(ends) <= MAX_ANSWERS and self.nameable(start)
            ]
            shuffled = rng.sample(found, len(found))  # popped from the end
            untried[step] = [s for s in shuffled if (step, s) in used] + [s for s in shuffled if (step, s) not in used]
            sizes[step] = math.sqrt(sum(map(len, self.pack.links.get(step, {}).values())))
        available = {step: len(starts) for step, starts in untried.items()}
        quota = allocate(count, sizes, available)
        for step, wanted in quota.items():
            for _ in range(wanted):
                start = untried[step].pop()
                used.add((step, start))
                ends = sorted(self.pack.step(*step, start))
                text = rng.choice(templates[step[0]]).format(x=self.mention(start))
                yield capitalised(text), [start, *ends], 1
        shown = ", ".join(f"{r} {quota.get((r, d), 0)}/{n}" for (r, d), n in available.items())
        self.report["inverse"] = f"{sum(quota.values())} of {sum(available.values())} starts ({shown})"


def allocate(
    total: int, weights: Mapping[K, float], available: Mapping[K, int], floor: int = MIN_PER_SLOT
) -> dict[K, int]:
    """Questions per slot: a floor for each slot with starts, then in proportion to weight (D'Hondt)."""
    quota = dict.fromkeys(available, 0)
    left = total
    for key in sorted(available, key=lambda k: -weights.get(k, 0)):
        quota[key] = min(floor, available[key], left)
        left -= quota[key]
    while left > 0:
        open_slots = [k for k in available if quota[k] < available[k] and weights.get(k, 0) > 0]
        if not open_slots:
            break
        best = max(open_slots, key=lambda k: weights[k] / (quota[k] + 1))
        quota[best] += 1
        left -= 1
    return {k: n for k, n in quota.items() if n}


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def parse_counts(text: str) -> dict[str, int]:
    counts = dict(DEFAULT_COUNTS)
    for item in filter(None, text.split(",")):
        kind, _, number = item.partition("=")
        if kind not in KINDS or not number.isdigit():
            raise argparse.ArgumentTypeError(f"{item!r}: expected KIND=N with KIND in {', '.join(KINDS)}")
        counts[kind] = int(number)
    return counts


def generate(pack_dir: Path, phrasing_path: Path, seed: int, counts: dict[str, int]) -> dict[str, Any]:
    pack = read_pack(pack_dir)
    phrasing = Phrasing.model_validate(yaml.safe_load(phrasing_path.read_text(encoding="utf-8")))
    generator = Generator(pack, phrasing, seed)
    used: set[tuple[Step, str]] = set()
    kinds = {
        "single": ("single-hop", "description", generator.single_hop(counts["single"])),
        "named": ("multi-hop", phrasing.mention.field, generator.one_step("named", counts["named"], used)),
        "described": ("multi-hop", "description", generator.one_step("described", counts["described"], used)),
        "twohop": ("multi-hop", phrasing.mention.field, generator.two_hop(counts["twohop"])),
        "synonym": ("single-hop", "title", generator.synonym(counts.get("synonym", 0))),
        "inverse": ("multi-hop", phrasing.mention.field, generator.inverse(counts.get("inverse", 0), used)),
    }
    prefix = phrasing.query_prefix or pack.id
    queries: list[dict[str, Any]] = []
    texts: set[str] = set()
    written: Counter[str] = Counter()
    for kind, (question_type, naming, questions) in kinds.items():
        for text, evidence, hops in questions:
            if text in texts:
                continue
            texts.add(text)
            written[kind] += 1
            query = {
                "queryId": f"{prefix}-{KINDS[kind]}-{written[kind]:03d}",
                "text": text,
                "evidence": list(dict.fromkeys(evidence)),
                "type": question_type,
                "naming": naming,
                "language": phrasing.language,
                "hops": hops,
            }
            queries.append({**query, "kind": kind} if kind in TAGGED else query)
    for kind in KINDS:
        print(f"{kind}: {written[kind]} written; {generator.report.get(kind, 'none')}", file=sys.stderr)
    if pack.unresolved:
        print(f"links to no entity of the pack, left out: {pack.unresolved}", file=sys.stderr)
    described_by_phrase = bool(phrasing.described.phrase)
    about = (
        f"Generated by bench/corpora/questions.py from the files of pack {pack.id} ({len(pack.entities)} entities) "
        f"with the phrasing file {phrasing_path.name} and seed {seed}; nobody wrote or checked these by hand. "
        "single-hop (sh): a verbatim phrase of 8-16 words from the entity's body (not its summary, headings or "
        "skipped sections), its names removed, that occurs in no other entity's body; evidence is that entity. "
        "named (mn) and described (md) multi-hop: one typed link step, forward or backward, from an entity named "
        f"by {phrasing.mention.field} or described by its summary{' or a body phrase' if described_by_phrase else ''}, "
        "whose answer has 1-4 entities; "
        "evidence is the start, then every answer. two-hop (th): two typed steps, 1-3 middles and 1-4 finals; "
        "evidence is start, middles, finals. "
        + (
            "synonym (sy, kind synonym): an entity asked for by another of its names (an alias or a synonym its body "
            "lists) that no other entity goes by; evidence is that entity. "
            if counts.get("synonym")
            else ""
        )
        + (
            "inverse (iv, kind inverse): one step backward along a relation with a declared inverse, worded with the "
            f"inverse's meaning, from an entity named by {phrasing.mention.field}, with 1-4 answers; evidence is the "
            "start, then every answer. "
            if counts.get("inverse")
            else ""
        )
        + "Links count in their declared direction (an inverse name is read as its relation). "
        f"Counts: {', '.join(f'{k} {written[k]}' for k in KINDS if k not in TAGGED or counts.get(k))}."
    )
    return {"about": about, "pack": pack.id, "queries": queries}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pack", type=Path, help="a pack folder (markdown files with frontmatter, pack.yaml)")
    parser.add_argument("--phrasing", type=Path, required=True, help="the pack's phrasing file (YAML)")
    parser.add_argument("--out", type=Path, required=True, help="the question file to write (JSON)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument(
        "--counts",
        type=parse_counts,
        default=dict(DEFAULT_COUNTS),
        help="e.g. single=200,named=120 (also described, twohop; synonym and inverse are 0 unless given)",
    )
    args = parser.parse_args(argv)
    if not args.pack.is_dir():
        sys.exit(f"{args.pack}: no such folder")
    result = generate(args.pack, args.phrasing, args.seed, args.counts)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
