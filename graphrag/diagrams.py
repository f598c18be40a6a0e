"""Schema pictures as SVG: labels or kinds as boxes, relation types as arrows with counts, laid out by Graphviz
(Debian's ``graphviz`` package, through the ``graphviz`` Python bindings) rather than drawn by hand.

Shared by ``graphrag report`` (a pack's kinds) and ``graphrag schema`` (the live graph's labels). No store and
no pack is touched here, so every layer may use it.
"""

from __future__ import annotations

import re
import shutil
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from graphrag.errors import GraphRagError

MISSING_BOX = "Missing"  # targets no file defines: drawn dashed, like Browser sets placeholders apart
MAX_ARROWS = 60  # past this a picture is a hairball: the most used arrows are drawn, the tables list the rest
MAX_LINES = 6  # relations named on one arrow (or self-loop); the rest are counted as "+ N more"


@dataclass(frozen=True)
class Arrow:
    source: str
    relation: str
    target: str
    count: int


def schema_svg(boxes: dict[str, int], arrows: Sequence[Arrow]) -> tuple[str, int]:
    """An inline SVG (no XML prolog, no external reference) of ``boxes`` (name -> count) and the ``MAX_ARROWS``
    most used ``arrows``, and how many arrows were left out. The relations between one pair of boxes share one
    arrow whose label lists them, most used first: a dozen self-loops on one box drew a dozen labels on top of
    each other."""
    import graphviz  # imported here: only the pictures need it

    if shutil.which("dot") is None:
        raise GraphRagError("Graphviz's `dot` is missing: install it with `apt-get install graphviz`")
    graph = graphviz.Digraph(
        "schema",
        graph_attr={"rankdir": "LR", "bgcolor": "transparent", "fontname": "Helvetica", "nodesep": "0.3"},
        node_attr={"shape": "box", "style": "rounded,filled", "fillcolor": "#EEF2F7", "color": "#5B6B7F",
                   "fontname": "Helvetica", "fontsize": "11"},
        edge_attr={"fontname": "Helvetica", "fontsize": "12", "color": "#5B6B7F", "fontcolor": "#33404D"},
    )  # fmt: skip
    for name, count in sorted(boxes.items()):
        dashed = {"style": "rounded,dashed", "fillcolor": "#FFFFFF", "color": "#D0342C"} if name == MISSING_BOX else {}
        graph.node(_node_id(name), f"{name}\n{count:,}", **dashed)
    drawn = drawn_arrows(arrows)
    pairs: dict[tuple[str, str], list[Arrow]] = defaultdict(list)
    for arrow in drawn:  # most used first
        pairs[(arrow.source, arrow.target)].append(arrow)
    for (source, target), shared in sorted(pairs.items()):
        lines = [f"{a.relation} ({a.count:,})" for a in shared[:MAX_LINES]]
        lines += [f"+ {len(shared) - MAX_LINES} more"] if len(shared) > MAX_LINES else []
        graph.edge(_node_id(source), _node_id(target), label="\n".join(lines))
    svg = graph.pipe(format="svg", encoding="utf-8")
    return svg[svg.index("<svg") :], len(arrows) - len(drawn)


def drawn_arrows(arrows: Sequence[Arrow]) -> list[Arrow]:
    """The ``MAX_ARROWS`` most used arrows: those a picture draws, most used first."""
    return sorted(arrows, key=lambda a: (-a.count, a.source, a.relation, a.target))[:MAX_ARROWS]


def _node_id(name: str) -> str:
    """Graphviz ids stay ASCII-safe whatever a kind is called; labels keep the real name."""
    return "n_" + re.sub(r"\W", lambda m: f"_{ord(m.group()):x}_", name)
