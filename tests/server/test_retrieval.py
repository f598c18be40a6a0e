"""Graph-aware retrieval through the MCP client on the real stores: modes, linking, the walk, passages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from graphrag.retrieval.config import ContextConfig
from graphrag.retrieval.models import ATTRIBUTE_UNITS
from graphrag.server.answers import ContextAnswer, SearchAnswer
from graphrag.server.budget import MARKER
from graphrag.stores.graph import GraphStore
from tests.conftest import EXAMPLES
from tests.server.conftest import wire_bytes, write_entity
from tests.server.test_pack_tools import call

pytestmark = pytest.mark.engines  # vector and hybrid answers on both engines


async def search(client: Client[Any], query: str, **arguments: Any) -> SearchAnswer:
    return SearchAnswer.model_validate(await call(client, "pack_search", query=query, **arguments))


@pytest.mark.parametrize(
    "spelling", ["SM.MISSION.APOLLO11", "sm mission apollo 11", "sm-mission-apollo-011", "Apollo 11", "APOLLO 11"]
)
async def test_an_entity_named_by_id_or_title_in_any_spelling_ranks_first(example: Client[Any], spelling: str) -> None:
    found = await search(example, f"what happened on {spelling}?")

    assert found.results[0].id == "SM.MISSION.APOLLO11"
    assert found.results[0].matched[0] == "linked"


async def test_titles_link_in_any_script_and_case(example: Client[Any]) -> None:
    found = await search(example, "что известно про ЮРИЯ ГАГАРИНА или про сергей королёв")

    assert found.results[0].id == "SM.PERSON.KOROLEV"  # "Сергей Королёв" as a phrase; the inflected name is not
    assert [hit.id for hit in found.results if "linked" in hit.matched] == ["SM.PERSON.KOROLEV"]


async def test_a_russian_relation_word_walks_the_english_named_relation_it_means(example: Client[Any]) -> None:
    """``запущен`` spells no relation name (``launched_by``), yet means it: the rocket comes right after the
    mission, ahead of its crew."""
    found = await search(example, "Кем запущен Apollo 11?")

    assert [hit.id for hit in found.results[:2]] == ["SM.MISSION.APOLLO11", "SM.VEHICLE.SATURNV"]
    assert found.results[1].via == ["SM.MISSION.APOLLO11", "launched_by", "SM.VEHICLE.SATURNV"]


async def test_graph_hits_say_the_typed_path_from_the_named_entity(example: Client[Any]) -> None:
    found = await search(example, "Which rocket launched Vostok 1?")
    walked = [hit for hit in found.results if "graph" in hit.matched]

    assert found.results[0].id == "SM.MISSION.VOSTOK1"
    assert "SM.VEHICLE.VOSTOK" in [hit.id for hit in found.results[:3]]
    vehicle = next(hit for hit in walked if hit.id == "SM.VEHICLE.VOSTOK")
    assert vehicle.via == ["SM.MISSION.VOSTOK1", "launched_by", "SM.VEHICLE.VOSTOK"]
    assert all(hit.via and hit.via[0] == "SM.MISSION.VOSTOK1" and hit.via[-1] == hit.id for hit in walked)


@pytest.mark.parametrize("mode", ["hybrid", "vector", "text"])
async def test_filters_and_limits_hold_in_every_mode(example: Client[Any], mode: str) -> None:
    found = await search(example, "Apollo 11 moon landing rocket", mode=mode, kinds=["person"], limit=2)

    assert 0 < len(found.results) <= 2
    assert {hit.kind for hit in found.results} == {"person"}
    if mode != "hybrid":
        assert all(hit.matched == [mode] for hit in found.results)


async def test_a_kind_filter_finds_its_entity_below_many_that_hold_the_words_more(
    run_ingest, client_for, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """The filter drops hits after the index has read them, so a filtered search reads more than it keeps."""
    pack = tmp_path / "crowded"
    pack.mkdir()
    for n in range(40):
        write_entity(pack, f"concept{n:02d}", "Orbit rendezvous. " * 5, title=f"Orbit rendezvous {n}", kind="concept")
    write_entity(pack, "pilot", "A pilot who flew one orbit rendezvous.", title="Pilot", kind="person")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(client, "orbit rendezvous", mode="text", kinds=["person"], limit=1)

    assert [hit.id for hit in found.results] == ["pilot"]


async def test_placeholders_holding_the_words_leave_the_limit_full(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A link to an id no file defines makes a placeholder titled with that id; the index finds it and the
    search drops it after the read, so it must not take the place of an entity."""
    pack = tmp_path / "dangling"
    pack.mkdir()
    for n in range(3):
        write_entity(pack, f"note{n}", "An orbit probe.", title=f"Note {n}", related="{uses: [orbit-probe-x]}")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(client, "orbit probe x", mode="text", limit=3)

    assert sorted(hit.id for hit in found.results) == ["note0", "note1", "note2"]


