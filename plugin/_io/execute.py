"""The drivers that carry out a flow's Chroma operations (:mod:`nowline._ops`).

:func:`run_sync` carries them out with blocking calls, :func:`run_async` with ``await``
(CPU-heavy steps, such as embedding, go to a worker thread there, so an event loop never waits
on them). Both send the same requests, from one table (:func:`_request`): that is the whole
difference between the sync and the async collection. The loop that feeds a flow its results
and throws its failures in is :func:`nowline.drive`, the one the memory tools' runners use too.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

from .drive import drive, drive_async
from .lock import hold_writer_lock
from .mark import AsyncMarks, SyncMarks
from .ops import (
    Background,
    Count,
    Delete,
    DropEntries,
    Embed,
    Flow,
    Get,
    Lock,
    Modify,
    Op,
    Query,
    ReadJournal,
    ReadMark,
    Work,
    Write,
    WriteEntry,
    WriteMark,
)

__all__ = ["RACE_RETRIES", "AsyncStore", "SyncStore", "run_async", "run_sync"]

T = TypeVar("T")

RACE_RETRIES = (0.05, 0.2, 0.5)
"""Seconds to wait before each retry of a read that met a fresh server collection's race."""

_RACE = "Nothing found on disk"


def _raced(op: Op, exc: BaseException) -> bool:
    """Return whether a read failed only because a fresh server collection is being created.

    On chromadb 1.5.9 a query or get that races the first write to a fresh collection of a
    Chroma server fails with an internal error ("Error creating hnsw segment reader: Nothing
    found on disk"); the same read a moment later succeeds. Only reads are retried.
    """
    return isinstance(op, (Get, Query, Count)) and _RACE in str(exc)


# The chromadb client method that carries out each I/O operation (None: a write's verb names
# it), and the operation's fields that chromadb names otherwise (every other field is passed
# under its own name).
_CALLS: dict[type, tuple[str | None, dict[str, str]]] = {
    Get: ("_get", {}),
    Count: ("_count", {}),
    Query: ("_query", {"embeddings": "query_embeddings"}),
    Write: (None, {}),
    Delete: ("_delete", {}),
    Modify: (
        "_modify",
        {"name": "new_name", "metadata": "new_metadata", "configuration": "new_configuration"},
    ),
}


def _request(col: Any, op: Op) -> tuple[Callable[..., Any], dict[str, Any]] | None:
    """Return the chromadb client's method and the arguments that carry out ``op``, if I/O.

    One table for both drivers: a sync client's methods block, an async client's are awaited.
    """
    call = _CALLS.get(type(op))
    if call is None:
        return None
    method, renamed = call
    args = {renamed.get(f.name, f.name): getattr(op, f.name) for f in fields(op)}
    if method is None:
        method = "_" + args.pop("op")
    if "include" in args:
        args["include"] = list(args["include"])
    target = "id" if isinstance(op, Modify) else "collection_id"
    scope = {"tenant": col.tenant, "database": col.database}
    return getattr(col._client, method), {target: col.id, **args, **scope}


def _retry_wait(op: Op, exc: Exception, attempt: int) -> float:
    """Return how long to wait before the next try of a request that failed with ``exc``.

    Only a read that met a fresh server collection's race is tried again, ``RACE_RETRIES``
    times; anything else re-raises ``exc``.
    """
    if attempt >= len(RACE_RETRIES) or not _raced(op, exc):
        raise exc
    return RACE_RETRIES[attempt]


def _result(op: Op, result: Any) -> Any:
    """Return what a flow receives for an I/O operation (writes and modifies: nothing)."""
    return None if isinstance(op, (Write, Modify)) else result


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


class SyncStore:
    """Carries out operations with blocking calls to a chromadb collection's client."""

    def __init__(self, collection: Any, writer_path: str | None) -> None:
        """Serve ``collection`` (a chromadb Collection); ``writer_path`` is a local store's."""
        self._col = collection
        self._writer_path = writer_path
        self._marks: SyncMarks | None = None

    def marks(self) -> SyncMarks:
        """Return the collection's mark I/O (made at first use)."""
        if self._marks is None:
            self._marks = SyncMarks(self._col, self._writer_path)
        return self._marks

    def execute(self, op: Op) -> Any:
        """Carry out ``op`` and return its result."""
        if isinstance(op, ReadMark):
            return self.marks().read()
        if isinstance(op, WriteMark):
            return self.marks().write(op.value)
        if isinstance(op, ReadJournal):
            return self.marks().read_journal()
        if isinstance(op, WriteEntry):
            return self.marks().write_entry(op.entry)
        if isinstance(op, DropEntries):
            return self.marks().drop_entries(op.ids)
        request = _request(self._col, op)
        if request is not None:
            call, kwargs = request
            for attempt in itertools.count():
                try:
                    return _result(op, call(**kwargs))
                except Exception as exc:
                    time.sleep(_retry_wait(op, exc, attempt))
        if isinstance(op, Lock):
            if self._writer_path is not None:
                hold_writer_lock(self._writer_path)
            return None
        return _call(self._col, op)


class AsyncStore:
    """Carries out operations with ``await`` on an async chromadb collection's client.

    Embedding and other CPU-heavy work runs in a worker thread, so the event loop is never
    blocked by it.
    """

    def __init__(self, collection: Any) -> None:
        """Serve ``collection`` (a chromadb AsyncCollection)."""
        self._col = collection
        self._marks: AsyncMarks | None = None

    def marks(self) -> AsyncMarks:
        """Return the collection's mark I/O (made at first use)."""
        if self._marks is None:
            self._marks = AsyncMarks(self._col, None)
        return self._marks

    async def execute(self, op: Op) -> Any:
        """Carry out ``op`` and return its result."""
        if isinstance(op, ReadMark):
            return await self.marks().read()
        if isinstance(op, WriteMark):
            return await self.marks().write(op.value)
        if isinstance(op, ReadJournal):
            return await self.marks().read_journal()
        if isinstance(op, WriteEntry):
            return await self.marks().write_entry(op.entry)
        if isinstance(op, DropEntries):
            return await self.marks().drop_entries(op.ids)
        request = _request(self._col, op)
        if request is not None:
            call, kwargs = request
            for attempt in itertools.count():
                try:
                    return _result(op, await call(**kwargs))
                except Exception as exc:
                    await asyncio.sleep(_retry_wait(op, exc, attempt))
        if isinstance(op, Lock):
            return None  # async clients talk to a server, which owns its store
        if isinstance(op, Background):
            return _call(self._col, op)  # starting a thread does not block the loop
        return await asyncio.to_thread(_call, self._col, op)


def run_sync(flow: Flow[T], store: SyncStore) -> T:
    """Run a flow to completion with blocking I/O; return what it returns."""
    return drive(flow, store.execute)


async def run_async(flow: Flow[T], store: AsyncStore) -> T:
    """Run a flow to completion with awaited I/O; return what it returns."""
    return await drive_async(flow, store.execute)
