"""The one set of spelling rules, shared by ingest, retrieval and memory: ids, relation names, kind
labels, and how text is folded before two spellings are compared.

Nothing here touches a store, so every layer may import it; a rule written twice drifts (once
``crewedBy`` was ``crewed_by`` to the ingester and unknown to ``pack_graph``).
"""

from __future__ import annotations

import difflib
import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Literal

from anyascii import anyascii

Script = Literal["latin", "cyrillic", "cjk"]

# An id: letters of any script, digits and `. _ : / + -`, no spaces (`+` for real package names:
# `libstdc++6`, `g++`).
# Entity ids and link targets, in characters: Neo4j cannot index a key longer than about 8 KiB
# (this leaves room for 4-byte characters and passage ids).
MAX_ID_LENGTH = 512
ID_PATTERN = re.compile(r"^[\w.:/+\-]+$")
ID_RULE = "letters, digits and . _ : / + - without spaces"
RELATION_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[\s\-]+")
# Han, kana and hangul carry no spaces between words: each character is a token of its own.
CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
CYRILLIC_CHARS = "\u0400-\u04ff"
# The scripts the full-text indexes are analysed for (English/Latin stems, Russian stems, CJK bigrams);
# letters of any other script go with Latin.
SCRIPTS: dict[Script, re.Pattern[str]] = {
    "latin": re.compile(f"[^\\W\\d_{CYRILLIC_CHARS}{CJK_CHARS}]"),
    "cyrillic": re.compile(f"[{CYRILLIC_CHARS}]"),
    "cjk": re.compile(f"[{CJK_CHARS}]"),
}
_SCRIPT_WORDS = {
    "cyrillic": re.compile(f"[{CYRILLIC_CHARS}]+"),
    "cjk": re.compile(f"[{CJK_CHARS}]+"),
}
# A name token: one CJK character, a run of digits, or a run of other letters with the `+` signs that
# end it (`C++` is not `C`).
_NAME_TOKEN = re.compile(f"[{CJK_CHARS}]|\\d+|[^\\W\\d_{CJK_CHARS}]+\\+*")

WORD = re.compile(r"\w+")
# Runs of CJK are matched by overlapping bigrams (no spaces between words).
CJK_RUN = re.compile(f"([{CJK_CHARS}]+)")
# Words that say nothing about a topic; they would match almost every record by substring.
STOP_WORDS = frozenset(
    """
    a an and are as at be by do does did for from how i in is it of on or our so the this that to us we what when
    where which who why with you your about into but if no not such their then there these they was will
    а в во да же и из или к как ко ли на над не нас наш наша наше наши но о об от по под при про с со так там
    то тот у что это эта эти где когда кто мы вы они он она оно я ну бы был была были есть чем чтобы для
    的 了 是 在 我 我们 你 他 她 它 和 与 或 吗 呢 怎么 如何 什么 哪 这 那
    """.split()
)
ARTICLES = frozenset({"the", "a", "an"})
# The words that ask which one (``Which rocket ...``, ``Какую группировку ...``): the noun after one names what
# the answer is.
INTERROGATIVES = frozenset(
    {"which", "what", "какой", "какая", "какое", "какие", "каком", "какого", "какую", "каким", "каких", "какими"}
)
DESCRIPTION_WORDS = 4  # words of a quoted passage that describes (``"a portable ladder hung over ..."``)
# The words for sorts (``What kind of thing ...``, ``type hints``).
SORT_NOUNS = re.compile(r"(?:kind|type|sort|variet(?:y|ie))s?")

TEAM_PACK_PREFIX = "github:"  # pack ids of team sources (GitHub repositories); no local pack may take one


def fold(text: str) -> str:
    """Case-, width- and compatibility-insensitive form used on both sides of every match (``ё`` = ``е``)."""
    return unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")


NEAREST_SHOWN = 5  # the most nearest names a message offers
# difflib's ratio below which two spellings share too little to offer one for the other; a typo is closer.
_NEAREST_CUTOFF = 0.5
_TYPO_CUTOFF = 0.85
_DIGITS = re.compile(r"\d+")


def nearest_names(
    unknown: str,
    spellings: Iterable[tuple[str, str]],
    limit: int = NEAREST_SHOWN,
    typos_only: bool = False,
    always: bool = False,
) -> list[str]:
    """The known names nearest to an unknown one, nearest first (``NearestNames`` for one question)."""
    return NearestNames(spellings).of(unknown, limit, typos_only, always)


