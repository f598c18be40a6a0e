"""Relation guidance: which typed steps, in which direction and order, a question asks the walk to take.

The question's words are matched to the relation names of the graph (``depend`` ~ ``depends_on``,
``superseded`` ~ ``superseded_by``, a declared inverse such as ``launched`` for ``launched_by``), by
word and not by per-pack lists. A name's direction follows from where its entity stands in the question
(English word order, the only grammar read here):

- the entity before the word is its subject (``What does X depend on?``), unless a passive ``by``
  follows (``X was launched by``);
- the entity after the word is its object (``What depends on X?``, ``the rocket that launched X``),
  unless ``by`` makes it the agent (``recommended by X``) or ``of`` a possessor (``the dependencies of
  X``; but ``the dependents of X`` names those on the other side);
- a name ending in ``_by`` reads passively (``A launched_by B``: B launched A); a passive word (``used by``)
  reads that name and the active one alike (``used_by`` and ``uses``), each in its own voice.

Several relation words make a chain, taken outwards from the entity: ``Which items are recommended by the
dependencies of X?`` is ``depends`` then ``recommends``; ``Who led the agency that built the rocket that
launched Apollo 11?`` is ``launched``, ``built``, ``led``. When nothing is named, the entity stands on
the side of the relation words that holds more of the question's other content words. Words the question
quotes (``the package described as "…"``) are what it cites, never relation words.

Relation words no name spells (``What is needed to build X?`` for ``build_depends_on``) are read from the
descriptions the packs give their relations (``Needed only to build the package``): the author's words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from typing import Literal

from graphrag.names import (
    ARTICLES,
    INTERROGATIVES,
    SORT_NOUNS,
    STOP_WORDS,
    WORD,
    fold,
    quoted_passages,
    script_of,
)
from graphrag.retrieval.described import described_mentions, far_end_mentions
from graphrag.retrieval.mentions import Level, Mention, Name, Word, past_participle, spelled
from graphrag.retrieval.vocabulary import Described, Step
from graphrag.retrieval.word_forms import same, stems

_AGENT_ENDINGS = ("ents", "ers", "ors", "ent", "er", "or")  # dependents, users, providers: the other side
_DEMONSTRATIVES = frozenset({"that", "this", "those", "these", "such"})
_PLACE_PREPOSITIONS = frozenset({"in", "on", "at", "from", "into", "under", "within", "during"})
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})
_REVERSING = frozenset({"reverse", "inverse"})  # the reverse dependencies of X: those on the other side
Role = Literal["subject", "object", "either"]
_ACTIVE: dict[Role, Role] = {"subject": "object", "object": "subject", "either": "either"}  # a participle's roles
# Words that walk a hierarchy whatever the pack names it (``Shapes.upwards``), English and Russian: down
# to the narrower entities, up to the broader ones, or either way by where the entity stands (``kinds of X``
# is down, ``X is a kind of`` up; ``Какие виды входят в X`` down, ``X входит в`` up).
_LEVELS: tuple[tuple[Level, re.Pattern[str]], ...] = (
    (
        "down",
        re.compile(
            r"\b(?:sub(?:types?|class(?:es)?|categor(?:y|ies)|kinds?|species)|child(?:ren)?|narrower|"
            r"(?:more|most) specific|speciali[sz]ations?|hyponyms?|descendants?|"
            r"подтип\w*|подкласс\w*|подвид\w*|дочерн\w*|разновидност\w*|нижестоящ\w*|детальн\w*|дел(?:ит|ят)ся|ниже|"
            r"более (?:узк|частн|конкретн|специальн)\w*)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "up",
        re.compile(
            r"\b(?:parents?|broader|(?:more|most) general|less specific|category|generali[sz]ations?|supertypes?|"
            r"superclass(?:es)?|supercategor(?:y|ies)|hypernyms?|ancestors?|"
            r"родител\w*|вышестоящ\w*|надкласс\w*|обобщ\w*|более (?:общ|широк)\w*|выше|частью)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "either",
        re.compile(
            r"\b(?:kinds?|types?|sorts?|variet(?:y|ies)|belong\w*|falls?|вид(?:ы|ов|ам|ами|ах)?|вход\w*|относ\w*|состав\w*)\b",
            re.IGNORECASE,
        ),
    ),
)
# A question opening with an imperative (``Name the parts of X``, ``List the ...``, ``Назови ...``) says what to
# do, not what it is about.
_IMPERATIVES = frozenset({"name", "list", "give", "show", "find", "tell", "identify", "назови", "перечисли", "найди"})


def plan(
    question: str,
    names: Mapping[str, Sequence[Step]],
    anchor: tuple[int, int] | None,
    max_steps: int,
    described: Sequence[Described] = (),
    kinds: Set[str] = frozenset(),
    upwards: Sequence[Step] = (),
    heads: Set[str] = frozenset(),
) -> list[set[Step]]:
    """The typed steps the question asks for, outwards from the entity at character span ``anchor``
    (None: nothing named), each a set of (type, direction) alternatives; empty when it names no relation.
    ``described``: relations in their authors' words, for the relation words no name spells; ``kinds``: the
    words of the graph's entity kinds (``package``), which name what is linked, never a relation;
    ``upwards``: the steps up the hierarchy the entity stands in, for the words that walk it (``parents``,
    ``more specific kinds``, ``broader``); ``heads``: the kinds' last words (``vehicle``, not ``launch``)."""
    words, outside, mentions = _read(question, names, anchor, described, kinds, upwards, heads)
    if anchor is not None:
        at = next((i for i, w in enumerate(words) if w.start >= anchor[0]), len(words))
        mentions = [m for m in mentions if not _apposition(words, m, at)]
    if not mentions:
        return []
    if anchor is None:
        at = _unnamed_anchor(words, mentions)
    # a word that walks the hierarchy either way says again what a word of fixed direction says (``Which
    # broader term does X belong to?``), unless it stands beyond it, a step further out (``Which terms
    # belong to the broader term of X?``)
    fixed = [m for m in mentions if m.level in ("up", "down")]
    mentions = [m for m in mentions if m.level != "either" or all(_beyond(m, f, at) for f in fixed)]
    ordered = sorted(mentions, key=lambda m: (not _attached(words, m, at), min(abs(m.first - at), abs(m.last - at))))
    chain = _chain(words, ordered)
    used = {i for m in mentions for i in range(m.first, m.last + 1)}
    english = _english([w for i, w in enumerate(words) if i in outside and i not in used])
    steps: list[set[Step]] = []
    for number, mentions_of_step in enumerate(chain[:max_steps]):
        mention = mentions_of_step[0]
        # where the chain so far stands: the entity, then the nearest mention of the step before
        here = at if not number else min((m.first for m in chain[number - 1]), key=lambda i: abs(i - mention.first))
        if mention.level is not None:
            up = mention.level == "up" or (mention.level == "either" and here < mention.first)
            steps.append({Step(s.type, s.forward == up) for s in upwards})
            continue
        following = _following(question, words, mention.last)
        if mention.far_end or _comparative(words, mention, following, at):
            # the whole containing X, the broader concept of X, broader than X: X's step to what the word names;
            # X is the whole of ..., X is broader than ...: back to X
            forward = not (here < mention.first and following in ("of", "than"))
            steps.append({Step(n.step.type, n.step.forward == forward) for n in mention.names})
            continue
        agent = _agent_noun(words[mention.last].text, mention.names)
        of_named = any("of" in name.linking for name in mention.names)  # part_of: "of" is the name's
        role = _voiced_role(words, mention, here < mention.first, following, agent, of_named)
        directions = {s for name in mention.names for s in _directions(name, role, following, english)}
        if mention.first and words[mention.first - 1].text in _REVERSING:
            directions = {Step(s.type, not s.forward) for s in directions}
        steps.append(directions)
    return steps


