"""Chroma I/O: the operations nowline asks of a store, and the layers that carry them out.

nowline's rules never call Chroma. The read and write paths (:mod:`nowline._flows`) are
generators that *yield* the operations defined here and receive their results; a driver runs
them. :func:`run_sync` carries them out with blocking calls, :func:`run_async` with ``await``
(CPU-heavy steps, such as embedding, go to a worker thread there, so an event loop never waits
on them). That is the whole difference between the sync and the async collection.

Also here, as they are I/O too: the writer lock of a local store (one writer process per
store folder; two corrupt it), telling local stores from servers, the store's batch size, and
resolving a collection's embedding function.
"""

from __future__ import annotations

import asyncio
import fcntl
import inspect
import os
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from chromadb.api.types import (
    DefaultEmbeddingFunction,
    EmbeddingFunction,
    Include,
    Where,
    WhereDocument,
)

from .errors import InvalidInput, StoreBusy

__all__ = [
    "LOCK_NAME",
    "Background",
    "Count",
    "Delete",
    "Embed",
    "Flow",
    "Get",
    "Lock",
    "Modify",
    "Op",
    "Query",
    "Work",
    "Write",
    "choose_embedding_function",
    "local_store",
    "max_batch_size",
    "run_async",
    "run_sync",
    "server_url",
]

T = TypeVar("T")

# ------------------------------------------------------------------------ operations


@dataclass(frozen=True, slots=True)
class Get:
    """Read records (chromadb's ``_get``); the result is the raw GetResult."""

    ids: list[str] | None = None
    where: Where | None = None
    where_document: WhereDocument | None = None
    limit: int | None = None
    offset: int | None = None
    include: tuple[str, ...] = ("documents", "metadatas")


@dataclass(frozen=True, slots=True)
class Count:
    """Count the records; the result is an int."""


@dataclass(frozen=True, slots=True)
class Query:
    """Nearest neighbours of query embeddings; the result is the raw QueryResult."""

    embeddings: Any
    ids: list[str] | None
    n_results: int
    where: Where | None
    where_document: WhereDocument | None
    include: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Write:
    """One add, upsert or update call; nothing is returned.

    ``metadatas`` are patches: in update and upsert a key set to None is removed.
    """

    op: Literal["add", "upsert", "update"]
    ids: list[str]
    embeddings: Any = None
    metadatas: list[Any] | None = None
    documents: list[Any] | None = None
    uris: list[Any] | None = None


@dataclass(frozen=True, slots=True)
class Delete:
    """Delete records; the result is chromadb's DeleteResult."""

    ids: list[str] | None = None
    where: Where | None = None
    where_document: WhereDocument | None = None
    limit: int | None = None


@dataclass(frozen=True, slots=True)
class Modify:
    """Change the collection's name, metadata or configuration."""

    name: str | None = None
    metadata: Any = None
    configuration: Any = None


@dataclass(frozen=True, slots=True)
class Embed:
    """Embed a record set with the collection's embedding function (CPU-heavy).

    The result is ``(embeddings, metadatas)``: chromadb's embeddings and the metadatas with any
    sparse embeddings a schema asks for.
    """

    record_set: Any
    fields: frozenset[str] | None = None
    is_query: bool = False
    metadatas: list[Any] | None = None
    documents: list[Any] | None = None


