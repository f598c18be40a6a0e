"""The random walk's parts on a graph built in memory: relation weights, the neighbourhood, the visit
probabilities and the paths it reports. Properties only, so they hold whatever the tuned defaults are."""

from __future__ import annotations

import numpy as np
import pytest

from graphrag.retrieval.candidates import Question
from graphrag.retrieval.config import WalkConfig
from graphrag.retrieval.vocabulary import Step
from graphrag.retrieval.walk import (
    Adjacency,
    Parent,
    _neighbourhood,
    _personalised_pagerank,
    hidden_rows,
    path_to,
    returnable,
    step_weight,
)
from tests.retrieval.graphs import E, graph_copy

pytestmark = pytest.mark.fast

CONFIG = WalkConfig()
# Apollo 11 launched by Saturn V, built by Boeing, led by a person; every entity mentions the Moon.
MISSIONS = graph_copy(
    [
        E("APOLLO11", pack="missions"),
        E("SATURN5", pack="vehicles"),
        E("BOEING", pack="makers"),
        E("PERSON", pack="people"),
        E("MOON", pack="bodies"),
        E("LUNA9", pack="missions"),
        E("GHOST", missing=True),
    ],
    [
        ("APOLLO11", "LAUNCHED_BY", "SATURN5"),
        ("SATURN5", "BUILT_BY", "BOEING"),
        ("BOEING", "LED_BY", "PERSON"),
        ("APOLLO11", "MENTIONS", "MOON"),
        ("SATURN5", "MENTIONS", "MOON"),
        ("BOEING", "MENTIONS", "MOON"),
        ("PERSON", "MENTIONS", "MOON"),
        ("LUNA9", "MENTIONS", "MOON"),
        ("APOLLO11", "CITES", "GHOST"),
    ],
)
ROW = MISSIONS.entities.index


def adjacency() -> Adjacency:
    return Adjacency.of(MISSIONS, CONFIG.min_type_weight)


def walk(
    seeds: dict[str, float],
    steps: tuple[frozenset[Step], ...] = (),
    blocked: frozenset[str] = frozenset(),
    config: WalkConfig = CONFIG,
) -> tuple[dict[str, float], dict[int, Parent]]:
    """Visit probability per entity id over the neighbourhood of the seeds, and the hop that reached each row."""
    graph = adjacency()
    rows = {ROW[i]: w for i, w in seeds.items()}
    guided = graph.guided(steps)
    nodes, parents = _neighbourhood(graph, rows, guided, {ROW[i] for i in blocked}, config)
    visits = _personalised_pagerank(graph, nodes, rows, guided, config)
    ids = MISSIONS.entities.ids
    return {ids[row]: float(p) for row, p in zip(nodes, visits, strict=True)}, parents


def type_weight(graph: Adjacency, name: str) -> float:
    return float(graph.type_weights[graph.type_names.index(name)])


def test_a_relation_that_links_everything_weighs_less_than_a_specific_one() -> None:
    graph = adjacency()
    assert type_weight(graph, "MENTIONS") < type_weight(graph, "LAUNCHED_BY")
    assert all(w >= CONFIG.min_type_weight for w in graph.type_weights)


def test_links_are_walked_both_ways_with_their_direction_kept() -> None:
    graph = adjacency()
    neighbours, types, forward = graph.row(ROW["SATURN5"])
    seen = {
        (MISSIONS.entities.ids[n], graph.type_names[t], f) for n, t, f in zip(neighbours, types, forward, strict=True)
    }
    assert seen == {("APOLLO11", "LAUNCHED_BY", False), ("BOEING", "BUILT_BY", True), ("MOON", "MENTIONS", True)}
    assert graph.degree(ROW["MOON"]) == 5


def test_a_step_the_question_asks_for_weighs_more_in_its_direction_only() -> None:
    graph = adjacency()
    launched = graph.type_names.index("LAUNCHED_BY")
    guided = graph.guided((frozenset({Step("LAUNCHED_BY", True)}),))
    plain = step_weight(graph, launched, True, set(), CONFIG.guided_boost)
    assert step_weight(graph, launched, True, guided, CONFIG.guided_boost) > plain
    assert step_weight(graph, launched, False, guided, CONFIG.guided_boost) == plain