class NearestNames:
    """The known names nearest to an unknown one, nearest first: what every "unknown X" message offers.

    ``spellings`` pairs a way a name is written (the name itself, a title) with the name it stands for;
    both sides are folded. Close spellings (``lanched_by``, ``SM.PROGRAM.APPOLO``) come first, then those
    that contain the unknown one (a fragment: ``apollo``). ``typos_only`` is for a name that may be unknown
    on purpose (a link to an entity not written yet, a relation a pack has not declared): only a spelling
    this close and with the same numbers is offered (``PD.FORM.093`` is another entity than ``PD.FORM.039``,
    not a typo of it). ``always`` is for a short closed list (packs, kinds, relations, workspaces): the nearest
    are offered however far, ranked the same way. Built once for many questions (every dangling link of a run),
    it folds each spelling once.
    """

    def __init__(self, spellings: Iterable[tuple[str, str]]) -> None:
        self._by_text: dict[str, str] = {}
        for text, name in spellings:
            self._by_text.setdefault(fold(text), name)
        self._by_digits: dict[tuple[str, ...], list[str]] = {}
        for text in self._by_text:
            self._by_digits.setdefault(tuple(_DIGITS.findall(text)), []).append(text)

    def of(self, unknown: str, limit: int = NEAREST_SHOWN, typos_only: bool = False, always: bool = False) -> list[str]:
        wanted = fold(unknown)
        if typos_only:
            candidates = self._by_digits.get(tuple(_DIGITS.findall(wanted)), [])
            close = difflib.get_close_matches(wanted, candidates, n=limit, cutoff=_TYPO_CUTOFF)
            return list(dict.fromkeys(self._by_text[t] for t in close))[:limit]
        cutoff = 0.0 if always else _NEAREST_CUTOFF
        close = difflib.get_close_matches(wanted, list(self._by_text), n=limit, cutoff=cutoff)
        containing = [text for text in self._by_text if wanted and wanted in text]
        return list(dict.fromkeys(self._by_text[t] for t in close + containing))[:limit]


def name_tokens(text: str) -> list[str]:
    """The tokens that identify a name, whatever its separators: ``PEP-0008``, ``pep 8`` and ``Pep8`` all
    give ``['pep', '8']`` (numbers lose leading zeros); CJK text gives one token per character."""
    return [_number(t) if t.isdigit() else t for t in _NAME_TOKEN.findall(fold(text))]


def name_token_spans(text: str) -> list[tuple[str, int, int]]:
    """``name_tokens`` of ``text`` with where each stands in it (start, end), to read how a name was written."""
    return [
        (_number(t) if t.isdigit() else t, m.start(), m.end())
        for m in _NAME_TOKEN.finditer(text)
        for t in [fold(m.group())]
    ]


def _number(token: str) -> str:
    return token.lstrip("0") or "0"


def transliterated(text: str) -> str:
    """``text`` in Latin letters (``Юрий Гагарин`` -> ``Yuriy Gagarin``), so names match across scripts."""
    return anyascii(text)


def is_valid_id(value: str) -> bool:
    return bool(value) and ID_PATTERN.match(value) is not None


PACK_ID_RULE = f"{ID_RULE}, and no empty, '.' or '..' part between slashes"


def is_valid_pack_id(value: str) -> bool:
    """A pack id is an id that reads as no path out of anything (``../x``, ``/x``, ``a//b``): packs name
    folders of caches and snapshots, and are compared by callers as scopes."""
    return is_valid_id(value) and not any(part in ("", ".", "..") for part in value.split("/"))


def normalise_relation(raw: str) -> str | None:
    """``dependsOn`` / ``depends-on`` / ``Depends On`` / ``DEPENDS_ON`` -> ``depends_on``; None when no valid
    name results."""
    name = _SEPARATORS.sub("_", _CAMEL_BOUNDARY.sub("_", raw.strip())).lower()
    return name if RELATION_PATTERN.match(name) else None


def relationship_type(relation: str) -> str:
    """The Neo4j relationship type of a (normalised) relation name: ``depends_on`` -> ``DEPENDS_ON``."""
    return relation.upper()


def relation_of_type(rel_type: str) -> str:
    """The relation name of a relationship type: ``DEPENDS_ON`` -> ``depends_on`` (answers spell names so)."""
    return rel_type.lower()


def kind_label(kind: str) -> str:
    """PascalCase label for a kind (``failure-mode`` -> ``FailureMode``), so Browser colours kinds apart."""
    parts = [p for p in re.split(r"[^\w]+|_", _CAMEL_BOUNDARY.sub("_", kind)) if p]
    label = "".join(p[:1].upper() + p[1:] for p in parts) or "Entity"
    return "Kind" + label if label[0].isdigit() else label


_KIND_SEPARATORS = re.compile(r"[\s\-_.]+")
_SIBILANT_PLURAL = re.compile(r"(s|x|z|ch|sh)es$")


