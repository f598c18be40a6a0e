"""Every query the service runs is a readable, parameterised file an analyst can paste into Browser."""

from __future__ import annotations

import pytest

from graphrag.stores.cypher import CypherFile, all_queries, cypher_dir, of_type, query
from graphrag.stores.graph import GraphStore

QUERIES = all_queries()


@pytest.mark.fast
def test_there_are_query_files() -> None:
    assert len(QUERIES) > 10
    assert all(p.suffix == ".cypher" for p in cypher_dir().iterdir() if p.is_file())


@pytest.mark.fast
@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_header_says_what_and_names_every_parameter(query: CypherFile) -> None:
    assert query.header, f"{query.name}.cypher has no header comment"
    assert "Parameters:" in query.header, f"{query.name}.cypher: the header must list its parameters"
    assert query.documented_parameters == query.parameters, (
        f"{query.name}.cypher: header names {sorted(query.documented_parameters)}, body uses {sorted(query.parameters)}"
    )


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_query_compiles_in_neo4j(query: CypherFile, neo4j_store: GraphStore) -> None:
    """EXPLAIN plans each statement without running it, so every file is valid Cypher for this server."""
    params = dict.fromkeys(query.parameters)
    with neo4j_store._driver.session() as session:
        for statement in query.statements:
            session.run(f"EXPLAIN {statement}", params).consume()


def operators(graph: GraphStore, cypher: CypherFile) -> list[tuple[str, str]]:
    """Each operator of the query's plan and its details."""
    with graph._driver.session() as session:
        plan = session.run(f"EXPLAIN {cypher.body}", dict.fromkeys(cypher.parameters)).consume().plan
    found: list[tuple[str, str]] = []
    pending = [plan]
    while pending:
        step = pending.pop()
        found.append((step["operatorType"].split("@")[0], step.get("args", {}).get("Details", "")))
        pending += step.get("children", [])
    return found


def test_a_link_is_merged_by_expanding_between_its_ends_never_by_a_scan_of_every_link(graph: GraphStore) -> None:
    """A MERGE of a dynamic type, $(row.type), scanned every relationship: 69 s for a fresh pack's first 1,000."""
    planned = [op for op, _ in operators(graph, of_type(query("ingest_write_links"), "DEPENDS_ON"))]
    assert "Expand(Into)" in planned
    assert [op for op in planned if "RelationshipsScan" in op] == []


def test_the_graph_marker_reads_counts_and_an_index_never_the_entities(graph: GraphStore) -> None:
    """Every server reads the marker every 2 seconds: reading each entity took 588 ms at a million of them."""
    scans = [
        (op, details)
        for op, details in operators(graph, query("retrieval_marker"))
        if "Scan" in op and ("Entity" in details or "Missing" in details)
    ]
    assert [op for op, _ in scans] == ["NodeIndexScan"]