def _chain(words: list[Word], ordered: list[Mention]) -> list[list[Mention]]:
    """Each step's mentions, the nearest to the entity first. A relation met again right after its own step is a
    step again (the dependencies of the dependencies of X), unless a demonstrative points back (which failure
    mode, and what does that failure mode ...); met after another step, it refers back (X requires a PEP; which
    PEP superseded that required PEP?)."""
    chain: list[list[Mention]] = []
    for mention in ordered:
        back = mention.first > 0 and words[mention.first - 1].text in _DEMONSTRATIVES
        same = next((c for c in (chain if back else chain[:-1]) if _types(c[0]) == _types(mention)), None)
        if same is None:
            chain.append([mention])
        else:
            same.append(mention)
    return chain


def unread(
    question: str,
    names: Mapping[str, Sequence[Step]],
    anchor: tuple[int, int],
    described: Sequence[Described] = (),
    kinds: Set[str] = frozenset(),
    upwards: Sequence[Step] = (),
    heads: Set[str] = frozenset(),
) -> list[str]:
    """The question's content words that are neither the entity at ``anchor`` nor relation, hierarchy or kind
    words (see ``plan``): none left, and the question is about that entity alone (``What is list a kind
    of?``), however common its name."""
    words, outside, mentions = _read(question, names, anchor, described, kinds, upwards, heads)
    used = {i for m in mentions for i in range(m.first, m.last + 1)} | _opening_imperative(words)
    # what the question quotes is what it is about, whatever else it names
    outside = [i for i, w in enumerate(words) if w.end <= anchor[0] or w.start >= anchor[1]]
    return [
        words[i].text
        for i in outside
        if i not in used
        and words[i].text not in STOP_WORDS
        and len(words[i].text) > 1
        and not stems(words[i].text) & kinds
    ]


