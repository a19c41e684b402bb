"""The generation mark: one small value that changes whenever nowline changes a correction.

Chroma has no change feed, but an O(1) read is enough to know whether anything changed. Every
nowline write that changes a correction writes a fresh random mark before the records change
(a *writing* mark) and another after (a *done* mark), so a crash between the two still leaves
a changed mark. A process reads the mark before an operation uses what it knows (at most
every ``refresh_seconds``) and catches up only when it differs (:mod:`nowline._io.freshness`).

Where it lives (DESIGN §12): in a **companion collection** per wrapped collection, named
``nowline-mark-<collection id>``, whose own metadata holds the value (``nowline_mark``). Its
metadata has no other key, so a writer replaces it whole in one ``modify`` (atomic, no
read-merge-write; about 2 ms), and one ``get_collection`` (one HTTP GET over a server) reads
it. The companion's records are the change journal (:mod:`nowline._io.journal`), whose I/O is
here too; a write's marks carry its journal entry's id as their token. The wrapper hides it from
``list_collections`` and ``count_collections`` and deletes it with its collection. It is not
the wrapped collection's own metadata: ``modify(metadata=...)`` there would replace the user's
dict, and chromadb refuses it on a collection created with ``hnsw:space``. A store backed up
and restored carries it.

For a local store (one writer process, DESIGN §10) the writer also keeps a small file beside
the snapshot in step (``<store>/nowline/<collection id>.mark``, replaced atomically after each
companion write), so that the hook's fast path reads the mark without importing chromadb.

A value that is missing, or not of nowline's form (written by a raw client), is *unknown*: a
process that reads it catches up, and no snapshot is trusted under it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, Literal, TypeVar

from .._rules import records as R
from . import journal as J

T = TypeVar("T")

__all__ = [
    "COMPANION_PREFIX",
    "DONE",
    "MARK_KEY",
    "UNKNOWN",
    "WRITING",
    "AsyncMarks",
    "SyncMarks",
    "companion_name",
    "file_path",
    "is_companion",
    "new_mark",
    "read_file",
    "state_of",
    "token_of",
    "visible_page",
    "write_file",
]

COMPANION_PREFIX = "nowline-mark-"
"""The name of a collection's companion is this prefix and the collection's id."""

MARK_KEY = R.MARK
"""The key of a companion collection's metadata that holds the mark."""

State = Literal["done", "writing", "unknown"]

DONE: Final = "done"
WRITING: Final = "writing"
UNKNOWN: Final = "unknown"

_PREFIXES: dict[str, State] = {"nowline-done:": DONE, "nowline-writing:": WRITING}
_FILE_SUFFIX = ".mark"
_MAX_FILE = 200  # bytes: a mark file larger than this is not nowline's


def new_mark(state: Literal["done", "writing"], token: str | None = None) -> str:
    """Return a mark: of a write's ``token`` (its journal entry), else fresh and random.

    A token is 128 random bits, so no two writes ever share one; a write's writing mark and
    its done mark share its token.
    """
    return f"nowline-{state}:{token or secrets.token_hex(16)}"


def token_of(value: str | None) -> str | None:
    """Return the token of a mark of nowline's form (the write's journal entry), else None."""
    if state_of(value) == UNKNOWN:
        return None
    assert value is not None
    return value.rpartition(":")[2]


def state_of(value: str | None) -> State:
    """Return whether a mark says the last change is done, being written, or is unknown."""
    if not isinstance(value, str):
        return UNKNOWN
    head, sep, tail = value.partition(":")
    state = _PREFIXES.get(head + sep)
    if state is None or len(tail) != 32 or not all(c in "0123456789abcdef" for c in tail):
        return UNKNOWN
    return state


def companion_name(collection_id: object) -> str:
    """Return the name of the companion collection that holds a collection's mark."""
    return f"{COMPANION_PREFIX}{collection_id}"


def is_companion(name: object) -> bool:
    """Return whether a collection name is a companion's (the wrapper hides those)."""
    return isinstance(name, str) and name.startswith(COMPANION_PREFIX)


