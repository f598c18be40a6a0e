"""Copy the stored vectors from one engine to another (an Edge shard and a Qdrant server, either way), without
embedding anything again: the way from one machine to a cluster, and back."""

from __future__ import annotations

from collections.abc import Callable

from graphrag.errors import InvalidArgument
from graphrag.stores.vectors import VectorStore


def copy_vectors(source: VectorStore, target: VectorStore, progress: Callable[[int], None]) -> int:
    """Make ``target`` hold what ``source`` holds: every point with its payload and vector, and nothing else.

    The target's collection is made for the source's embedder and dimension; one that holds another model's
    vectors is refused, never mixed or replaced. Returns how many points the target holds after the copy."""
    embedder = source.embedder()
    if embedder is None:
        raise InvalidArgument(f"no vectors at {source.where}: nothing to copy (run `graphrag ingest` there first)")
    held = target.embedder()
    if held is not None and held != embedder:
        raise InvalidArgument(
            f"the vectors at {target.where} were made with {held}, those at {source.where} with {embedder}: "
            "a copy would mix two models; remove the collection there first"
        )
    copied: set[str] = set()
    for payloads, vectors in source.pages():
        if not copied:
            target.ensure_collection(embedder, int(vectors.shape[1]))
        target.upsert(payloads, vectors)
        copied.update(payload["id"] for payload in payloads)
        progress(len(copied))
    if not copied:
        raise InvalidArgument(f"the collection at {source.where} holds no vectors: nothing to copy")
    target.delete(sorted(set(target.payloads()) - copied))
    target.optimize()
    return target.count()