def test_visits_are_probabilities_and_the_seed_holds_the_most() -> None:
    visits, _ = walk({"APOLLO11": 1.0})
    assert sum(visits.values()) == pytest.approx(1.0)
    assert all(p >= 0 for p in visits.values())
    assert max(visits, key=visits.__getitem__) == "APOLLO11"


def test_the_walk_stays_within_its_hops() -> None:
    near, _ = walk({"APOLLO11": 1.0}, config=WalkConfig(hops=1))
    assert set(near) == {"APOLLO11", "SATURN5", "MOON", "GHOST"}
    further, _ = walk({"APOLLO11": 1.0}, config=WalkConfig(hops=2))
    assert set(further) == set(MISSIONS.entities.ids)  # Boeing through Saturn V, the others through the Moon


def test_a_nearer_entity_is_visited_more_than_one_further_along_the_same_chain() -> None:
    visits, _ = walk({"APOLLO11": 1.0})
    assert visits["SATURN5"] > visits["BOEING"]


def test_a_guided_step_draws_the_walk_its_way() -> None:
    plain, _ = walk({"SATURN5": 1.0})
    guided, _ = walk({"SATURN5": 1.0}, steps=(frozenset({Step("BUILT_BY", True)}),))
    assert guided["BOEING"] > plain["BOEING"]
    assert guided["APOLLO11"] < plain["APOLLO11"]


def test_a_blocked_pack_is_never_entered() -> None:
    visits, _ = walk({"SATURN5": 1.0}, blocked=frozenset({"BOEING"}))
    assert "BOEING" not in visits and visits["PERSON"] > 0  # the person is still reached, through the Moon
    hidden = hidden_rows(MISSIONS, Question("q", 10, hidden=frozenset({"makers"})))
    assert [row for row in range(len(MISSIONS.entities.ids)) if row in hidden] == [ROW["BOEING"]]


def test_paths_name_each_hop_and_a_backward_one_with_a_caret() -> None:
    _, parents = walk({"BOEING": 1.0})
    assert path_to(MISSIONS, parents, ROW["APOLLO11"]) == ["BOEING", "^built_by", "SATURN5", "^launched_by", "APOLLO11"]
    assert path_to(MISSIONS, parents, ROW["PERSON"]) == ["BOEING", "led_by", "PERSON"]
    assert path_to(MISSIONS, parents, ROW["BOEING"]) == ["BOEING"]


def test_placeholders_and_other_packs_or_kinds_are_walked_through_never_returned() -> None:
    assert not returnable(MISSIONS, Question("q", 10), ROW["GHOST"])
    assert returnable(MISSIONS, Question("q", 10, packs=["missions"]), ROW["LUNA9"])
    assert not returnable(MISSIONS, Question("q", 10, packs=["missions"]), ROW["MOON"])
    assert not returnable(MISSIONS, Question("q", 10, kinds=["mission"]), ROW["LUNA9"])


def test_a_seed_without_links_keeps_all_its_probability() -> None:
    lonely = graph_copy([E("A"), E("B")], [])
    graph = Adjacency.of(lonely, CONFIG.min_type_weight)
    nodes, _ = _neighbourhood(graph, {0: 1.0}, set(), set(), CONFIG)
    assert nodes == [0]
    assert _personalised_pagerank(graph, nodes, {0: 1.0}, set(), CONFIG).tolist() == [1.0]


def test_two_seeds_share_the_restart_by_their_weights() -> None:
    graph = adjacency()
    seeds = {ROW["APOLLO11"]: 3.0, ROW["LUNA9"]: 1.0}
    nodes, _ = _neighbourhood(graph, seeds, set(), set(), CONFIG)
    visits = dict(zip(nodes, _personalised_pagerank(graph, nodes, seeds, set(), CONFIG), strict=True))
    assert visits[ROW["APOLLO11"]] > visits[ROW["LUNA9"]] > 0
    assert np.isclose(sum(visits.values()), 1.0)
