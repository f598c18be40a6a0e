"""Relation words no name spells, read from the descriptions the packs give their relations: the author's
words for a relation (``Needed only to build the package``), and the nouns a description names the
relation's far end by (``The whole this thing is a part of``)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence, Set
from functools import lru_cache

from graphrag.names import ARTICLES, STOP_WORDS, fold, query_words
from graphrag.retrieval.mentions import Mention, Word, spelled
from graphrag.retrieval.vocabulary import Described
from graphrag.retrieval.word_forms import stems

MAX_DESCRIPTION_WORDS = 64  # a relation's description read for relation words: its first 64 content words
_PHRASE = re.compile(r"\w[\w'-]*|[,.;:()]")  # words and the punctuation that ends or splits a noun phrase
_CLAUSE_OPENERS = frozenset({"this", "that", "the", "a", "an", "who", "which", "whose", "where", "it"})


def described_mentions(
    words: list[Word], outside: list[int], named: list[Mention], described: Sequence[Described], kinds: Set[str]
) -> list[Mention]:
    """Relation words no name spells, read from the relations' descriptions (``needed to build`` ~
    "Needed only to build the package"). A word weighs log(descriptions / descriptions holding it). A run of
    such words (stop words between) names the relation whose description holds two of them, one of them
    held by no other relation's, with the most weight; one shared word is as likely an example in the
    description or the question's own word. A run with no word of one relation alone joins the next run
    when only the entity, kinds and stop words stand between them (``need X to build``), and the mention
    stands where it stands. Relations the question names already are not read from their descriptions."""
    named_types = {n.step.type for m in named for n in m.names}
    readable = {d for d, relation in enumerate(described) if relation.step.type not in named_types}
    if not readable:
        return []
    held = [_description_stems(d.description) for d in described]
    taken = {i for m in named for i in range(m.first, m.last + 1)}
    weights: dict[int, dict[int, float]] = {}  # per question word, the readable descriptions holding it
    for i in outside:
        forms = stems(words[i].text)
        if i in taken or words[i].text in STOP_WORDS or forms & kinds:
            continue
        holding = [d for d, description in enumerate(held) if forms & description]
        if readable.intersection(holding):  # a word every description holds weighs nothing, but is one of two
            weights[i] = {d: math.log(len(described) / len(holding)) for d in holding if d in readable}
    runs: list[list[int]] = []
    for i in sorted(weights):
        if runs and all(
            j in outside and j not in taken and words[j].text in STOP_WORDS for j in range(runs[-1][-1] + 1, i)
        ):
            runs[-1].append(i)
        else:
            runs.append([i])
    found: list[Mention] = []
    pending: list[int] = []  # the last run with no word of one relation alone
    for run in runs:
        own = {d for i in run for d in weights[i] if len({described[e].step.type for e in weights[i]}) == 1}
        if not own:
            pending = run
            continue
        if pending and not all(
            j not in outside or j in taken or words[j].text in STOP_WORDS or stems(words[j].text) & kinds
            for j in range(pending[-1] + 1, run[0])
        ):
            pending = []
        score = {
            d: sum(weights[i].get(d, 0.0) for i in pending + run)
            for d in own
            if sum(1 for i in pending + run if d in weights[i]) >= 2
        }
        if score:
            best = [d for d, value in score.items() if value == max(score.values())]
            at = pending if any(d in weights[i] for i in pending for d in best) else run
            found.append(Mention(at[0], at[-1], tuple(spelled(described[d].name, described[d].step) for d in best)))
        pending = []
    return found


@lru_cache(maxsize=1 << 12)
def _far_ends(description: str) -> frozenset[str]:
    """The nouns a description opening with a noun phrase names its relation's far end by ("The whole this
    thing is a part of": whole; "A material or substance this thing is made of": material, substance), the
    last word of each of the phrase's parts; a sentence ("A mission belongs to a programme", "A spacecraft
    carries ...") names none."""
    tokens = [fold(t) for t in _PHRASE.findall(description)[:16]]
    if not tokens or tokens[0] not in ARTICLES:
        return frozenset()
    parts: list[list[str]] = [[]]
    for token in tokens[1:]:
        if token in _CLAUSE_OPENERS and parts[-1]:
            return frozenset(stem for part in parts if part for stem in stems(part[-1]))
        if token in (",", "or", "and"):
            parts.append([])
        elif token in STOP_WORDS or not token.isalpha() or len(parts[-1]) == 3 or (parts[-1] and token.endswith("s")):
            return frozenset()  # no noun phrase: a preposition, a full stop, a verb after its subject
        else:
            parts[-1].append(token)
    return frozenset()


def far_end_mentions(
    words: list[Word], outside: list[int], named: list[Mention], described: Sequence[Described], kinds: Set[str]
) -> list[Mention]:
    """Nouns the relations' descriptions name their far ends by (``Which larger whole includes X``, ``What
    substance goes into X``), each a step of the one relation whose description names it so; relations the
    question reads already are not read again."""
    named_types = {n.step.type for m in named for n in m.names}
    ends: dict[str, set[str]] = {}
    for relation in described:
        if relation.step.type not in named_types:
            for stem in _far_ends(relation.description):
                ends.setdefault(stem, set()).add(relation.step.type)
    taken = {i for m in named for i in range(m.first, m.last + 1)}
    found: list[Mention] = []
    for i in outside:
        forms = stems(words[i].text)
        if i in taken or words[i].text in STOP_WORDS or forms & kinds:
            continue
        types = set().union(*(ends.get(form, set()) for form in forms))
        if len(types) == 1:
            relation = next(d for d in described if d.step.type in types)
            found.append(Mention(i, i, (spelled(relation.name, relation.step),), far_end=True))
    return found


@lru_cache(maxsize=1 << 12)
def _description_stems(description: str) -> frozenset[str]:
    return frozenset(stem for word in query_words(description)[:MAX_DESCRIPTION_WORDS] for stem in stems(word))