@dataclass(frozen=True, slots=True)
class Work:
    """Run a pure, CPU-heavy function (a matcher scan of many records) and return its result."""

    fn: Callable[..., Any]
    args: tuple[Any, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Background:
    """Start a pure, CPU-heavy function in a daemon thread and go on at once.

    The function must not need the flow's result, and whatever waits for it must not need a
    lock it holds. If no thread can be started, it runs inline (so it always runs).
    """

    fn: Callable[[], None]


@dataclass(frozen=True, slots=True)
class Lock:
    """Before a write: become this local store's only writer process (no-op on a server)."""


Op = Get | Count | Query | Write | Delete | Modify | Embed | Work | Background | Lock
"""Every operation a flow may yield."""

Flow = Generator[Op, Any, T]
"""A read or write path: yields operations, receives their results, returns ``T``."""


# --------------------------------------------------------------------------- drivers


def _call(collection: Any, op: Op) -> Any:
    """Carry out one operation that needs no await, against a chromadb collection."""
    if isinstance(op, Embed):
        return _embed(collection, op)
    if isinstance(op, Work):
        return op.fn(*op.args)
    if isinstance(op, Background):
        try:
            threading.Thread(target=op.fn, name="nowline-background", daemon=True).start()
        except RuntimeError:  # no thread to be had (interpreter shutting down, limits)
            op.fn()
        return None
    raise TypeError(f"not a CPU operation: {op!r}")  # pragma: no cover


def _embed(collection: Any, op: Embed) -> tuple[Any, list[Any] | None]:
    """Embed a record set as chromadb's own validate-and-prepare step would.

    Without a record set only the metadatas are prepared (sparse embeddings of a schema).
    """
    embeddings = None
    if op.record_set is not None:
        fields = set(op.fields) if op.fields is not None else None
        embeddings = collection._embed_record_set(
            record_set=op.record_set, embeddable_fields=fields, is_query=op.is_query
        )
    metadatas = op.metadatas
    if not op.is_query:
        metadatas = collection._apply_sparse_embeddings_to_metadatas(metadatas, op.documents)
    return embeddings, metadatas


def _scope(collection: Any) -> dict[str, Any]:
    """Return the identifying keyword arguments of a collection's private client calls."""
    return {"tenant": collection.tenant, "database": collection.database}


class SyncStore:
    """Carries out operations with blocking calls to a chromadb collection's client."""

    def __init__(self, collection: Any, writer_path: str | None) -> None:
        """Serve ``collection`` (a chromadb Collection); ``writer_path`` is a local store's."""
        self._col = collection
        self._writer_path = writer_path

    def execute(self, op: Op) -> Any:
        """Carry out ``op`` and return its result."""
        col = self._col
        client = col._client
        if isinstance(op, Get):
            return client._get(
                collection_id=col.id,
                ids=op.ids,
                where=op.where,
                limit=op.limit,
                offset=op.offset,
                where_document=op.where_document,
                include=cast(Include, list(op.include)),
                **_scope(col),
            )
        if isinstance(op, Count):
            return client._count(collection_id=col.id, **_scope(col))
        if isinstance(op, Query):
            return client._query(
                collection_id=col.id,
                query_embeddings=op.embeddings,
                ids=op.ids,
                n_results=op.n_results,
                where=op.where,
                where_document=op.where_document,
                include=cast(Include, list(op.include)),
                **_scope(col),
            )
        if isinstance(op, Write):
            method = {"add": client._add, "upsert": client._upsert, "update": client._update}
            method[op.op](
                collection_id=col.id,
                ids=op.ids,
                embeddings=op.embeddings,
                metadatas=op.metadatas,
                documents=op.documents,
                uris=op.uris,
                **_scope(col),
            )
            return None
        if isinstance(op, Delete):
            return client._delete(
                collection_id=col.id,
                ids=op.ids,
                where=op.where,
                where_document=op.where_document,
                limit=op.limit,
                **_scope(col),
            )
        if isinstance(op, Modify):
            client._modify(
                id=col.id,
                new_name=op.name,
                new_metadata=op.metadata,
                new_configuration=op.configuration,
                **_scope(col),
            )
            return None
        if isinstance(op, Lock):
            if self._writer_path is not None:
                hold_writer_lock(self._writer_path)
            return None
        return _call(col, op)


class AsyncStore:
    """Carries out operations with ``await`` on an async chromadb collection's client.

    Embedding and other CPU-heavy work runs in a worker thread, so the event loop is never
    blocked by it.
    """

    def __init__(self, collection: Any) -> None:
        """Serve ``collection`` (a chromadb AsyncCollection)."""
        self._col = collection

    async def execute(self, op: Op) -> Any:
        """Carry out ``op`` and return its result."""
        col = self._col
        client = col._client
        if isinstance(op, Get):
            return await client._get(
                collection_id=col.id,
                ids=op.ids,
                where=op.where,
                limit=op.limit,
                offset=op.offset,
                where_document=op.where_document,
                include=cast(Include, list(op.include)),
                **_scope(col),
            )
        if isinstance(op, Count):
            return await client._count(collection_id=col.id, **_scope(col))
        if isinstance(op, Query):
            return await client._query(
                collection_id=col.id,
                query_embeddings=op.embeddings,
                ids=op.ids,
                n_results=op.n_results,
                where=op.where,
                where_document=op.where_document,
                include=cast(Include, list(op.include)),
                **_scope(col),
            )
        if isinstance(op, Write):
            method = {"add": client._add, "upsert": client._upsert, "update": client._update}
            await method[op.op](
                collection_id=col.id,
                ids=op.ids,
                embeddings=op.embeddings,
                metadatas=op.metadatas,
                documents=op.documents,
                uris=op.uris,
                **_scope(col),
            )
            return None
        if isinstance(op, Delete):
            return await client._delete(
                collection_id=col.id,
                ids=op.ids,
                where=op.where,
                where_document=op.where_document,
                limit=op.limit,
                **_scope(col),
            )
        if isinstance(op, Modify):
            await client._modify(
                id=col.id,
                new_name=op.name,
                new_metadata=op.metadata,
                new_configuration=op.configuration,
                **_scope(col),
            )
            return None
        if isinstance(op, Lock):
            return None  # async clients talk to a server, which owns its store
        if isinstance(op, Background):
            return _call(col, op)  # starting a thread does not block the loop
        return await asyncio.to_thread(_call, col, op)


def run_sync(flow: Flow[T], store: SyncStore) -> T:
    """Run a flow to completion with blocking I/O; return what it returns."""
    try:
        op = next(flow)
        while True:
            try:
                result = store.execute(op)
            except BaseException as exc:  # the flow may clean up, then it re-raises
                op = flow.throw(exc)
            else:
                op = flow.send(result)
    except StopIteration as stop:
        return cast(T, stop.value)


async def run_async(flow: Flow[T], store: AsyncStore) -> T:
    """Run a flow to completion with awaited I/O; return what it returns."""
    try:
        op = next(flow)
        while True:
            try:
                result = await store.execute(op)
            except BaseException as exc:
                op = flow.throw(exc)
            else:
                op = flow.send(result)
    except StopIteration as stop:
        return cast(T, stop.value)


# ------------------------------------------------------------------- writer lock

LOCK_NAME = "nowline-writer.lock"
"""The lock file in a local store's folder, held by its one writer process."""

_lock_guard = threading.Lock()
_held: dict[str, int] = {}  # real path of the store -> open lock file descriptor


def hold_writer_lock(path: str) -> None:
    """Make this process the only nowline writer of the local store at ``path``.

    The lock is an exclusive ``flock`` on a file in the store's folder, taken at the first
    write and held until the process exits (the kernel releases it then, even after SIGKILL).
    Taking it again in the same process is free.

    Raises:
        StoreBusy: another process holds it.
    """
    real = os.path.realpath(path)
    with _lock_guard:
        if real in _held:
            return
        os.makedirs(real, exist_ok=True)
        fd = os.open(os.path.join(real, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreBusy(
                f"Another process is already writing to the local Chroma store at {real}. "
                "Two processes writing to one PersistentClient path corrupt it silently, so "
                "nowline refuses the second writer; reading still works. For several writer "
                f"processes run a Chroma server (`chroma run --path {real}`) and connect every "
                "process to it (chromadb.HttpClient, or the CLI's --url); or give each process "
                "its own path."
            ) from None
        _held[real] = fd


# ----------------------------------------------------------------------- the store


def local_store(api: Any) -> tuple[bool, str | None]:
    """Return whether a client's store lives in this process, and its folder if persistent.

    An in-memory store is private to this process; a persistent local store is shared by
    every process that opens its folder; a server's store is reached over HTTP.
    """
    settings = getattr(getattr(api, "_system", None), "settings", None)
    if settings is None or type(api).__name__ not in ("RustBindingsAPI", "SegmentAPI"):
        return False, None
    if not getattr(settings, "is_persistent", False):
        return True, None
    path = getattr(settings, "persist_directory", None)
    return True, (str(path) if path else None)


def server_url(api: Any) -> str | None:
    """Return the URL of a client's Chroma server (None: not a server's client).

    Sync and async clients of one server in one process, whatever their settings otherwise,
    give the same URL, so their wrappers of one collection share its change counter.
    """
    url = getattr(api, "_api_url", None)
    return url if isinstance(url, str) and url else None


def max_batch_size(api: Any, default: int = 1000) -> int:
    """Return the largest batch a store accepts (chromadb's ``get_max_batch_size``)."""
    method = getattr(api, "get_max_batch_size", None)
    if method is None or inspect.iscoroutinefunction(method):
        return default  # an async API: the async collection asks it when it loads
    try:
        return max(1, int(method()))
    except Exception:  # an API that cannot tell
        return default


def choose_embedding_function(
    collection: Any, name: str, offline_default: Callable[[], EmbeddingFunction[Any]]
) -> EmbeddingFunction[Any] | None:
    """Return the function chromadb would embed a collection's records with, offline.

    chromadb's order: the collection's own function unless it is the default; else the one
    its configuration persists; else the one its schema persists; else its own (the default,
    or None). Wherever that lands on chromadb's download-at-first-use default
    (all-MiniLM-L6-v2 in ONNX), nowline's offline copy of the same model is used instead.

    Raises:
        InvalidInput: the persisted function cannot be built in this process.
    """
    own = collection._embedding_function
    chosen: Any = None
    if own is not None and not isinstance(own, DefaultEmbeddingFunction):
        chosen = own
    else:
        try:
            config = collection.configuration
            chosen = config.get("embedding_function") if config else None
            if chosen is None:
                chosen = _schema_function(collection.schema)
        except ValueError as exc:  # chromadb cannot build the persisted function here
            raise InvalidInput(
                f"The collection {name!r} embeds with a function this process cannot build "
                f"({exc}). Import the module that registers it before opening the collection, "
                "or pass embedding_function= to nowline.wrap(); embedding with another model "
                "would make its vectors meaningless."
            ) from None
        if chosen is None:
            chosen = own
    if isinstance(chosen, DefaultEmbeddingFunction):
        return offline_default()
    return cast("EmbeddingFunction[Any] | None", chosen)


def _schema_function(schema: Any) -> Any:
    """Return the embedding function a collection's schema persists, or None."""
    if schema is None:
        return None
    override = schema.keys.get("#embedding")
    for value_types in (override, schema.defaults):
        float_list = getattr(value_types, "float_list", None)
        index = getattr(float_list, "vector_index", None)
        function = getattr(getattr(index, "config", None), "embedding_function", None)
        if function is not None:
            return function
    return None
