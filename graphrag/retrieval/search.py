"""``pack_search``: rank entities by one retriever (``vector``, ``text``) or by all of them fused (``hybrid``).

Hybrid, shaped by a ``SearchConfig``:

1. the names the question uses, each linked with a confidence (``linking``); a sure one is a start when
   the question is about it (relation steps go out from it, it is quoted or written as an id, or its name
   is most of the question and the lists below put it first: a title inside a description is a word of
   the description), and any other is one more list, weighing its confidence;
2. the lists that read the question itself (text, vector), in the configured order; full text leaves out
   the words that ask for steps;
3. the typed steps the question asks for, outwards from the named start (``guidance``), with hierarchy
   and kind words read against the pack's own shapes (``shapes``);
4. the lists that walk from the starts (``walk``: a random walk; ``chain``: the typed steps). A start is
   a sure name; when the question names none but asks for relation steps, its best hits so far are the
   starts, each as sure as its fused score is close to the best one's, and all of them only as sure as
   text and vector agree on the first (the weight of each over the rank it gives it; a start that ranks
   first needs that agreement);
5. weighted reciprocal rank fusion of every list, each weighing what the configuration says for a
   question with or without a sure name; starts keep the top places, in order of confidence.

Text weighs by how well the question's script matches the packs' (an English question over English
packs: fully; a Russian one: little), and the multilingual vector gains what text loses: where text can
read the question, meaning only breaks its ties; where it cannot, meaning takes over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import copy_context
from dataclasses import dataclass
from typing import Literal

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.errors import InvalidArgument, name_list
from graphrag.names import query_words, quoted_description
from graphrag.retrieval.candidates import Candidate, Evidence, Question, Retriever, Starts, Warmed
from graphrag.retrieval.config import DEFAULT, SearchConfig
from graphrag.retrieval.fusion import Ranked, agreed, agreement, fuse, stands_apart
from graphrag.retrieval.guidance import plan, step_words, unread
from graphrag.retrieval.lexical import PackScripts
from graphrag.retrieval.linking import UNNAMED, EntityLinker
from graphrag.retrieval.models import SearchHit, SearchResult
from graphrag.retrieval.reading import Hit, ListRead, NameRead, Ranking, Reading, role
from graphrag.retrieval.registry import Sources, registration
from graphrag.retrieval.shapes import Shapes
from graphrag.retrieval.snapshot import GraphCopy, GraphSnapshot
from graphrag.retrieval.translated import RelationMeanings
from graphrag.retrieval.vector_index import VectorIndex, open_vector_index
from graphrag.retrieval.vocabulary import Described, RelationVocabulary, Step
from graphrag.retrieval.word_forms import attached_kind, kind_stems, named_kinds
from graphrag.stores.graph import GraphStore

Mode = Literal["hybrid", "vector", "text"]


OUTSIDE_SHOWN = 5  # entities named outside the packs asked that a hint lists
# The lists that read the question run beside each other and beside the linking: the embedding model
# computes while Neo4j answers the full-text and name queries, so a call costs the slowest, not the sum.
_BESIDE = ThreadPoolExecutor(max_workers=8, thread_name_prefix="retriever")


@dataclass(frozen=True)
class _Asked:
    """What the question itself gave hybrid search: the lists that read it (and each as it weighs), the names
    it uses with how each is written, the starts among them, the steps it asks for, and how much of it full
    text can read."""

    lists: dict[str, list[Candidate]]
    links: list[Candidate]
    readings: Mapping[str, str]
    starts: dict[str, float]
    passing: list[Candidate]  # names met in passing: one more list, weighing their confidence
    steps: list[set[Step]]
    coverage: float
    by_script: float  # the coverage the titles' script gives, before text's clear first hit lifts it
    each: list[Ranked]  # each reading list apart, as it weighs
    read: list[Ranked]  # the reading lists as the fusion takes them (merged into one when nothing is named)
    in_passing: list[Ranked]


@dataclass(frozen=True)
class _Walks:
    """The lists that walked from the starts, the seeds they left from and how sure those are; ``starts``
    may hold a best hit that stood in for a name the question did not give."""

    lists: dict[str, list[Candidate]]
    seeds: dict[str, float]
    sureness: float
    starts: dict[str, float]
    named: bool = False  # they weigh as walks from a named start, whether or not the question named one


class PackSearch:
    def __init__(
        self,
        graph: GraphStore,
        embedder: Embedder,
        index: VectorIndex,
        snapshot: GraphSnapshot,
        vocabulary: RelationVocabulary,
        config: SearchConfig = DEFAULT,
        hidden: frozenset[str] = frozenset(),
    ) -> None:
        """``hidden``: packs the caller may not see (team sources it may not read now)."""
        self._graph = graph
        self._hidden = hidden
        self._config = config
        self._snapshot = snapshot
        self._vocabulary = vocabulary
        self.linker = EntityLinker(graph, snapshot, config.linking)
        self._meanings = RelationMeanings(embedder, config.walk.relation_meaning)
        sources = Sources(graph, embedder, index, snapshot)
        # text and vector answer pack_search's modes of the same names, whether hybrid fuses them or not
        named = dict.fromkeys(["text", "vector", *(spec.name for spec in config.retrievers)])
        self._registered = {name: registration(name) for name in named}
        self.retrievers: dict[str, Retriever] = {
            name: entry.build(sources, config) for name, entry in self._registered.items()
        }

    def warm(self) -> None:
        """Build now what a hybrid search reads in memory: the graph copy, the linking tables, the packs'
        scripts, the kinds' words and shapes, and each retriever's own tables (the walk's matrix, the packs'
        own words). Over 100,000 entities that takes tens of seconds, which the server spends at start rather
        than in its first call."""
        self.linker.table()
        self._scripts()
        self._kind_words()
        self._shapes()
        for retriever in self.retrievers.values():
            if isinstance(retriever, Warmed):
                retriever.warm()

    def search(
        self,
        query: str,
        limit: int,
        packs: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        mode: Mode = "hybrid",
    ) -> SearchResult:
        ranking = self.rank(query, limit, packs, kinds, mode)
        by_id = {r.id: r for r in ranking.hits}
        rows = self._graph.read("retrieval_entities", ids=list(by_id)) if by_id else []
        return SearchResult(
            results=[
                SearchHit(
                    **row,
                    score=round(by_id[row["id"]].score, 4),
                    matched=by_id[row["id"]].matched,
                    via=by_id[row["id"]].via,
                )
                for row in rows
            ],
            available=ranking.available,
        )

    def outside(self, question: Question, packs: Sequence[str] | None) -> str:
        """What to say when the question names an entity by its id that lives outside the packs asked: the
        answer cannot hold it, and without a word an agent takes the unrelated hits for the answer."""
        if packs is None:
            return ""
        entities = self._snapshot.current().entities
        away = sorted(
            (entity, entities.packs[row])
            for entity in self.linker.named_by_id(question)
            if (row := entities.index.get(entity)) is not None
            and entities.packs[row] not in packs
            and entities.packs[row] not in self._hidden
        )
        if not away:
            return ""
        named = "; ".join(f"{entity} is in pack {pack!r}" for entity, pack in away[:OUTSIDE_SHOWN])
        return f"{named}, outside the packs asked ({', '.join(packs)}): ask without packs, or add its pack"

    def rank(
        self, text: str, limit: int, packs: Sequence[str] | None, kinds: Sequence[str] | None, mode: Mode
    ) -> Ranking:
        if not text.strip():
            raise InvalidArgument("query is empty: say what to look for")
        if self._hidden:
            packs = [p for p in (packs if packs is not None else self._known()) if p not in self._hidden]
        ranking = self._ranked(text, limit, packs, kinds, mode)
        if not ranking.hits and packs:
            self._check_packs(packs)  # an empty answer because a filter names no pack is a mistake worth saying
        return ranking

    def _ranked(
        self, text: str, limit: int, packs: Sequence[str] | None, kinds: Sequence[str] | None, mode: Mode
    ) -> Ranking:
        if mode != "hybrid":
            question = Question(text, limit, packs, kinds, self._hidden)
            retriever = self.retrievers[mode]
            found = retriever.retrieve(question)
            reading = Reading(text, mode, lists=(ListRead.of(mode, 1.0, found),))
            return Ranking([Hit(c.id, c.score, [retriever.evidence]) for c in found], len(found), reading, question)
        return self._hybrid(self.read(text, max(self._config.pool, limit), packs, kinds), limit)

    def read(self, text: str, limit: int, packs: Sequence[str] | None, kinds: Sequence[str] | None) -> Question:
        """The question read once: its names and the words asking for steps (before the lists: text leaves them out)."""
        names, described = self._relations(packs)
        meant = self._meanings.words(text, names, self._shapes().kinds)
        kind_words, heads = self._kind_words()
        asking = step_words(text, {**names, **meant}, described, kind_words, self._shapes().upwards(None), heads)
        return Question(text, limit, packs, kinds, self._hidden, self.linker.mentions(text), asking, meant)

    def _kind_words(self) -> tuple[frozenset[str], frozenset[str]]:
        """Every word of the entity kinds, and each kind's last word (see ``plan``)."""
        words: tuple[frozenset[str], frozenset[str]] = self._snapshot.derived("kind words", _kind_words_of)
        return words

    def _shapes(self) -> Shapes:
        shapes: Shapes = self._snapshot.derived("shapes", Shapes.of)
        return shapes

    def _scripts(self) -> PackScripts:
        scripts: PackScripts = self._snapshot.derived("scripts", PackScripts.of)
        return scripts

    def _hybrid(self, pool: Question, limit: int) -> Ranking:
        asked = self._asked(pool)
        walks = self._walks(pool, asked)
        scores = dict(self._fused(asked, walks))
        for entity, confidence in walks.starts.items():  # starts rank first, in order of confidence
            scores[entity] = scores.get(entity, 0.0) + self._config.fusion.linked_bonus * confidence
        hits = self._hits(scores, asked, walks)
        return Ranking(hits[:limit], len(hits), self._reading(pool, asked, walks), pool)

    def _asked(self, pool: Question) -> _Asked:
        """The lists that read the question (beside the linking), the names it uses, which of them are starts,
        and the steps it asks for."""
        config = self._config
        reading = {
            spec.name: _BESIDE.submit(copy_context().run, self.retrievers[spec.name].retrieve, pool)
            for spec in config.retrievers
            if not self._registered[spec.name].seeded
        }
        links = self.linker.retrieve(pool)
        readings = self.linker.readings(pool) if links else {}
        sure = [c for c in links if c.score >= config.linking.min_confidence and readings.get(c.id) not in UNNAMED]
        # a title that is one of the words asking for steps ("category" in "the category of X") is that word
        sure = [c for c in sure if readings.get(c.id) == "reference" or not self._frame(pool, c.id)]
        sure.sort(key=lambda c: -c.score)  # the surest name anchors the steps
        if not sure:
            sure = self._whole(pool, [c for c in links if readings.get(c.id) == "name"])
        coverage = self._scripts().coverage(pool.text, pool.packs)
        lists = {name: future.result() for name, future in reading.items()}
        # A question quoting a description its reading lists agree on is about that entity: a name in its prose
        # ("In which field is the term defined as '...' a technical term?") is met in passing.
        quote = quoted_description(pool.text)
        described = agreed([Ranked(found, 1.0) for found in lists.values()]) if quote else None
        if described is not None and all(c.id != described for c in sure):
            sure = [c for c in sure if readings[c.id] == "reference"]
        read_first = self._first_read(lists, coverage)
        steps = self._steps(pool, sure[0].id if sure else None, read_first, quote)
        # A sure name is a start when the question is about it: the steps go out from it, it is written as
        # a reference (quoted, an id), or it is most of what the question says and the lists that read the
        # whole question agree, or it is an id (a title inside a description, "... slow cooking in fat until
        # soft", is a word of the description there, not its subject). A name met in passing ("... a wrapper
        # around the FFTW library") is one more list; one inside a passage the question quotes is left to
        # full text.
        vouched = {read_first, *self.linker.named_by_id(pool)}
        starts = {
            c.id: c.score
            for c in sure
            if steps or readings[c.id] == "reference" or (c.id in vouched and self._about(pool, c.id))
        }
        passing = [c for c in links if c.id not in starts and readings.get(c.id) not in UNNAMED]
        # The titles' script is a prior: with nothing named, a full-text first hit standing clearly apart shows
        # that text read the question (an English sentence matching the English summary of a Russian title).
        reads = [found for name, found in lists.items() if self._registered[name].script == "reads"]
        by_script = coverage
        if not starts and any(stands_apart(found, config.fusion.clear_first) for found in reads):
            coverage = 1.0
        each = [Ranked(found, self._weight(name, bool(starts), coverage)) for name, found in lists.items()]
        read, in_passing = each, [Ranked(passing, config.linking.weak_weight, scaled=True)]
        if not starts and config.fusion.unnamed_reading == "standard":
            # Nothing named: the reading lists decide, so a flat one must not reorder one whose first hit
            # stands apart; merged by standard score, they are one list, weighing what both did. A name met in
            # passing joins that merge: it may break their ties, never overturn text's clear first answer.
            merged = fuse([*read, *in_passing], "standard", config.fusion.k, config.pool)
            read, in_passing = [Ranked([Candidate(i, score) for i, score in merged], sum(r.weight for r in read))], []
        return _Asked(lists, links, readings, starts, passing, steps, coverage, by_script, each, read, in_passing)

    def _fused(self, asked: _Asked, walks: _Walks | None = None) -> list[tuple[str, float]]:
        """Every list; the walks' weigh as sure as the starts they left from."""
        ranked = [Ranked(found, weight) for _, weight, found in self._weighed_walks(asked, walks)] if walks else []
        return fuse([*asked.read, *ranked, *asked.in_passing], self._config.fusion.method, self._config.fusion.k)

    def _weighed_walks(self, asked: _Asked, walks: _Walks) -> list[tuple[str, float, list[Candidate]]]:
        """Each walk's list with its weight."""
        named = walks.named or bool(asked.starts)
        return [
            (name, walks.sureness * self._weight(name, named, asked.coverage), found)
            for name, found in walks.lists.items()
        ]

    def _walks(self, pool: Question, asked: _Asked) -> _Walks:
        """The lists that walk from the starts. With nothing named, the entity every list reading the question
        puts first is a described start: the walks leave it alone, as from a named start in the configured
        share, whether or not the question asks for steps (without them it may still ask what lies next to
        it, in words no relation spells). With nothing named, no agreement and steps asked, the best hits so
        far stand in as starts, as sure as the lists agree on the first of them."""
        config = self._config
        starts, seeds, sureness = asked.starts, dict(asked.starts), 1.0
        described = agreed(asked.each) if not starts and config.walk.described > 0 else None
        if described is not None:
            seeds = {described: 1.0}
            walked = self._walked_from(pool, seeds, asked.steps)
            return _Walks(walked, seeds, config.walk.described, seeds, named=True)
        if asked.steps:
            seeds.update({c.id: c.score for c in asked.passing if c.id not in seeds})
            first = [] if starts else self._fused(asked)[: config.walk.seed_hits]
            if first:
                sureness = agreement(asked.each, first[0][0])  # each list apart, not their merge
                seeds.update({i: score / first[0][1] for i, score in first})
                if sureness >= config.linking.min_confidence:
                    starts = {first[0][0]: sureness}
        return _Walks(self._walked_from(pool, seeds, asked.steps), seeds, sureness, starts)

    def _walked_from(
        self, pool: Question, seeds: dict[str, float], steps: list[set[Step]]
    ) -> dict[str, list[Candidate]]:
        """Each walking retriever's list from these seeds (none without seeds)."""
        if not seeds:
            return {}
        starts = Starts(seeds, tuple(frozenset(s) for s in steps))
        return {
            spec.name: self.retrievers[spec.name].retrieve(pool, starts)
            for spec in self._config.retrievers
            if self._registered[spec.name].seeded
        }

    def _hits(self, scores: dict[str, float], asked: _Asked, walks: _Walks) -> list[Hit]:
        """Every entity a list found, best first, with the evidence of each list that found it and the path
        of the first walk that reached it (a start's own is no path)."""
        matched: dict[str, list[Evidence]] = {c.id: ["linked"] for c in asked.links}
        via: dict[str, list[str]] = {}
        for name, found in {**asked.lists, **walks.lists}.items():
            evidence = self.retrievers[name].evidence
            for candidate in found:
                kinds = matched.setdefault(candidate.id, [])
                if evidence not in kinds:
                    kinds.append(evidence)
                if candidate.via and candidate.id not in via:
                    via[candidate.id] = candidate.via
        hits = [
            Hit(i, score, matched.get(i, []), via.get(i) if i not in walks.starts else None)
            for i, score in scores.items()
            if i in matched
        ]
        hits.sort(key=lambda h: (-h.score, h.id))
        return hits

    def _reading(self, pool: Question, asked: _Asked, walks: _Walks) -> Reading:
        """How the question was read, for ``graphrag explain``."""
        named, coverage, weight = bool(asked.starts), asked.coverage, self._weight
        lists = [ListRead.of(name, weight(name, named, coverage), found) for name, found in asked.lists.items()]
        if asked.passing:
            lists.append(ListRead.of("names", self._config.linking.weak_weight, asked.passing))
        lists += [ListRead.of(name, weight, found) for name, weight, found in self._weighed_walks(asked, walks)]
        return Reading(
            pool.text,
            "hybrid",
            pool.step_words,
            coverage,
            tuple(
                NameRead(c.id, c.score, asked.readings.get(c.id, "name"), role(c.id, walks.starts, asked.readings))
                for c in asked.links
            ),
            tuple(tuple(step.label for step in sorted(hop, key=lambda s: s.label)) for hop in asked.steps),
            walks.seeds,
            tuple(lists),
            asked.by_script,
        )

    def _relations(
        self, packs: Sequence[str] | None, meant: Mapping[str, tuple[Step, ...]] | None = None
    ) -> tuple[dict[str, tuple[Step, ...]], tuple[Described, ...]]:
        """The relation names and descriptions of the packs searched (a relation word of another pack, ``made``
        of made_of, is no step over these), with the question's words that ``meant`` one of those names."""
        hidden = set(self._hidden)
        if packs is not None:
            hidden.update(p for p in self._vocabulary.packs() if p not in packs)
        return {**self._vocabulary.names(hidden), **(meant or {})}, self._vocabulary.described(hidden)

    def _steps(
        self, pool: Question, start: str | None, first: str | None, quote: tuple[int, int] | None
    ) -> list[set[Step]]:
        """The typed steps the question asks for from ``start`` (its first sure name): read from relation
        words, hierarchy words, and else from the kind the question asks for (``Which <kind> ... X?``: the
        relations that join that kind to X's). With nothing named, the hierarchy words walk the hierarchy of
        the lists' ``first`` hit, the likeliest described start, which stands where the description it
        ``quote``s does."""
        copy = self._snapshot.current()
        described_start = start if start is not None else first
        row = copy.entities.index.get(described_start) if described_start is not None else None
        kind = (copy.entities.packs[row], copy.entities.kinds[row]) if row is not None else None
        text = pool.text
        anchor = self.linker.span_of(pool, start) if start is not None else None
        shapes = self._shapes()
        names, described = self._relations(pool.packs, pool.relation_words)
        walk = self._config.walk
        kinds, heads = self._kind_words()
        steps = plan(text, names, anchor, walk.max_steps, described, kinds, shapes.upwards(kind), heads)
        place = anchor or quote
        if kind is None or place is None:  # no name, no place to read the asked kind around
            return steps
        asked = named_kinds(text, shapes.kinds, place)
        return shapes.complete(steps, kind, asked, walk.max_steps, attached_kind(text, shapes.kinds, place))

    def _frame(self, pool: Question, entity_id: str) -> bool:
        """Whether the question's name for the entity is nothing but words that ask for steps."""
        span = self.linker.span_of(pool, entity_id)
        if span is None:
            return False
        words = query_words(pool.text[span[0] : span[1]])
        return bool(words) and set(words) <= pool.step_words

    def _whole(self, pool: Question, names: list[Candidate]) -> list[Candidate]:
        """A name no more specific than a common word (``list``, ``command``) is sure all the same when it is
        all the question says besides relation, hierarchy and kind words (``What is list a kind of?``)."""
        copy = self._snapshot.current()
        text = pool.text
        relations, described = self._relations(pool.packs, pool.relation_words)
        kinds, heads = self._kind_words()
        for candidate in names:
            span = self.linker.span_of(pool, candidate.id)
            row = copy.entities.index.get(candidate.id)
            if span is None or row is None:
                continue
            upwards = self._shapes().upwards((copy.entities.packs[row], copy.entities.kinds[row]))
            if not unread(text, relations, span, described, kinds, upwards, heads):
                return [Candidate(candidate.id, self._config.linking.min_confidence)]
        return []

    def _first_read(self, lists: dict[str, list[Candidate]], coverage: float) -> str | None:
        """The first hit of the lists that read the question, merged as a question naming nothing merges them."""
        read = [Ranked(found, self._weight(name, False, coverage)) for name, found in lists.items()]
        merged = fuse(read, "standard", self._config.fusion.k, self._config.pool)
        return merged[0][0] if merged else None

    def _about(self, pool: Question, entity_id: str) -> bool:
        """Whether the question's name for that entity holds most of its content words."""
        span = self.linker.span_of(pool, entity_id)
        text = pool.text
        words = query_words(text)
        if span is None or not words:
            return False
        return len(query_words(text[span[0] : span[1]])) / len(words) >= self._config.linking.about_share

    def _weight(self, name: str, named: bool, coverage: float) -> float:
        spec = self._config.spec(name)
        if spec is None:
            return 0.0
        weight = spec.weight_named if named else spec.weight_unnamed
        script = self._registered[name].script
        if script == "reads":
            return weight * coverage
        if script == "gains":
            return weight + self._config.fusion.vector_gain * (1 - coverage)
        return weight

    def _check_packs(self, packs: Sequence[str]) -> None:
        """An empty answer because a pack filter names no pack is a mistake worth saying."""
        known = self._known()
        unknown = sorted(set(packs) - set(known))
        if unknown:
            raise InvalidArgument(f"unknown packs: {name_list(unknown)}; known packs: {name_list(known)}")

    def _known(self) -> list[str]:
        return [row["id"] for row in self._graph.read("retrieval_packs") if row["id"] not in self._hidden]


@contextmanager
def searches(
    settings: Settings, graph: GraphStore, embedder: Embedder
) -> Iterator[Callable[[SearchConfig], PackSearch]]:
    """A ``PackSearch`` per configuration asked, outside the server (``graphrag explain``, ``eval record``): all
    share one graph copy, relation vocabulary and vector index, which is closed at the end."""
    vocabulary = RelationVocabulary(graph)
    snapshot = GraphSnapshot(graph, vocabulary)
    vectors = open_vector_index(settings, embedder.id)
    try:
        yield lambda config: PackSearch(graph, embedder, vectors, snapshot, vocabulary, config)
    finally:
        vectors.close()


def _kind_words_of(copy: GraphCopy) -> tuple[frozenset[str], frozenset[str]]:
    kinds = set(copy.entities.kinds)
    return kind_stems(kinds), kind_stems(kinds, heads=True)