def step_words(
    question: str,
    names: Mapping[str, Sequence[Step]],
    described: Sequence[Described] = (),
    kinds: Set[str] = frozenset(),
    upwards: Sequence[Step] = (),
    heads: Set[str] = frozenset(),
) -> frozenset[str]:
    """The words of the question that ask for relation or hierarchy steps (see ``plan``), wherever the entity
    stands."""
    words, _, mentions = _read(question, names, None, described, kinds, upwards, heads)
    return frozenset(words[i].text for m in mentions for i in range(m.first, m.last + 1))


def _read(
    question: str,
    names: Mapping[str, Sequence[Step]],
    anchor: tuple[int, int] | None,
    described: Sequence[Described],
    kinds: Set[str],
    upwards: Sequence[Step],
    heads: Set[str],
) -> tuple[list[Word], list[int], list[Mention]]:
    """The question's words, those outside the entity and its quotes, and the relation and hierarchy words
    among them, in order."""
    words = [Word(fold(m.group()), m.start(), m.end()) for m in WORD.finditer(question)]
    cited = quoted_passages(question)
    outside = [
        i
        for i, w in enumerate(words)
        if (anchor is None or w.end <= anchor[0] or w.start >= anchor[1])
        and not any(start <= w.start and w.end <= end for start, end in cited)
    ]
    vocabulary = [spelled(name, step) for name, steps in names.items() for step in steps]
    mentions = _mentions(words, outside, vocabulary, heads)
    mentions += described_mentions(words, outside, mentions, described, kinds)
    mentions += far_end_mentions(words, outside, mentions, described, kinds)
    mentions += _level_mentions(question, words, outside, mentions, upwards, anchor)
    return words, outside, sorted(mentions, key=lambda m: m.first)


def _beyond(mention: Mention, other: Mention, at: int) -> bool:
    """Whether ``mention`` stands on ``other``'s side of the entity (word ``at``), further out."""
    return (mention.first < at) == (other.first < at) and abs(mention.first - at) > abs(other.first - at)


def _types(mention: Mention) -> frozenset[str]:
    return frozenset(name.step.type for name in mention.names) or frozenset({f"level:{mention.level}"})


def _english(words: list[Word]) -> bool:
    """Word order is read only in a question mostly written in Latin letters (besides its names and relation
    words); elsewhere both directions."""
    scripts = [script_of(w.text) for w in words if w.text not in STOP_WORDS]
    return sum(1 for s in scripts if s == "latin") * 2 >= len([s for s in scripts if s is not None])