def kind_key(kind: str) -> str:
    """How a kind filter is compared when not given exactly: any case, ``-``/space/``_`` alike, and an English
    plural read as its singular (``Missions``, ``launch-vehicles`` -> ``mission``, ``launch_vehicle``)."""
    key = _KIND_SEPARATORS.sub("_", fold(kind).strip())
    if key.endswith("ies") and len(key) > 4:
        return key[:-3] + "y"
    if _SIBILANT_PLURAL.search(key):
        return key[:-2]
    if key.endswith("s") and not key.endswith(("ss", "us", "is")):
        return key[:-1]
    return key


def query_words(query: str) -> list[str]:
    """The distinct content words of a query, in order (see ``word_sequence``)."""
    return list(dict.fromkeys(word_sequence(query)))


def word_sequence(query: str) -> list[str]:
    """The content words of a query in order, repeats kept; stop words and single Latin/Cyrillic letters
    are dropped.

    A CJK run becomes its overlapping character bigrams (``部署测试`` -> ``部署 署测 测试``), the usual
    dictionary-free way to find Chinese words inside unsegmented text.
    """
    sequence: list[str] = []
    for token in WORD.findall(fold(query)):
        for piece in CJK_RUN.split(token):
            if CJK_RUN.fullmatch(piece):
                words = [piece[i : i + 2] for i in range(len(piece) - 1)] or [piece]
            else:
                words = [piece] if len(piece) > 1 else []
            sequence += [word for word in words if word not in STOP_WORDS]
    return sequence


_CLAUSE_BREAK = re.compile(r"[,;:?!()\[\]\n]+|\.(?:\s|$)")


def clauses(text: str, min_words: int) -> list[str]:
    """The parts of a question that say one thing each: each passage it quotes, whole, and the text around
    them split at its punctuation; a part needs ``min_words`` content words, and one that holds every word
    of the question is the question itself, so none."""
    spans = quoted_passages(text)
    quoted = [text[start:end] for start, end in spans]
    edges = [0, *(i for start, end in spans for i in (start - 1, end + 1)), len(text)]
    outside = [piece for a, b in zip(edges[::2], edges[1::2], strict=True) for piece in _CLAUSE_BREAK.split(text[a:b])]
    whole = query_words(text)
    return [part.strip() for part in quoted + outside if min_words <= len(query_words(part)) < len(whole)]


# Single quotes count only where no letter touches them from outside (``'Aubergine'``, not ``it's`` or ``users'``).
_PASSAGE = re.compile(r'"[^"]*"|«[^»]*»|“[^”]*”|„[^“”]*[“”]|‘[^’]*’|(?<![\w\'])\'[^\'\n]+\'(?![\w\'])')
_PHRASE_SYNTAX = re.compile(r'(["\\])')


def phrase_text(text: str) -> str:
    """``text`` as the inside of a Lucene phrase (``"..."``): its quotes and backslashes escaped, the only
    syntax a phrase has, so nothing a caller writes is read as a query."""
    return _PHRASE_SYNTAX.sub(r"\\\1", text)


def text_key(entity_id: str) -> str:
    """An entity's own token in the full-text indexes: digits, which every analyzer keeps as they are, so a
    query can be held to chosen entities (``text_key:(...)``) and no question's word is one by chance."""
    return str(int.from_bytes(hashlib.blake2b(entity_id.encode(), digest_size=8).digest(), "big"))


def quoted_passages(text: str) -> list[tuple[int, int]]:
    """The character spans inside quotes (``"…"``, ``«…»``, ``“…”``, ``'…'``): text a question cites, whose
    words are data (a description, a title, a synonym), never the question's own grammar."""
    return [(m.start() + 1, m.end() - 1) for m in _PASSAGE.finditer(text)]


def quoted_description(text: str) -> tuple[int, int] | None:
    """The span of the longest passage the text quotes, if it has several words: a description (or a long
    title), not a name."""
    passages = [(len(WORD.findall(text[start:end])), (start, end)) for start, end in quoted_passages(text)]
    longest = max(passages, default=None)
    return longest[1] if longest is not None and longest[0] >= DESCRIPTION_WORDS else None


def script_of(word: str) -> Script | None:
    """The script a word is written in (None for digits alone)."""
    return next((script for script, letters in SCRIPTS.items() if letters.search(word)), None)


def script_text(text: str, script: Literal["cyrillic", "cjk"]) -> str | None:
    """Only the Cyrillic words (or CJK runs) of ``text``, space-separated: what that script's full-text
    index needs of a long text, so its analyzer reads only what it is for."""
    return " ".join(_SCRIPT_WORDS[script].findall(text)) or None
