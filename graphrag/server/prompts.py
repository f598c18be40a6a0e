"""MCP prompts: a guide for a multi-hop answer through the pack tools, for clients that offer prompts to
their users (a slash command in a desktop client).

The prompt only writes instructions around the question; it reads no store. Its answer is held to the
response budget like a tool's (a question too long for it answers ``response_too_large``), and ``packs``
must name packs by id (``invalid_argument`` otherwise, before any tool is called).
"""

from __future__ import annotations

import json
from typing import Annotated

from fastmcp import Context, FastMCP
from fastmcp.prompts import Message
from fastmcp.prompts.base import PromptArgument
from fastmcp.prompts.function_prompt import FunctionPrompt
from pydantic import Field

from graphrag.errors import InvalidArgument, ResponseTooLarge, echo
from graphrag.fitting import ENVELOPE_BYTES
from graphrag.names import MAX_ID_LENGTH, is_valid_id
from graphrag.server.context import services_of
from graphrag.server.errors import prompt_coded

NAME = "multi_hop_answer"
GUIDE = """Answer this question from the knowledge packs, following their typed links, and cite what you read.

Question: {question}

1. Call pack_context(question={question_json}{packs_argument}). It returns the entities the question names
   and those found by words, meaning and the graph walk (each with `matched`, its frontmatter `attributes` such
   as authors, status and dates, and, for graph hits, `via`: the typed path it was reached by), the `paths`
   connecting them, and body `passages` with path, lines and sha256.
2. If an entity the question needs is missing, find it with pack_search(query=<its name or a description>,
   ...) and use the ids it returns; never guess an id.
3. Follow the relations the question asks about with pack_graph: path=[relation, ...] from the start entity for
   a known chain (`^name` walks a relation backwards; `reached` lists the real entities at its end,
   `reached_missing` the placeholders no file defines yet), to=<id> for how two entities connect, or the
   neighbourhood without either. An unknown relation answers invalid_argument listing the known ones.
4. Read the entities your answer rests on with pack_get(id) (metadata, body, links both ways). If it answers
   response_too_large, read it in pages: cursor='start', then each page's next_cursor until complete is true.
5. Answer with the chain of entities and relations that supports it, and cite each fact by its file path,
   line range and sha256 from the passages or pages you read. Say what the packs do not hold, and name
   placeholders (missing: true) as linked but undefined, not as facts."""


QUESTION = "The question, in any language."
PACKS = "Only these packs: ids separated by commas, e.g. space-missions (leave it out for every pack)."


def register_prompts(mcp: FastMCP) -> None:
    prompt = FunctionPrompt.from_function(
        multi_hop_answer,
        name=NAME,
        title="Multi-hop answer from the packs",
        description="Guides an answer that needs several entities: pack_context (or pack_search), then "
        "pack_graph along typed links, then pack_get to read and cite.",
    )
    # our words only: FastMCP appends a JSON schema to the text of every argument that is not a plain str
    prompt.arguments = [
        PromptArgument(name="question", description=QUESTION, required=True),
        PromptArgument(name="packs", description=PACKS, required=False),
    ]
    mcp.add_prompt(prompt)


@prompt_coded
def multi_hop_answer(
    question: Annotated[str, Field(min_length=1, description=QUESTION)],
    ctx: Context,
    packs: Annotated[str | None, Field(description=PACKS)] = None,
) -> list[Message]:
    chosen = _packs(packs)
    text = GUIDE.format(
        question=question,
        question_json=json.dumps(question, ensure_ascii=False),
        packs_argument=f", packs={json.dumps(chosen, ensure_ascii=False)}" if chosen else "",
    )
    budget = services_of(ctx).settings.graphrag_response_budget_bytes
    if len(json.dumps(text).encode()) + ENVELOPE_BYTES > budget:
        raise ResponseTooLarge(
            f"the prompt for a question of {len(question):,} characters does not fit the response budget "
            f"of {budget} bytes (GRAPHRAG_RESPONSE_BUDGET_BYTES); ask a shorter question"
        )
    return [Message(text, role="user")]


def _packs(packs: str | None) -> list[str]:
    chosen = [name.strip() for name in (packs or "").split(",") if name.strip()]
    wrong = [name for name in chosen if not is_valid_id(name) or len(name) > MAX_ID_LENGTH]
    if wrong:
        raise InvalidArgument(f"packs: {echo(repr(wrong[0]))} is not a pack id; give ids separated by commas")
    return chosen
