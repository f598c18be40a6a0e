"""Entity linking's name table and link confidence, on names held in memory. Properties only (which names
link, which is surer), so they hold whatever the tuned defaults are."""

from __future__ import annotations

from typing import cast

import pytest

from graphrag.names import name_token_spans, name_tokens, quoted_passages, transliterated
from graphrag.retrieval.config import LinkingConfig
from graphrag.retrieval.linking import EntityLinker, NameTable, _asked, _heads, _scan, _written_as_id
from graphrag.retrieval.snapshot import GraphSnapshot
from graphrag.stores.graph import GraphStore
from tests.retrieval.graphs import E, graph_copy

pytestmark = pytest.mark.fast

CONFIG = LinkingConfig()
PEOPLE = graph_copy(
    [
        E("SM.PERSON.GAGARIN", "Юрий Гагарин", ("Yuri Gagarin",)),
        E("SM.PERSON.ARMSTRONG", "Neil Armstrong"),
        E("SM.PERSON.LOUIS", "Louis Armstrong"),  # shares the surname: "Armstrong" alone links neither
        E("SM.MISSION.APOLLO", "Apollo programme", ("Apollo",)),
        E("SM.MISSION.APOLLO11", "Apollo 11"),
        E("PEP-0513", "A Platform Tag for Portable Linux Built Distributions"),
        E("python3", "Python 3 interpreter"),
        E("TWIN.A", "Mercury"),
        E("TWIN.B", "Mercury"),  # one title, two entities: the title links none
        E("SM.GHOST", "Ghost", missing=True),
    ]
)
ROW = PEOPLE.entities.index


def key(name: str) -> str:
    return " ".join(name_tokens(name))


def table(config: LinkingConfig = CONFIG) -> NameTable:
    return NameTable.of(PEOPLE, config)


def linked(question: str) -> list[str]:
    """The entity ids the question names, left to right (the scan alone, no transliteration pass)."""
    return [PEOPLE.entities.ids[m.row] for m in _scan(table(), name_token_spans(question))]


def test_each_id_title_and_alias_names_its_entity() -> None:
    rows = table().rows
    assert rows[key("SM.PERSON.ARMSTRONG")] == rows[key("Neil Armstrong")] == ROW["SM.PERSON.ARMSTRONG"]
    assert rows[key("Apollo")] == ROW["SM.MISSION.APOLLO"]
    assert rows[key("PEP 513")] == ROW["PEP-0513"]  # one key whatever the separators and leading zeros


def test_a_name_two_entities_share_links_neither() -> None:
    names = table()
    assert key("Mercury") not in names.rows
    assert "armstrong" not in names.partial
    assert names.partial["gagarin"] == ROW["SM.PERSON.GAGARIN"]


def test_names_match_across_scripts_when_transliteration_is_on() -> None:
    assert table().rows[key(transliterated("Юрий Гагарин"))] == ROW["SM.PERSON.GAGARIN"]
    assert key(transliterated("Юрий Гагарин")) not in table(LinkingConfig(transliterate=False)).rows


def test_placeholders_and_words_too_common_to_be_names_never_link() -> None:
    names = table()
    assert key("Ghost") not in names.rows and key("SM.GHOST") not in names.rows
    assert "the" not in names.partial and "3" not in names.rows


def test_the_longest_name_wins_where_names_overlap() -> None:
    assert linked("When did Apollo 11 land?") == ["SM.MISSION.APOLLO11"]
    assert linked("When did the Apollo programme end?") == ["SM.MISSION.APOLLO"]
    assert linked("Did Neil Armstrong fly on Apollo 11?") == ["SM.PERSON.ARMSTRONG", "SM.MISSION.APOLLO11"]


def confidence(question: str, name: str, entity: str, others: int, entities: int = 1000) -> float:
    """The link confidence of ``name`` in ``question`` when ``others`` other entities' text holds it.

    ``_confidence`` reads the name table alone; ``retrieve`` fills the table's counts from the graph first,
    here they are given, so no store is involved (the linker's graph and snapshot are never touched).
    """
    names = NameTable.of(PEOPLE, CONFIG)
    names = NameTable(names.rows, names.partial, names.id_keys, names.longest, entities)
    mention = next(m for m in _scan(names, name_token_spans(question)) if m.key == key(name))
    names.frequency[mention.key] = others + 1  # the entity's own text holds its name too
    linker = EntityLinker(cast(GraphStore, None), cast(GraphSnapshot, None), CONFIG)
    return linker._confidence(names, mention, question, entity)


