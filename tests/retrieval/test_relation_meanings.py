"""Relation words in another script than the relation names, read by the embedding model (no store)."""

from __future__ import annotations

from graphrag.embedding import Embedder
from graphrag.retrieval.translated import RelationMeanings
from graphrag.retrieval.vocabulary import Step

NAMES = {
    "uses": (Step("USES", True),),
    "used_by": (Step("USES", False),),
    "violates": (Step("VIOLATES", True),),
    "formalizes": (Step("FORMALIZES", True),),
    "replaced_by": (Step("REPLACES", False),),
}
KINDS = ["formalization", "method", "failure_mode"]


def test_a_russian_relation_word_is_the_relation_name_it_means(embedder: Embedder) -> None:
    meanings = RelationMeanings(embedder, 0.7)

    assert meanings.words("Какие методы использует X?", NAMES, KINDS) == {"использует": (Step("USES", True),)}
    assert meanings.words("Какой принцип нарушает X?", NAMES, KINDS) == {"нарушает": (Step("VIOLATES", True),)}


def test_a_word_nearer_a_kind_than_any_relation_is_no_relation_word(embedder: Embedder) -> None:
    """``формализации`` is the kind ``formalization``, though a relation is called ``formalizes``."""
    found = RelationMeanings(embedder, 0.7).words("Какие формализации описывают X?", NAMES, KINDS)

    assert "формализации" not in found


def test_words_in_the_names_own_script_and_a_floor_of_zero_read_nothing(embedder: Embedder) -> None:
    assert RelationMeanings(embedder, 0.7).words("Which methods does X use?", NAMES, KINDS) == {}
    assert RelationMeanings(embedder, 0.0).words("Какие методы использует X?", NAMES, KINDS) == {}
