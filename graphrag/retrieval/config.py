"""Search as configuration: everything that shapes a ranking, in one validated object.

Pool sizes, which retrievers run and how much each list weighs, the fusion, the linking rules and the
walk settings all live in ``SearchConfig``; the code reads them from here and holds no ranking constant
of its own. ``DEFAULT`` is the configuration that measured best on corpora it was not tuned on
(docs/retrieval.md quotes the figures); a deployment may load another one from a JSON file
(``GRAPHRAG_SEARCH_CONFIG``), and ``graphrag eval record --search-config FILE|RECIPE`` records an arm per
configuration (``RECIPES`` ship with the package), so configurations are compared with ``graphrag eval compare``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from graphrag.errors import InvalidArgument
from graphrag.retrieval.registry import registration, unknown
from graphrag.stores.edge import SEARCH_EF


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _registered(name: str) -> str:
    if (why := unknown(name)) is not None:
        raise ValueError(why)
    return name


class RetrieverSpec(_Frozen):
    """One ranked list the fusion takes, and how much it weighs there.

    ``name`` is a registered retriever (``graphrag.retrieval.registry``): ``text`` and ``vector`` answer
    from the question's words; ``walk`` (a random walk with restart) and ``chain`` (the typed relation
    steps the question asks for) answer from the start entities the others found. A list weighs
    ``weight_named`` when the question names a start entity with confidence, ``weight_unnamed`` otherwise.
    """

    name: Annotated[str, AfterValidator(_registered)]
    weight_named: float = Field(ge=0)
    weight_unnamed: float = Field(ge=0)


class TextConfig(_Frozen):
    """The full-text query: the question's words, and each neighbouring pair as a sloppy phrase."""

    phrase_slop: int = Field(default=8, ge=0, le=50, description="Words a pair's phrase may stand apart by.")
    phrase_boost: float = Field(
        default=2.0, ge=0, description="A pair found near each other weighs this times one word (0: words alone)."
    )
    quote_slop: int = Field(
        default=3, ge=0, le=50, description="Words a quoted passage may gain or lose and still be found as written."
    )
    quote_boost: float = Field(
        default=8.0, ge=0, description="A passage the question quotes, found as written, weighs this (0: off)."
    )
    depth: float = Field(
        default=1.0,
        ge=1,
        le=20,
        description="The words' best hits that the whole query (pairs, quotes) scores again, per hit wanted: deeper "
        "finds a pair written together further down, at one Lucene term per hit.",
    )
    filtered_factor: int = Field(
        default=4,
        ge=1,
        le=50,
        description="A pack or kind filter drops hits after the index has read them: it reads this many times as "
        "many, so that it still leaves enough.",
    )
    filtered_min: int = Field(default=100, ge=1, le=10_000, description="And at least this many.")


class VectorConfig(_Frozen):
    """The meaning list: the whole question, and each of its parts alone (``names.clauses``)."""

    clauses: int = Field(
        default=2,
        ge=0,
        le=8,
        description="Most parts of a question (each quoted passage whole, the rest split at , ; : ? ! and "
        "brackets) also searched alone, merged with the whole question by standard score: a part that describes "
        "the start is not drowned by the words that ask for the steps.",
    )
    min_clause_words: int = Field(default=3, ge=1, description="Content words a clause needs to be embedded alone.")
    pack_words_share: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="A word this share of a pack's entity ids hold (PEP in PEP-0001, PEP-0446, ...) names the pack, "
        "not an entity: it is left out of what is embedded (0: kept).",
    )
    pack_words_min: int = Field(
        default=20, ge=1, description="Entities a pack needs before its ids' shared words are read so."
    )
    clause_weight: float = Field(
        default=1.0, ge=0, description="A part's list weighs this in that merge, the whole question's 1 (0: off)."
    )
    clause_ef: int = Field(
        default=256,
        ge=10,
        le=4096,
        description=f"HNSW candidates of a part's search (the whole question's: the engine's own, {SEARCH_EF} "
        "embedded).",
    )