def test_the_more_other_entities_mention_a_name_the_less_sure_its_link() -> None:
    question = "Who flew with Neil Armstrong?"
    sureness = [confidence(question, "Neil Armstrong", "SM.PERSON.ARMSTRONG", n) for n in (0, 1, 10, 100, 999)]
    assert sureness == sorted(sureness, reverse=True)
    assert sureness[0] == 1.0  # no other entity mentions it
    assert sureness[-1] < CONFIG.min_confidence  # every entity mentions it: a word, not a name
    assert all(0.0 <= s <= 1.0 for s in sureness)


def test_a_name_more_entities_mention_than_are_counted_is_a_word_in_a_pack_of_any_size() -> None:
    """An entity titled "example" in a thesaurus whose every entry has examples: its count stops at the cap,
    which in a large pack would still read as fairly rare (1 - ln 1000 / ln 15000 = .28)."""
    cap = CONFIG.frequency_cap
    question = "Who flew with Neil Armstrong?"
    assert confidence(question, "Neil Armstrong", "SM.PERSON.ARMSTRONG", cap - 2, entities=15_000) > 0.25
    assert confidence(question, "Neil Armstrong", "SM.PERSON.ARMSTRONG", cap - 1, entities=15_000) == 0.0


def test_a_quoted_name_or_an_id_written_as_one_is_sure_however_common() -> None:
    assert confidence('What did "Apollo" achieve?', "Apollo", "SM.MISSION.APOLLO", 999) == 1.0
    assert confidence("Which programme is also known as 'Apollo'?", "Apollo", "SM.MISSION.APOLLO", 999) == 1.0
    assert confidence("Which PEP superseded PEP 513?", "PEP 513", "PEP-0513", 999) == 1.0
    # "Python 3" splits the id python3 into two words: prose, so only as sure as the name is rare.
    assert confidence("Does it run on Python 3?", "python3", "python3", 999) < CONFIG.min_confidence
    assert confidence("Does it run on Python 3?", "python3", "python3", 0) == 1.0


def test_an_id_matched_only_through_transliteration_is_no_reference() -> None:
    """``ОКВЭД 2`` names a classifier, not the entity whose Latin id is OKVED.02."""
    assert _written_as_id("PEP 513", "PEP-0513")
    assert not _written_as_id("ОКВЭД 2", "OKVED.02")


def test_a_lone_surname_counts_only_when_written_as_a_name() -> None:
    assert confidence("What did Gagarin say?", "gagarin", "SM.PERSON.GAGARIN", 0) == 1.0
    assert confidence("The gagarin crater is where?", "gagarin", "SM.PERSON.GAGARIN", 0) == 0.0


def says_what(question: str, name: str) -> bool:
    """Whether ``name`` in ``question`` says what an entity is rather than which (``linker.readings``' kind)."""
    start = question.index(name)
    return _asked(question, start) or _heads(question, start + len(name), quoted_passages(question))


@pytest.mark.parametrize(
    ("question", "name", "kind"),
    [
        ('What is the thing described as "a pen for cattle" a kind of?', "thing", True),
        ("Which category does the term defined as 'a pen for cattle' fall under?", "term", True),
        ("Какие группировки входят в группировку с пояснением «выращивание риса»?", "группировку", True),
        ("What whole does the rudder belong to?", "whole", True),
        ("What kind of thing is a cartridge holder?", "thing", True),
        ("Which type of vessel carries a rudder?", "vessel", True),
        ("What is the kind of thing a rudder is part of?", "thing", False),
        ("Какую группировку включает раздел A?", "группировку", True),
        ('Did Apollo 11 carry "Eagle"?', "Apollo 11", False),
        ("Who flew on Apollo 11?", "Apollo 11", False),
    ],
)
def test_a_name_heading_a_quoted_description_or_asked_for_says_what_not_which(
    question: str, name: str, kind: bool
) -> None:
    assert says_what(question, name) is kind