def file_path(persist_directory: str, collection_id: object) -> str:
    """Return where a local store keeps a collection's mark file (beside its snapshot)."""
    return os.path.join(persist_directory, "nowline", f"{collection_id}{_FILE_SUFFIX}")


def read_file(path: str) -> str | None:
    """Return the mark a local store's file holds, or None (missing or unreadable)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(_MAX_FILE + 1)
    except OSError:
        return None
    if len(data) > _MAX_FILE:
        return None
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        return None


def write_file(path: str, value: str) -> None:
    """Replace a local store's mark file atomically (a reader sees the old or the new one).

    A store whose folder cannot be written keeps no file: the fast path then falls back.
    """
    folder = os.path.dirname(path)
    tmp = None
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(value.encode("ascii"))
        os.replace(tmp, path)
        tmp = None
    except OSError:
        # A stale file would confirm an old snapshot: remove it rather than leave it behind.
        with contextlib.suppress(OSError):
            os.remove(path)
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.remove(tmp)


def _value(model: Any) -> str | None:
    """Return the mark a companion collection's metadata holds (None: none there)."""
    meta = getattr(model, "metadata", None)
    value = meta.get(MARK_KEY) if isinstance(meta, dict) else None
    return value if isinstance(value, str) else None


class _Marks:
    """What the sync and async mark I/O share: the collection, its companion, the file."""

    def __init__(self, collection: Any, writer_path: str | None) -> None:
        """Serve the mark of ``collection`` (a chromadb collection); a local store's folder."""
        self._api = collection._client
        self._name = companion_name(collection.id)
        self._scope = {"tenant": collection.tenant, "database": collection.database}
        self._file = file_path(writer_path, collection.id) if writer_path else None
        self._companion: Any = None  # the companion's id, once this process made or found it

    def _after_write(self, value: str) -> None:
        """Keep a local store's file in step with the companion just written."""
        if self._file is not None:
            write_file(self._file, value)


def _missing(exc: BaseException) -> bool:
    """Return whether a failure says the companion does not exist (deleted, never made)."""
    from chromadb.errors import NotFoundError

    return isinstance(exc, NotFoundError) or "does not exist" in str(exc)


class SyncMarks(_Marks):
    """Reads and writes a collection's mark and journal with blocking calls."""

    def read(self) -> str | None:
        """Return the store's mark, or None when there is none (no companion)."""
        try:
            return _value(self._api.get_collection(name=self._name, **self._scope))
        except Exception as exc:
            if not _missing(exc):
                raise
            return None

    def _companion_id(self, meta: dict[str, str]) -> Any:
        """Return the companion's id, making it (with ``meta``) if this process has not."""
        if self._companion is None:
            made = self._api.get_or_create_collection(name=self._name, metadata=meta, **self._scope)
            self._companion = made.id
        return self._companion

    def _on_companion(self, meta: dict[str, str], act: Callable[[Any], object]) -> None:
        """Call ``act`` with the companion's id, making the companion again if it is gone."""
        for attempt in (0, 1):
            try:
                act(self._companion_id(meta))
                return
            except Exception as exc:
                self._companion = None  # deleted by a raw client, say: make it again
                if attempt or not _missing(exc):
                    raise

    def write(self, value: str) -> None:
        """Write the mark (creating the companion at the first write), then the file."""
        meta = {MARK_KEY: value}
        self._on_companion(
            meta, lambda c: self._api._modify(id=c, new_metadata=meta, **self._scope)
        )
        self._after_write(value)

    def read_journal(self) -> J.Journal | None:
        """Return the journal (the companion's entries), or None: none, or not nowline's."""
        try:
            model = self._api.get_collection(name=self._name, **self._scope)
            got = self._api._get(collection_id=model.id, include=["metadatas"], **self._scope)
        except Exception as exc:
            if not _missing(exc):
                raise
            return None
        return J.parse(str(model.id), got["ids"], got["metadatas"])

    def write_entry(self, entry: J.Entry) -> None:
        """Store a journal entry (making the companion, under a writing mark, if need be)."""
        self._on_companion(
            {MARK_KEY: new_mark("writing", entry.id)},
            lambda c: self._api._upsert(collection_id=c, **_entry_args(entry), **self._scope),
        )

    def drop_entries(self, ids: list[str]) -> None:
        """Delete journal entries (a fold's parts); a companion that is gone has none."""
        try:
            model = self._api.get_collection(name=self._name, **self._scope)
            self._api._delete(collection_id=model.id, ids=ids, **self._scope)
        except Exception as exc:
            if not _missing(exc):
                raise