class LinkingConfig(_Frozen):
    """When a name in the question is taken as the entity it names."""

    min_confidence: float = Field(
        default=0.5, ge=0, le=1, description="A name at least this specific is sure: it may start walks and rank first."
    )
    weak_weight: float = Field(
        default=0.3,
        ge=0,
        description="A name that is not a start is one more fused list, weighing this times its sureness.",
    )
    about_share: float = Field(
        default=0.2,
        ge=0,
        le=1,
        description="With no relation steps, a sure name is a start when it holds this share of the question's words.",
    )
    partial_names: bool = Field(
        default=True, description="Single words of many-word names (a surname) link, when one entity alone has them."
    )
    transliterate: bool = Field(default=True, description="Names match across scripts (Юрий Гагарин ~ Yuri Gagarin).")
    min_partial_chars: int = Field(default=4, ge=1, description="Shortest single word taken as a partial name.")
    max_name_tokens: int = Field(default=24, ge=1, description="Longer titles are not looked for as phrases.")
    frequency_cap: int = Field(
        default=1000,
        ge=1,
        description="Entities counted when measuring how often a name occurs in others' text; a name this many "
        "entities hold is a word, never a link.",
    )


class WalkConfig(_Frozen):
    """The graph walks: the untyped random walk and the typed relation chain."""

    hops: int = Field(default=2, ge=1, le=4, description="Radius of the random walk around its seeds.")
    restart: float = Field(default=0.3, gt=0, lt=1, description="How often the random walk returns to a seed.")
    iterations: int = Field(default=20, ge=1, description="Power-iteration rounds of the random walk.")
    min_type_weight: float = Field(default=0.05, ge=0, description="Floor of a relation type's specificity weight.")
    guided_boost: float = Field(
        default=4.0, ge=1, description="A relation type (and direction) the question asks for weighs this much more."
    )
    degree_damping: float = Field(
        default=0.5, ge=0, description="A step into an entity of degree d weighs d^-x: a hub is a start, not a flood."
    )
    max_steps: int = Field(default=3, ge=1, le=4, description="Longest chain of typed steps read from a question.")
    relation_meaning: float = Field(
        default=0.7,
        ge=0,
        le=1,
        description="A question word in another script than the relation names (заменило) is the relation name "
        "closest to it in meaning when at least this close and no kind is closer (0: never).",
    )
    seed_hits: int = Field(
        default=3, ge=0, description="With nothing named, a question's relation steps start from this many best hits."
    )
    described: float = Field(
        default=1.0,
        ge=0,
        description="With nothing named, the walks leave the entity every list reading the question puts first "
        "(a described start) alone, weighing this share of what they weigh from a named start.",
    )


class FusionConfig(_Frozen):
    """Weighted reciprocal rank fusion of the configured lists."""

    method: Literal["rank", "score"] = Field(
        default="rank", description="rank: reciprocal rank fusion; score: each score relative to its list's best."
    )
    k: int = Field(default=10, ge=0, description="Rank r counts weight / (k + r) (method rank).")
    unnamed_reading: Literal["lists", "standard"] = Field(
        default="standard",
        description="With no start, text and vector first merge into one list by standard score "
        "(standard: a list whose first hit stands apart keeps it first) or stay two lists (lists).",
    )
    linked_bonus: float = Field(
        default=1.0, ge=0, description="Added to a start's fused score, times its confidence: starts rank first."
    )
    vector_gain: float = Field(
        default=1.0, ge=0, description="Added to the vector list's weight times the share of words text cannot read."
    )
    clear_first: float = Field(
        default=1.5,
        ge=0,
        description="Full text's first hit scoring at least this many times its second shows that text read the "
        "question, whatever script the packs' titles use: text then weighs as over packs of the question's "
        "script (0: never).",
    )


class ContextConfig(_Frozen):
    entities: int = Field(default=10, ge=1, le=50, description="Entities pack_context returns.")
    passages: int = Field(default=6, ge=0, le=50, description="Most passages pack_context returns.")
    passage_floor: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="A passage comes only when the question's words it holds weigh at least this share of "
        "what the best passage's weigh (the first entity's best comes anyway).",
    )
    passage_chars: int = Field(
        default=400,
        ge=1,
        le=10_000,
        description="Most characters of a passage returned: its whole lines around the question's words "
        "(a longer line alone whole), so its line range stays exact.",
    )