def _mentions(words: list[Word], outside: list[int], vocabulary: list[Name], heads: Set[str]) -> list[Mention]:
    """Relation names the question uses (outside the named entity), the best-matching names at each place. A
    name whose words all name entity kinds (``has_term`` in ``Which term ...``) is the answer's kind there,
    not a relation: the kinds' own relations are read from the graph's shapes instead."""
    free = set(outside)
    found: list[Mention] = []
    position = 0
    while position < len(words):
        if position not in free or words[position].text in STOP_WORDS:
            position += 1
            continue
        matched: list[tuple[tuple[int, int], Name]] = []
        for name in vocabulary:
            span = len(name.core)
            if position + span > len(words) or not all(
                i in free and same(words[i].text, token)
                for i, token in zip(range(position, position + span), name.core, strict=True)
            ):
                continue
            if all(stems(words[i].text) & heads for i in range(position, position + span)):
                continue
            after = [w.text for w in words[position + span : position + span + len(name.linking)]]
            matched.append(((span, sum(1 for token in name.linking if token in after)), name))
        best_score = max((score for score, _ in matched), default=(0, 0))
        best = [name for score, name in matched if score == best_score]
        if any(name.passive for name in best):
            # "used by" is the passive name (A used_by B) and the active one (B uses A) alike: a graph may
            # hold either, and _directions reads each in its own voice
            best += [name for score, name in matched if score[0] == best_score[0] and not name.linking]
        if best:
            found.append(Mention(position, position + best_score[0] - 1, tuple(best)))
            position += best_score[0]
        else:
            position += 1
    return found


def _level_mentions(
    question: str,
    words: list[Word],
    outside: list[int],
    named: list[Mention],
    upwards: Sequence[Step],
    anchor: tuple[int, int] | None,
) -> list[Mention]:
    """The words that walk a hierarchy, each a step (``the broader term of the broader term of X`` is two),
    but words side by side one step (``more specific kinds`` is one step down). Relation names the question
    spells win their words; ``which kind of vessel ...`` only says what the answer is, but ``What kind of
    thing is X?`` asks what X is a kind of."""
    if not upwards:
        return []
    free = set(outside) - {i for m in named for i in range(m.first, m.last + 1)}
    found: list[Mention] = []
    for level, pattern in _LEVELS:
        for match in pattern.finditer(question):
            at = [i for i, w in enumerate(words) if match.start() <= w.start and w.end <= match.end()]
            if not at or not free.issuperset(at):
                continue
            read: Level = level
            if _modifier(question, words, at[-1]):
                continue
            english_singular = script_of(words[at[0]].text) == "latin" and not words[at[0]].text.endswith("s")
            if level == "either" and at[0] and words[at[0] - 1].text in INTERROGATIVES and english_singular:
                if not _asks_what_it_is(question, words, at[-1], anchor):
                    continue
                read = "up"
            found.append(Mention(at[0], at[-1], (), read))
    joined: list[Mention] = []
    for mention in sorted(found, key=lambda m: m.first):
        if joined and mention.first <= joined[-1].last + 1:
            last = joined.pop()
            kept = last if last.level != "either" else mention
            mention = Mention(last.first, max(last.last, mention.last), (), kept.level)
        joined.append(mention)
    return joined


def _modifier(question: str, words: list[Word], last: int) -> bool:
    """``static type checkers``, ``type hints``: a word for sorts that qualifies the noun after it asks for no
    kinds (``kinds of X``, ``What kind is X?`` do)."""
    following = _following(question, words, last)
    return bool(following) and following not in STOP_WORDS and SORT_NOUNS.fullmatch(words[last].text) is not None


def _apposition(words: list[Word], mention: Mention, at: int) -> bool:
    """``the formalization 'X'``: a word between an article and the entity names what the entity is."""
    return mention.last + 1 == at and mention.first > 0 and words[mention.first - 1].text in ARTICLES


def _attached(words: list[Word], mention: Mention, at: int) -> bool:
    """``the dependencies of X``: a relation noun bound to the entity by ``of``/``by`` is the first step,
    whatever stands on the entity's other side."""
    between = [w.text for w in words[mention.last + 1 : at]]
    return bool(between) and between[0] in ("of", "by") and all(w in STOP_WORDS for w in between)


def _following(question: str, words: list[Word], last: int) -> str:
    """The word right after a relation word, unless punctuation ends the phrase first."""
    if last + 1 >= len(words) or question[words[last].end : words[last + 1].start].strip():
        return ""
    return words[last + 1].text


def _asks_what_it_is(question: str, words: list[Word], last: int, anchor: tuple[int, int] | None) -> bool:
    """``What kind of thing is X?``: the kind word is followed by a verb ``be`` and then the entity, named (at
    most four words on, articles aside) or quoted as its description (``What kind of thing is the term defined
    as "..."``: the verb within the first three words after the kind word, the description within eight)."""
    if anchor is not None:
        between = [w.text for w in words[last + 1 :] if w.end <= anchor[0] and w.text not in ARTICLES]
        return 0 < len(between) <= 4 and between[-1] in _BE
    quoted = [start for start, _ in quoted_passages(question) if start > words[last].end]
    if not quoted:
        return False
    between = [w.text for w in words[last + 1 :] if w.end <= quoted[0]]
    return len(between) <= 8 and any(w in _BE for w in between[:3])


