"""Which workspace a project may read (docs/memory.md, Access): its own active one; another project's is refused."""

from __future__ import annotations

from graphrag.errors import GraphRagError, echo
from graphrag.nearest import hint
from graphrag.stores.graph import GraphStore

DENIED = "403 Forbidden: workspace access denied for project"


def require_workspace(graph: GraphStore, project: str, workspace: str) -> None:
    """Reading needs an active workspace of the project; a name that only other projects hold is refused; an
    inactive one is named with the project's workspaces nearest to it."""
    state = graph.read("memory_workspace", project=project, workspace=workspace)[0]
    if state["exists"] and state["active"]:
        return
    if not state["exists"] and state["foreign"]:
        raise GraphRagError(DENIED, code="forbidden")
    known = [row["name"] for row in graph.read("memory_workspaces", project=project)]
    nearest = f"; {hint(workspace, known, 'workspaces')}" if known else ""
    raise GraphRagError(f"workspace '{echo(workspace)}' is not active{nearest}", code="workspace_inactive")