class SearchConfig(_Frozen):
    """The whole shape of a ranking (docs/retrieval.md explains each part)."""

    pool: int = Field(default=30, ge=1, le=500, description="Candidates each retriever hands the fusion.")
    retrievers: tuple[RetrieverSpec, ...] = Field(min_length=1)
    text: TextConfig = TextConfig()
    vector: VectorConfig = VectorConfig()
    linking: LinkingConfig = LinkingConfig()
    walk: WalkConfig = WalkConfig()
    fusion: FusionConfig = FusionConfig()
    context: ContextConfig = ContextConfig()

    def digest(self) -> str:
        """A short stable name of this configuration, recorded with an evaluation arm."""
        canonical = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:12]

    def spec(self, name: str) -> RetrieverSpec | None:
        return next((r for r in self.retrievers if r.name == name), None)

    @classmethod
    def load(cls, path: Path) -> SearchConfig:
        """A configuration file (JSON); a bad one is ``invalid_argument`` naming the field."""
        try:
            return cls.model_validate_json(path.read_bytes())
        except OSError as exc:
            raise InvalidArgument(f"search config {path}: cannot read it ({exc.strerror})") from exc
        except ValidationError as exc:
            first = exc.errors(include_input=False, include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "(top level)"
            raise InvalidArgument(f"search config {path}: {where}: {first['msg']}") from exc


DEFAULT = SearchConfig(
    retrievers=(
        RetrieverSpec(name="text", weight_named=0.3, weight_unnamed=1.0),
        RetrieverSpec(name="vector", weight_named=0.3, weight_unnamed=0.05),
        RetrieverSpec(name="walk", weight_named=1.0, weight_unnamed=0.0),
        RetrieverSpec(name="chain", weight_named=1.5, weight_unnamed=1.5),
    ),
)


def _without(*names: str) -> SearchConfig:
    return DEFAULT.model_copy(update={"retrievers": tuple(r for r in DEFAULT.retrievers if r.name not in names)})


# Named configurations shipped with the package: what ``graphrag eval record --search-config NAME`` takes
# besides a file, so the usual comparisons need no file of one's own.
RECIPES: dict[str, SearchConfig] = {
    "default": DEFAULT,
    "no-walks": _without("walk", "chain"),  # names, words and meaning; nothing walked from a start
    "no-chain": _without("chain"),  # the random walk without the typed steps the question asks for
    "no-vector": _without("vector"),  # names, words and walks; no meaning
}


def configured(path: Path | None) -> SearchConfig:
    """The configuration ``GRAPHRAG_SEARCH_CONFIG`` names, or the default."""
    return SearchConfig.load(path) if path else DEFAULT


def named_config(spec: str) -> tuple[str, SearchConfig]:
    """A recipe by its name, or a configuration file (JSON) by its path: (a name for it, the configuration)."""
    if spec in RECIPES:
        return spec, RECIPES[spec]
    path = Path(spec)
    if not path.is_file():
        raise InvalidArgument(f"search config {spec!r} is neither a recipe ({', '.join(RECIPES)}) nor a file")
    return path.stem, SearchConfig.load(path)


def markdown_table(config: SearchConfig) -> str:
    """Every setting of ``config`` as a markdown table (setting, value, meaning); docs/retrieval.md embeds
    the default's, and a test keeps the two equal, so the docs never repeat a number by hand."""
    rows = ["| setting | value | meaning |", "|---|---|---|"]
    for spec in config.retrievers:
        rows.append(
            f"| `retrievers.{spec.name}` | {spec.weight_named:g} named, {spec.weight_unnamed:g} unnamed "
            f"| {registration(spec.name).meaning} |"
        )
    rows += [f"| `{path}` | {value} | {meaning} |" for path, value, meaning in _settings(config, "")]
    return "\n".join(rows)


def _settings(model: BaseModel, prefix: str) -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = []
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            found += _settings(value, f"{prefix}{name}.")
        elif name != "retrievers":
            found.append((f"{prefix}{name}", _shown(value), field.description or ""))
    return found


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)
