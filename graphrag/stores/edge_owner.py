"""How processes share the Edge shard (``graphrag.stores.edge``).

Edge opens a shard in one process at a time (its write-ahead log is locked), and a second
``EdgeShard.load`` of a shard that another process holds fails only after it has touched that shard's
payload index files, which breaks the holder's next flush (``qdrant-edge-py`` 0.9.0; see
``tests/test_vector_store.py``). So a process never loads a shard it has not locked first: the first process
that opens the shard takes ``owner.lock`` (``flock``), loads it and serves it to the others over a local
socket, authenticated with a key that only readers of ``GRAPHRAG_HOME`` can read. Every other process
(``graphrag ingest`` beside a running ``graphrag serve``, or a server started while an ingest runs) sends its
calls to the owner, so nobody is locked out and nothing is copied: a change is searchable as soon as the
owner has written it. When the owner closes the shard, the next call of any other process takes it over.
Within one process every opener shares the one loaded shard (``graphrag serve --watch`` writes where the
server searches). A folder of the former embedded engine (``qdrant-client`` local mode, ``GRAPHRAG_HOME/qdrant``)
is copied into a new shard once, by the first process that opens it, and then renamed, not deleted.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import pickle
import secrets
import socket
import threading
from collections.abc import Callable
from multiprocessing import AuthenticationError
from multiprocessing.connection import Client, Connection, answer_challenge, deliver_challenge
from pathlib import Path
from typing import IO, Any

from tenacity import retry, retry_if_exception_type, stop_after_delay, wait_fixed

from graphrag.errors import StoreUnavailable
from graphrag.stores.edge import LOCK_WAIT_SECONDS, EdgeEngine, Engine, migrate_local_mode, scroll

CALLS = frozenset(
    {
        "ensure_collection",
        "upsert",
        "optimize",
        "delete",
        "payloads",
        "fingerprints",
        "search",
        "count",
        "embedder",
        "page",
    }
)
log = logging.getLogger(__name__)


class OwnerGone(ConnectionError):
    """The process that held the shard closed it or stopped: look for the shard again."""


class Owner:
    """This process holds the shard: its lock, the loaded engine, and the socket other processes call."""

    def __init__(self, folder: Path, lock: IO[bytes]) -> None:
        self.folder = folder
        self.users = 0
        self._lock = lock
        migrate_local_mode(folder)
        self.engine = EdgeEngine(folder)
        self._key = secrets.token_bytes(32)
        self._socket = socket.socket(socket.AF_UNIX)
        try:
            key_file = folder / "owner.key"
            key_file.unlink(missing_ok=True)
            key_file.touch(mode=0o600)
            key_file.write_bytes(self._key)
            self._socket.bind(_address(folder))
            self._socket.listen()
        except BaseException:
            self._socket.close()
            self.engine.close()
            raise
        self._peers: list[Connection] = []
        threading.Thread(target=self._accept, name="vectors-owner", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                accepted, _ = self._socket.accept()
            except OSError:  # ``close`` shut the socket
                return
            peer = Connection(accepted.detach())
            self._peers.append(peer)
            threading.Thread(target=self._answer, args=(peer,), name="vectors-peer", daemon=True).start()

    def _answer(self, peer: Connection) -> None:
        """One caller's calls, in order, until it hangs up; a caller without the key is hung up on."""
        with peer:
            try:
                self._serve(peer)
            finally:
                self._peers.remove(peer)

    def _serve(self, peer: Connection) -> None:
        try:
            deliver_challenge(peer, self._key)
            answer_challenge(peer, self._key)
        except (AuthenticationError, EOFError, OSError):
            log.warning("vectors: a process without the key of %s was refused", self.folder)
            return
        while True:
            try:
                name, args = peer.recv()
            except (EOFError, OSError, TypeError, ValueError, pickle.UnpicklingError):
                return  # hung up, or hung up mid-message: nothing to answer
            try:
                if name not in CALLS:
                    raise ValueError(f"unknown vector call {name!r}")
                result: Any = ("ok", dispatch(self.engine, str(self.folder), name, args))
            except Exception as exc:  # the caller raises it
                log.warning("vectors: %s for another process failed", name, exc_info=True)
                result = ("error", exc if isinstance(exc, StoreUnavailable) else RuntimeError(str(exc)))
            try:
                peer.send(result)
            except OSError:
                return

    def close(self) -> None:
        self._socket.shutdown(socket.SHUT_RDWR)
        self._socket.close()
        for peer in list(self._peers):
            peer.close()
        self.engine.close()
        (self.folder / "owner.key").unlink(missing_ok=True)
        self._lock.close()  # releases the flock: the next opener becomes the owner


_owners: dict[Path, Owner] = {}
_owners_lock = threading.Lock()


def _address(folder: Path) -> str:
    """An abstract (Linux) socket name: no file to leave behind, no length limit of the folder's path."""
    return "\0pack-graphrag-vectors-" + hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:32]


def claim(folder: Path) -> Owner | None:
    """This process's owner of the shard (taken now if nobody holds it), or None when another process does."""
    with _owners_lock:
        owner = _owners.get(folder)
        if owner is None:
            folder.mkdir(parents=True, exist_ok=True)
            lock = (folder / "owner.lock").open("wb")
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                lock.close()
                return None
            try:
                owner = Owner(folder, lock)
            except BaseException:
                lock.close()
                raise
            _owners[folder] = owner
        owner.users += 1
        return owner


def release(owner: Owner) -> None:
    with _owners_lock:
        owner.users -= 1
        if owner.users <= 0:
            _owners.pop(owner.folder, None)
            owner.close()


@retry(
    retry=retry_if_exception_type(OwnerGone),
    stop=stop_after_delay(LOCK_WAIT_SECONDS),
    wait=wait_fixed(0.2),
    reraise=True,
)
def reach(folder: Path) -> Owner | Connection:
    """The shard: owned here, or a connection to the process that owns it. The owner is either starting
    (no key yet) or a process of an older release that does not serve it: waited for briefly."""
    owner = claim(folder)
    if owner is not None:
        return owner
    try:
        return Client(_address(folder), family="AF_UNIX", authkey=(folder / "owner.key").read_bytes())
    except (OSError, EOFError) as exc:
        raise OwnerGone(f"the process holding {folder} does not answer") from exc


def dispatch(engine: Engine, where: str, name: str, args: tuple[Any, ...]) -> Any:
    """The one place a call meets an engine: the owner's own calls and those of other processes."""
    if name == "ensure_collection":
        embedder_id, dimension, expect_points = args
        return engine.ensure_collection(embedder_id, dimension, expect_points, where)
    if name == "payloads":
        return {payload["id"]: payload for payload, _ in scroll(engine, None, True, False)}
    if name == "fingerprints":
        return {payload["id"]: payload["sha256"] for payload, _ in scroll(engine, args[0], ["id", "sha256"], False)}
    method: Callable[..., Any] = getattr(engine, name)
    return method(*args)