class AsyncMarks(_Marks):
    """Reads and writes a collection's mark and journal with ``await`` (an async client)."""

    async def read(self) -> str | None:
        """Return the store's mark, or None when there is none (no companion)."""
        try:
            return _value(await self._api.get_collection(name=self._name, **self._scope))
        except Exception as exc:
            if not _missing(exc):
                raise
            return None

    async def _companion_id(self, meta: dict[str, str]) -> Any:
        """Return the companion's id, making it (with ``meta``) if this process has not."""
        if self._companion is None:
            made = await self._api.get_or_create_collection(
                name=self._name, metadata=meta, **self._scope
            )
            self._companion = made.id
        return self._companion

    async def _on_companion(
        self, meta: dict[str, str], act: Callable[[Any], Awaitable[object]]
    ) -> None:
        """Await ``act`` with the companion's id, making the companion again if it is gone."""
        for attempt in (0, 1):
            try:
                await act(await self._companion_id(meta))
                return
            except Exception as exc:
                self._companion = None  # deleted by a raw client, say: make it again
                if attempt or not _missing(exc):
                    raise

    async def write(self, value: str) -> None:
        """Write the mark (creating the companion at the first write)."""
        meta = {MARK_KEY: value}
        await self._on_companion(
            meta, lambda c: self._api._modify(id=c, new_metadata=meta, **self._scope)
        )
        self._after_write(value)

    async def read_journal(self) -> J.Journal | None:
        """Return the journal (the companion's entries), or None: none, or not nowline's."""
        try:
            model = await self._api.get_collection(name=self._name, **self._scope)
            got = await self._api._get(collection_id=model.id, include=["metadatas"], **self._scope)
        except Exception as exc:
            if not _missing(exc):
                raise
            return None
        return J.parse(str(model.id), got["ids"], got["metadatas"])

    async def write_entry(self, entry: J.Entry) -> None:
        """Store a journal entry (making the companion, under a writing mark, if need be)."""
        await self._on_companion(
            {MARK_KEY: new_mark("writing", entry.id)},
            lambda c: self._api._upsert(collection_id=c, **_entry_args(entry), **self._scope),
        )

    async def drop_entries(self, ids: list[str]) -> None:
        """Delete journal entries (a fold's parts); a companion that is gone has none."""
        try:
            model = await self._api.get_collection(name=self._name, **self._scope)
            await self._api._delete(collection_id=model.id, ids=ids, **self._scope)
        except Exception as exc:
            if not _missing(exc):
                raise


def _entry_args(entry: J.Entry) -> dict[str, Any]:
    """Return the upsert arguments that store a journal entry (a one-number embedding)."""
    import numpy as np

    return {
        "ids": [entry.id],
        "embeddings": [np.zeros(1, dtype=np.float32)],
        "metadatas": [J.entry_meta(entry)],
    }


def visible_page(
    everything: Sequence[T], page: Sequence[T], limit: int | None, offset: int | None
) -> Sequence[T]:
    """Return a page of ``list_collections`` as if nowline's companion collections were absent.

    ``page`` is chromadb's own answer for ``limit`` and ``offset`` (its checks ran on them);
    where the store holds companions, the page is cut again from ``everything`` without them.
    """
    if not any(is_companion(getattr(c, "name", None)) for c in everything):
        return page
    kept = [c for c in everything if not is_companion(getattr(c, "name", None))]
    start = offset or 0
    return kept[start : None if limit is None else start + limit]