async def test_words_no_entity_holds_find_nothing_in_text_mode(example: Client[Any]) -> None:
    found = await search(example, 'zyxwvut "qwertyuiop asdfghjkl"', mode="text")

    assert found.results == []


async def test_a_name_shared_by_two_entities_links_neither(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "twins"
    pack.mkdir()
    write_entity(pack, "T.ONE", "The first twin.", title="Gemini", summary="One of two.")
    write_entity(pack, "T.TWO", "The second twin.", title="Gemini", summary="The other one.")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(client, "tell me about Gemini")

    assert {hit.id for hit in found.results} == {"T.ONE", "T.TWO"}
    assert not any("linked" in hit.matched for hit in found.results)


async def test_text_search_stems_russian_and_pairs_chinese_characters(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "languages"
    pack.mkdir()
    write_entity(pack, "L.RU", "Космические корабли стартовали с космодрома.", title="Старты", summary="Запуски.")
    write_entity(pack, "L.ZH", "阿波罗计划把宇航员送上月球。", title="阿波罗", summary="登月。")
    write_entity(pack, "L.ZH2", "计算和规划是两件事。", title="算法", summary="别的。")
    run_ingest(pack)
    async with client_for() as client:
        russian = await search(client, "космический корабль", mode="text")
        chinese = await search(client, "计划", mode="text")

    assert [hit.id for hit in russian.results] == ["L.RU"]  # корабли ~ корабль, космические ~ космический
    assert [hit.id for hit in chinese.results] == ["L.ZH"]  # the bigram 计划, not 计 and 划 apart


async def test_a_changed_analyzer_is_recreated_by_the_next_ingest(graph: GraphStore, run_ingest) -> None:  # type: ignore[no-untyped-def]
    graph.ensure_schema("test_standard_ru_index")
    assert {r["name"]: r["analyzer"] for r in graph.read("schema_fulltext_indexes")}["entity_text_ru"] == "standard"

    run_ingest(EXAMPLES / "space-missions")

    assert {r["name"]: r["analyzer"] for r in graph.read("schema_fulltext_indexes")}["entity_text_ru"] == "russian"


def test_a_schema_in_effect_is_not_sent_again_but_a_lost_index_is(
    graph: GraphStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each schema statement is a transaction of its own, run at every start and ingest: those already in effect
    are not sent (23 at a server's start, 0.05 s); an index someone dropped is created again."""
    graph.write("schema_drop_index", index="entity_pack")
    sent: list[str] = []
    execute = graph._driver.execute_query

    def noting(query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(getattr(query, "text", str(query)))
        return execute(query, *args, **kwargs)

    monkeypatch.setattr(graph._driver, "execute_query", noting)
    graph.ensure_schema()
    schema = [text for text in sent if text.lstrip().upper().startswith(("CREATE", "DROP"))]
    assert [text.split(" IF ")[0] for text in schema] == ["CREATE INDEX entity_pack"]
    assert "entity_pack" in {row["name"] for row in graph.read("schema_indexes")}


async def test_a_server_start_leaves_an_analysts_fulltext_index_alone(graph: GraphStore, client_for) -> None:  # type: ignore[no-untyped-def]
    """It was dropped at every server start, for lying on :Entity and not being the service's; the memory's
    full-text index is managed by name too."""
    graph.ensure_schema("test_analyst_index")
    try:
        async with client_for() as client:
            await client.list_tools()

        indexes = {r["name"]: r for r in graph.read("schema_fulltext_indexes")}
        assert indexes["analyst_entity_notes"]["properties"] == ["title", "note"]
        assert indexes["analyst_memory_notes"]["properties"] == ["content"]
        assert {"entity_text", "entity_text_ru", "entity_text_cjk", "memory_record_text"} <= indexes.keys()
    finally:
        graph.write("schema_drop_index", index="analyst_entity_notes")
        graph.write("schema_drop_index", index="analyst_memory_notes")


async def test_passages_are_replaced_with_their_file(graph: GraphStore, run_ingest, pack_copy: Path) -> None:  # type: ignore[no-untyped-def]
    run_ingest(pack_copy)
    before = graph.read("test_passages", ids=["SM.MISSION.VOSTOK1"])
    file = pack_copy / "missions" / "vostok-1.md"
    file.write_text(file.read_text(encoding="utf-8") + "\n## Посадка\n\nСпускаемый аппарат отделился.\n", "utf-8")
    run_ingest(pack_copy)
    after = graph.read("test_passages", ids=["SM.MISSION.VOSTOK1"])
    file.unlink()
    run_ingest(pack_copy)

    assert len(after) == len(before) + 1
    assert after[-1]["text"] == "## Посадка\n\nСпускаемый аппарат отделился."
    assert {p["sha256"] for p in after} != {p["sha256"] for p in before}
    assert graph.read("test_passages", ids=["SM.MISSION.VOSTOK1"]) == []


async def test_context_gives_entities_paths_and_citable_passages(example: Client[Any]) -> None:
    context = ContextAnswer.model_validate(
        await call(example, "pack_context", question="Which rocket launched Vostok 1, and who designed it?")
    )

    assert context.entities[0].id == "SM.MISSION.VOSTOK1"
    assert ["SM.MISSION.VOSTOK1", "launched_by", "SM.VEHICLE.VOSTOK"] in context.paths
    assert context.passages
    for passage in context.passages:
        lines = (EXAMPLES / "space-missions" / passage.path).read_text(encoding="utf-8").split("\n")
        assert passage.text == "\n".join(lines[passage.lines[0] - 1 : passage.lines[1]])


async def test_context_within_a_small_budget_keeps_every_entity_and_counts_left_out_passages(
    run_ingest, client_for
) -> None:  # type: ignore[no-untyped-def]
    run_ingest(EXAMPLES / "space-missions")
    question = {"question": "Apollo 11 landing on the Moon"}
    async with client_for() as client:
        whole = ContextAnswer.model_validate((await client.call_tool("pack_context", question)).structured_content)
    async with client_for(graphrag_response_budget_bytes=9000) as client:
        result = await client.call_tool("pack_context", question)
    small = ContextAnswer.model_validate(result.structured_content)

    assert wire_bytes(result) <= 9000
    assert [e.id for e in small.entities] == [e.id for e in whole.entities]
    assert small.paths == whole.paths
    assert small.passages and small.omitted_passages > 0
    assert len(small.passages) + small.omitted_passages == len(whole.passages)


async def test_a_who_question_gets_the_author_of_the_entity_at_the_end_of_its_chain_in_one_call(
    run_ingest, client_for, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """The successor comes with its frontmatter attributes, read by pack_get's rule (less its names), and
    nothing the ingester keeps for itself."""
    pack = tmp_path / "specs"
    pack.mkdir()
    write_entity(
        pack, "wire-one", "The first wire format.", title="Wire Format One", summary="Version one.",
        authors="[Ada Lovelace]", status="Superseded", related="{superseded_by: [wire-two]}",
    )  # fmt: skip
    write_entity(
        pack, "wire-two", "The second wire format, framed.", title="Wire Format Two", summary="Version two.",
        authors="[Grace Hopper, Alan Turing]", status="Final", created="2020-05-01", aliases="[WF2]", tags="[wire]",
    )  # fmt: skip
    for n in range(5):
        write_entity(pack, f"note{n}", "Unrelated notes.", title=f"Note {n}", summary="A note.", authors="[Someone]")
    run_ingest(pack)
    async with client_for() as client:
        answer = await call(client, "pack_context", question="Who wrote the spec that superseded Wire Format One?")
        page = await call(client, "pack_get", id="wire-two", format="metadata")
    context = ContextAnswer.model_validate(answer)
    successor = next(entity for entity in context.entities if entity.id == "wire-two")

    assert ["wire-one", "superseded_by", "wire-two"] in context.paths
    assert successor.attributes == {
        "authors": ["Grace Hopper", "Alan Turing"],
        "created": "2020-05-01",
        "status": "Final",
    }
    assert page["properties"] == {**successor.attributes, "aliases": ["WF2"], "tags": ["wire"]}


async def test_attribute_values_are_clipped_and_short_ones_kept_as_they_are(
    run_ingest, client_for, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "long"
    pack.mkdir()
    reviewers = [f"Reviewer {n}" for n in range(100)]
    write_entity(
        pack, "report", "A report.", title="Quarterly report", summary="Figures.",
        notes="n" * 1000, reviewers=f"[{', '.join(reviewers)}]", pages=12, draft="false", owners="[Ann, Bob]",
    )  # fmt: skip
    run_ingest(pack)
    async with client_for() as client:
        context = ContextAnswer.model_validate(await call(client, "pack_context", question="the quarterly report"))
    attributes = context.entities[0].attributes

    assert attributes["notes"] == "n" * ATTRIBUTE_UNITS + MARKER
    assert attributes["reviewers"] == (", ".join(reviewers))[:ATTRIBUTE_UNITS] + MARKER  # a long list: its text
    assert (attributes["pages"], attributes["draft"], attributes["owners"]) == (12, False, ["Ann", "Bob"])


async def test_an_ordinary_answer_holds_what_supports_the_question_far_below_the_budget(
    example: Client[Any],
) -> None:
    """Ten entities of the example pack (summaries under 200 characters, an attribute or two: about 3,500 bytes
    of JSON) and at most 6 passages of at most 400 characters (about 3,000 bytes with their citations): under
    8,000 bytes of JSON, sent twice (the text block and the structured content): under half the budget rather
    than up to it."""
    result = await example.call_tool("pack_context", {"question": "Which rocket launched Apollo 11, and who built it?"})
    context = ContextAnswer.model_validate(result.structured_content)
    limit = ContextConfig().passage_chars

    assert wire_bytes(result) < 32_000 // 2
    assert len(context.entities) == 10 and 0 < len(context.passages) <= ContextConfig().passages
    assert all(len(p.text) <= limit or "\n" not in p.text for p in context.passages)


async def test_a_passage_is_cut_to_its_lines_around_the_questions_words(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Only passages that hold the question's words come (the first entity's always), each cut to whole lines
    around them, its line range still exactly what it holds."""
    pack = tmp_path / "manual"
    pack.mkdir()
    filler = [f"Line {n} describes routine maintenance of the pumps." for n in range(40)]
    body = "\n".join(
        ["# Operations", "", *filler[:20], "The coolant valve must be closed before a restart.", *filler[20:]]
    )
    write_entity(pack, "ops", body, title="Operations manual", summary="How the plant runs.")
    for n in range(4):
        write_entity(pack, f"memo{n}", "Lunch is served at noon.", title=f"Memo {n}", summary="Canteen hours.")
    run_ingest(pack)
    async with client_for() as client:
        answer = await call(client, "pack_context", question="When must the coolant valve be closed?")
    (passage,) = ContextAnswer.model_validate(answer).passages
    lines = (pack / "ops.md").read_text(encoding="utf-8").split("\n")

    assert passage.id == "ops" and "The coolant valve must be closed" in passage.text
    assert passage.text == "\n".join(lines[passage.lines[0] - 1 : passage.lines[1]])
    assert len(passage.text) <= ContextConfig().passage_chars < len(body)


async def test_a_three_step_question_gets_its_whole_chain_in_order(example: Client[Any]) -> None:
    question = "Who led the agency that built the rocket that launched Apollo 11?"
    found = await search(example, question, packs=["space-missions"])
    context = ContextAnswer.model_validate(await call(example, "pack_context", question=question))

    chain = ["SM.MISSION.APOLLO11", "SM.VEHICLE.SATURNV", "SM.AGENCY.MSFC", "SM.PERSON.VONBRAUN"]
    assert [hit.id for hit in found.results[:4]] == chain
    assert found.results[3].via == [
        *("SM.MISSION.APOLLO11", "launched_by", "SM.VEHICLE.SATURNV", "built_by"),
        *("SM.AGENCY.MSFC", "led_by", "SM.PERSON.VONBRAUN"),
    ]
    assert set(chain) <= {entity.id for entity in context.entities}


async def test_a_name_that_is_an_ordinary_word_does_not_take_over(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``make`` is an entity and a word most entities use: a question saying "make" is not about it."""
    pack = tmp_path / "tools"
    pack.mkdir()
    write_entity(pack, "make", "Runs recipes from a Makefile.", title="make", summary="A build tool.")
    for n in range(12):
        write_entity(pack, f"tool{n}", f"Helps make tool number {n} work.", title=f"Tool {n}", summary="A tool.")
    write_entity(pack, "ccache", "Caches compiler output to make rebuilds fast.", title="ccache", summary="A cache.")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(client, "Which tool caches compiler output to make rebuilds fast?")

    assert found.results[0].id == "ccache"
    assert "make" not in [hit.id for hit in found.results[:1]]


async def test_an_english_summary_in_a_pack_titled_in_russian_is_found_by_its_clear_full_text_hit(
    run_ingest, client_for, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Titles in Russian make full text a weak reader of an English question there, yet when its first hit
    stands clearly apart (the one summary holding the question's number) it read the question: meaning,
    drawn to the titles that say what the summaries say, must not push that hit out."""
    pack = tmp_path / "notes"
    pack.mkdir()
    for n in range(12):
        title = "Впечатления, воспоминания и убеждения" if n == 7 else f"Прототип орбитального троса {n}"
        summary = f"The orbital tether prototype number {100_000 + 7919 * n} now carries the payload."
        write_entity(pack, f"note{n}", "Текст заметки.", title=title, summary=f'"{summary}"')
    for n in range(30):
        write_entity(pack, f"other{n}", "Другой текст.", title=f"Другая заметка номер {n}", summary=f'"Заметка {n}."')
    run_ingest(pack)
    async with client_for() as client:
        found = await search(client, "The orbital tether prototype number 155433 now carries the payload.")

    assert found.results[0].id == "note7"


async def test_a_name_inside_a_quoted_description_is_left_to_full_text(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "libraries"
    pack.mkdir()
    write_entity(pack, "gizmo", "Fast transforms in C.", title="gizmo", summary="A transform library.")
    write_entity(pack, "pygizmo", "A thin wrapper around the gizmo library for Python scripts.", summary="Bindings.")
    write_entity(pack, "other", "Something else entirely.", summary="Unrelated.")
    run_ingest(pack)
    async with client_for() as client:
        quoted = await search(client, 'Which package says "a thin wrapper around the gizmo library"?')
        named = await search(client, "What is gizmo?")

    assert quoted.results[0].id == "pygizmo"
    assert "linked" not in quoted.results[0].matched
    assert named.results[0].id == "gizmo"
    assert named.results[0].matched[0] == "linked"


async def test_a_title_that_heads_a_quoted_description_is_no_start(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """In a small thesaurus, "thing" is a rare enough title to be sure; in "the thing described as '...'" it
    says what the described term is, so the step goes from the term the description finds, not from it."""
    pack = tmp_path / "thesaurus"
    pack.mkdir()
    write_entity(pack, "thing", "A separate and self-contained entity.", title="thing", summary="An entity.")
    write_entity(pack, "kiln", "A furnace for firing or burning or drying such things as porcelain.", title="kiln")
    write_entity(
        pack,
        "cone",
        "A pyrometer consisting of a series of cones that melt at different temperatures.",
        title="pyrometric cone",
        summary="A pyrometer of cones.",
        related="{part_of: [kiln]}",
    )
    for n in range(6):
        write_entity(pack, f"tool{n}", f"A hand tool for shaping wood, kind {n}.", title=f"chisel {n}")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(
            client, 'What is the thing described as "a series of cones that melt at different temperatures" a part of?'
        )

    assert [hit.id for hit in found.results[:2]] == ["cone", "kiln"]


async def test_a_quoted_passage_found_as_written_ranks_first(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A question quoting a passage cites it: the entity holding it as written outranks shorter ones that
    hold the same words, each pair of them near each other, in another order."""
    pack = tmp_path / "changes"
    pack.mkdir()
    filler = " ".join(f"Line {n} of a changelog about unrelated matters." for n in range(4))
    write_entity(pack, "holder", f"{filler} The cache is flushed before the index is rebuilt. {filler}", summary="Log.")
    for n in range(3):
        write_entity(pack, f"reordered{n}", "Rebuilt index: before it, the flushed cache.", summary=f"Change {n}.")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(
            client, 'Which entry says "the cache is flushed before the index is rebuilt"?', mode="text"
        )

    assert found.results[0].id == "holder"


async def test_a_quoted_passage_found_as_written_comes_first_whatever_the_words_scores(
    run_ingest, client_for, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """The passage is cut into words by the index's analyzer (``3.6`` and ``we'd`` are one word each, as in the
    text indexed), and the entity holding it as written comes first in the default mode, though short entities
    holding the same words in the same order, without 3.6 and we'd, score higher on each word and pair."""
    pack = tmp_path / "releases"
    pack.mkdir()
    filler = " ".join(f"Line {n} of a changelog about unrelated matters." for n in range(6))
    passage = "fixes are released until 3.6 final, so we'd keep both branches"
    write_entity(pack, "holder", f"{filler} Bug {passage}. {filler}", summary="Changelog.")
    for n in range(3):
        write_entity(pack, f"apart{n}", f"Fixes released until final; keep both branches ({n}).", summary=f"Entry {n}.")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(client, f'Which entry says "{passage}"?')

    assert found.results[0].id == "holder"


@pytest.mark.parametrize("packs", [None, ["crowded"]])
async def test_a_quoted_passage_is_found_as_written_beyond_the_entities_its_words_find_first(
    run_ingest, client_for, tmp_path: Path, packs: list[str] | None
) -> None:  # type: ignore[no-untyped-def]
    """The words find the entities the whole query scores, and so does the quoted passage: 150 short entries
    holding its words far apart outscore the long one that holds it as written, on the words and on the whole
    query: it is kept all the same, with a pack filter too (which reads many more of them)."""
    pack = tmp_path / "crowded"
    pack.mkdir()
    gap = "one two three four five six"
    apart = f"zeta {gap} eta {gap} theta {gap} iota."
    for n in range(150):
        write_entity(pack, f"apart{n:03d}", f"{apart} {apart}", title=f"Entry {n}", summary="Note.")
    filler = " ".join(f"Line {n} of a changelog about unrelated matters." for n in range(300))
    write_entity(pack, "holder", f"{filler} Then zeta eta theta iota. {filler}", title="Changelog", summary="Log.")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(client, 'Which entry says "zeta eta theta iota"?', mode="text", packs=packs)

    assert found.results[0].id == "holder"


async def test_a_quote_with_numbers_in_a_russian_question_is_found_as_written(
    run_ingest, client_for, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """The Russian index holds a body's Cyrillic words alone, so a quote holding "см. 68.31" is looked for as
    written in the index of the whole text: the note that holds it comes first, though entries that repeat its
    words in their titles and summaries outscore it on the words."""
    pack = tmp_path / "codes"
    pack.mkdir()
    filler = " ".join(f"Строка {n} о посторонних делах." for n in range(6))
    quote = "деятельность агентов по операциям с недвижимостью, см. 68.31"
    write_entity(pack, "holder", f"{filler}\n- {quote}\n{filler}", title="Оптовая торговля", summary="Пояснения.")
    for n in range(3):
        title = f"Деятельность агентов по операциям с недвижимостью {n}"
        write_entity(pack, f"agents{n}", "Операции агентов с недвижимостью.", title=title, summary=title)
    run_ingest(pack)
    async with client_for() as client:
        for mode in ("text", "hybrid"):
            found = await search(client, f"В пояснениях к какой группировке сказано: «{quote}»?", mode=mode)
            assert found.results[0].id == "holder", mode


def write_near_and_apart(pack: Path) -> None:
    """Two entries of the same words, title and summary: their words score alike, so the one holding the
    question's pair of words together ranks first only by its phrase (and would lose the tie by id)."""
    pack.mkdir()
    gap = "one two three four five six seven eight nine ten"
    write_entity(pack, "apart", f"graph {gap} retrieval", title="Entry", summary="Note.")
    write_entity(pack, "near", f"graph retrieval {gap}", title="Entry", summary="Note.")


async def test_entities_written_before_text_keys_get_theirs_at_start_and_phrases_count_for_them(
    run_ingest, client_for, graph: GraphStore, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    write_near_and_apart(tmp_path / "pairs")
    run_ingest(tmp_path / "pairs")
    async with client_for() as client:
        written = await search(client, "graph retrieval", mode="text")
    graph.write("test_unkey")
    unkeyed = graph.read("schema_unkeyed_entities", limit=10)
    async with client_for() as client:  # a server started on a store of an older release
        keyed = await search(client, "graph retrieval", mode="text")

    assert [hit.id for hit in written.results] == ["near", "apart"]
    assert len(unkeyed) == 2
    assert [hit.id for hit in keyed.results] == ["near", "apart"]
    assert graph.read("schema_unkeyed_entities", limit=10) == []


async def test_a_quoted_title_ending_in_a_bracket_is_a_reference(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Names match by words, so «Principle: Error as signal (feedback)» quotes the whole title, closing
    bracket and all: the question is about it, and the walk starts there."""
    pack = tmp_path / "principles"
    pack.mkdir()
    title = "Principle: Error as signal (feedback)"
    write_entity(pack, "errsig", "Errors show a living system.", title=f'"{title}"', related="{uses: [quiet]}")
    write_entity(pack, "quiet", "Things rot unnoticed.", title="Quiet decay", summary="Unnoticed rot.")
    write_entity(pack, "other", "Something else entirely.", title="Other", summary="Unrelated.")
    run_ingest(pack)
    async with client_for() as client:
        found = await search(client, f"Which anti-pattern does «{title}» rest on?")

    assert found.results[0].id == "errsig"
    assert "graph" in next(hit.matched for hit in found.results if hit.id == "quiet")


async def test_package_names_with_plus_signs_are_ids_and_link_as_names(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Real package names hold `+` (``g++``, ``libstdc++6``): they are ids, readable by every tool, and a
    question naming ``g++`` is about ``g++``, not about ``gcc`` or a lone ``g``."""
    pack = tmp_path / "debianish"
    pack.mkdir()
    write_entity(pack, "libstdc++6", "The GNU C++ standard library, run-time part.", summary="C++ runtime.")
    write_entity(
        pack, "g++", "The GNU C++ compiler driver.", summary="C++ compiler.", related="{depends: [libstdc++6]}"
    )
    write_entity(pack, "gcc", "The GNU C compiler driver.", summary="C compiler.", related="{depends: [libc6]}")
    write_entity(pack, "libc6", "The GNU C library.", summary="C library.")
    report = run_ingest(pack)
    async with client_for() as client:
        found = await search(client, "What does g++ depend on?")
        page = await call(client, "pack_get", id="libstdc++6")
        text = (await client.read_resource("pack://g++"))[0]

    assert report.errors == []
    assert sorted(report.added) == ["g++", "gcc", "libc6", "libstdc++6"]
    assert [hit.id for hit in found.results[:2]] == ["g++", "libstdc++6"]
    assert found.results[0].matched[0] == "linked"
    assert page["id"] == "libstdc++6"
    assert "libstdc++6" in getattr(text, "text", "")


def _classification(root: Path) -> Path:
    """A small classification whose titles are ordinary phrases: cooking terms in a taxonomy (``is_a`` with
    the declared inverse ``has_subtype``; six terms below another, enough for its shape to count as a
    hierarchy), and dishes of another kind that use them."""
    pack = root / "cooking"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: cooking\nrelations:\n  is_a:\n    inverse: has_subtype\n    description: The broader term this one is a kind of.\n"
        "  uses_method:\n    inverse: method_of\n    description: A cooking method the dish is made with.\n",
        encoding="utf-8",
    )
    terms = {
        "T.COOKING": ("Cooking", "Preparing food by heating it.", None),
        "T.SLOW": ("Slow cooking", "Cooking at a low heat for a long time.", "T.COOKING"),
        "T.CONFIT": ("Confit", "Slow cooking in fat until the onions turn soft and sweet.", "T.SLOW"),
        "T.BRAISING": ("Braising", "Slow cooking in a little liquid in a covered pot.", "T.SLOW"),
        "T.FRYING": ("Frying", "Cooking in hot oil.", "T.COOKING"),
        "T.ROASTING": ("Roasting", "Cooking in dry heat in an oven.", "T.COOKING"),
        "T.GRILLING": ("Grilling", "Cooking over an open flame.", "T.COOKING"),
        "T.CATEGORY": ("Category", "A general class of ideas or things.", None),  # a title that is a frame word
    }
    for entity_id, (title, summary, broader) in terms.items():
        related = f"{{is_a: [{broader}]}}" if broader else "{}"
        write_entity(pack, entity_id, summary, kind="term", title=title, summary=summary, related=related)
    for n, method in enumerate(["T.CONFIT", "T.BRAISING", "T.FRYING"]):
        related = f"{{uses_method: [{method}]}}"
        write_entity(
            pack, f"D.{n}", f"Dish number {n}.", kind="dish", title=f"Dish {n}", summary="A dish.", related=related
        )
    return pack


async def test_a_title_inside_a_definition_is_not_the_start(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """ "Slow cooking" is a title, but here a word of the definition: the defined term comes first."""
    run_ingest(_classification(tmp_path))
    async with client_for() as client:
        found = await search(client, "What is the term defined as slow cooking in fat until the onions turn soft?")

    assert found.results[0].id == "T.CONFIT"


async def test_hierarchy_and_kind_words_walk_the_classification(run_ingest, client_for, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run_ingest(_classification(tmp_path))
    async with client_for() as client:
        narrower = await search(client, "Which more specific kinds of slow cooking are there?")
        broader = await search(client, "What kind of thing is braising?")
        dishes = await search(client, "Which dishes show a more specific kind of slow cooking?")
        framed = await search(client, "Which broader term covers the category of confit?")

    assert {hit.id for hit in narrower.results[:3]} == {"T.SLOW", "T.CONFIT", "T.BRAISING"}
    assert broader.results[0].id == "T.BRAISING"
    assert "T.SLOW" in [hit.id for hit in broader.results[1:3]]
    assert {hit.id for hit in dishes.results[:5]} >= {"D.0", "D.1"}
    assert "D.2" not in {hit.id for hit in dishes.results[:5]}  # fried, not slow-cooked
    # "category" asks for a step here, though an entity has it as its title: the walk goes up from confit twice
    assert [hit.id for hit in framed.results[:3]] == ["T.CONFIT", "T.SLOW", "T.COOKING"]


async def test_a_question_quoting_its_start_s_description_walks_from_the_entity_described(
    run_ingest, client_for, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """A rare title in the question's prose ("homestyle") is no start when the lists agree on the entity whose
    description it quotes: the step goes out from the entity described."""
    pack = _classification(tmp_path)
    summary = "Cooking as a home kitchen does it."
    write_entity(
        pack, "T.HOME", summary, kind="term", title="Homestyle", summary=summary, related="{is_a: [T.COOKING]}"
    )
    run_ingest(pack)
    async with client_for() as client:
        found = await search(
            client,
            'Which dish is the term defined as "slow cooking in a little liquid in a covered pot" a homestyle method of?',
        )

    assert [hit.id for hit in found.results[:2]] == ["T.BRAISING", "D.1"]