def _unnamed_anchor(words: list[Word], mentions: list[Mention]) -> int:
    """With nothing named, the described entity is on the side of the relation words with more content."""
    used = {i for m in mentions for i in range(m.first, m.last + 1)} | _opening_imperative(words)
    content = [i for i, w in enumerate(words) if i not in used and w.text not in STOP_WORDS and len(w.text) > 2]
    before = sum(1 for i in content if i < mentions[0].first)
    after = sum(1 for i in content if i > mentions[-1].last)
    return len(words) if after > before else -1


def _opening_imperative(words: list[Word]) -> set[int]:
    return {0} if words and words[0].text in _IMPERATIVES else set()


def _comparative(words: list[Word], mention: Mention, following: str, at: int) -> bool:
    """``broader than X``, ``the narrower concepts of X``: a relation named by a comparative (``broader``,
    ``narrower``) names its far end, as a description's noun does, not the one who acts (``the users of X``)."""
    word = words[mention.last].text
    named = len(mention.names) > 0 and all(
        len(name.core) == 1 and name.core[0].endswith("er") for name in mention.names
    )
    described = following == "than" or (following not in STOP_WORDS and following != "" and mention.last + 1 != at)
    return mention.first == mention.last and word.endswith("er") and named and described


def _agent_noun(word: str, names: tuple[Name, ...]) -> bool:
    """``dependents`` or ``users`` (those on the other side of the relation), not ``dependencies``."""
    return word.endswith(_AGENT_ENDINGS) and not any(t.endswith(_AGENT_ENDINGS) for n in names for t in n.core)


def _passive_voice(words: list[Word], mention: Mention) -> bool:
    """``What is needed to build X``, ``the packages needed to build X``, ``the PEPs mentioned in X``: a
    participle after a form of ``be``, or before ``to`` or a preposition the relation's name does not hold
    (``depended on`` is the active voice of ``depends_on``)."""
    for i in range(mention.first, mention.last + 1):
        after = words[i + 1].text if i + 1 < len(words) else ""
        reduced = after in _PLACE_PREPOSITIONS and not any(after in name.linking for name in mention.names)
        if past_participle(words[i].text) and ((i > 0 and words[i - 1].text in _BE) or after == "to" or reduced):
            return True
    return False


def _voiced_role(
    words: list[Word], mention: Mention, before: bool, following: str, agent: bool, of_named: bool
) -> Role:
    """The entity's role to the relation word in the voice of the relation's name. A name in the participle
    (``used_in``) is passive itself: the question's participle speaks in its voice (``X is used in``), the
    verb's other forms in the active one, whose object stands first in the name (``fields that use X``)."""
    if not all(name.participle for name in mention.names):
        return _role(before, following, agent, _passive_voice(words, mention), of_named)
    role = _role(before, following, agent, False, of_named)
    if words[mention.last].text in {name.core[-1] for name in mention.names}:
        return role
    return _ACTIVE[role]


def _role(before: bool, following: str, agent: bool, passive: bool, of_named: bool) -> Role:
    """What the entity (or the chain so far) is to the relation word: its subject or its object."""
    if passive and following not in ("by", "of", "for"):
        return "subject" if not before else "object"
    if before and following == "of" and not of_named:
        # X is a build dependency of (object), an extension of (subject): English does not say which
        return "subject" if agent else "either"
    if before:
        return "object" if following == "by" or agent else "subject"
    if following == "by":
        return "subject"
    if following == "of" and of_named:
        return "object"  # the parts of X: those that are part of X
    if following in ("of", "for"):
        return "object" if agent else "subject"
    return "object"


def _directions(name: Name, role: Role, following: str, english: bool) -> list[Step]:
    """The type's direction(s) from the entity: ``with`` (conflicts with, works with) reads both ways, and
    so does every relation of a question whose word order is not read."""
    if following == "with" or not english or role == "either":
        return [Step(name.step.type, True), Step(name.step.type, False)]
    source = (role == "subject") != name.passive  # the entity stands first in ``A name B``
    return [Step(name.step.type, source == name.step.forward)]
