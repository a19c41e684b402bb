"""A snapshot of the correction registry beside the store, so a new process starts fast.

Reading 100k corrections back from Chroma takes seconds, and every process that opens a store
pays it. A snapshot holds the registry as a process last had it, in one SQLite file, with the
generation mark (:mod:`nowline._io.mark`) it was caught up under: beside a local store
(``<store>/nowline/<collection id>.snapshot.sqlite``) or, for a server, in the user's cache
folder (``$NOWLINE_CACHE_DIR``, else ``$XDG_CACHE_HOME/nowline``, else ``~/.cache/nowline``).

A snapshot is used only while the store's mark equals the one it holds
(:func:`nowline._io.freshness.load_flow`): any change of a correction through nowline, a
store restored from a backup, another store or another collection has another mark, and then
the snapshot is ignored. A snapshot of another format, nowline version or collection, or with
a value of the wrong type anywhere, is ignored too. It is written only under a mark that says
the last write is done, never by a process told not to write one (``NOWLINE_SNAPSHOT_WRITE=0``:
``nowline hook`` sets it, and so may a process on a read-only store).

The file holds every correction (one row each, in the registry's order) and an index of the
active ones: each filed under the keys of :func:`nowline._rules.registry.index_keys`. It is
opened read-only and immutable (:func:`open_index`) and never read whole at start-up: a new
process's registry asks it only for what the texts it reads can trip
(:meth:`nowline._rules.registry.Registry.defer`), as ``nowline hook`` and ``nowline check``
do (:mod:`nowline.fastpath`), and reads it whole only when it first needs every correction
(a write, a listing). A file is replaced, never written in place, and an open connection
keeps reading the file it opened: what a process reads later is of the same mark.

SQLite rows of JSON arrays, not pickle: the file lives where other programs can write, and
must never run code. Its schema is not trusted to run anything (``trusted_schema = OFF``), a
file whose size is not its pages' is not opened, and a row of the wrong shape is an error.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import logging
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any

import orjson

from .._rules.records import CorrectionInfo
from .._version import VERSION
from ..matchers._gcpause import paused
from .journal import Applied, parse_applied, saved_applied

__all__ = [
    "WRITE_ENV",
    "Index",
    "Saved",
    "confirmable",
    "open_index",
    "path_for",
    "read",
    "save_at_exit",
    "state_of",
    "write",
    "writes",
]

logger = logging.getLogger("nowline")

FORMAT = 10

WRITE_ENV = "NOWLINE_SNAPSHOT_WRITE"
"""The environment variable that, set to ``0``, keeps a process from writing any snapshot."""

_SUFFIX = ".snapshot.sqlite"


@dataclass(frozen=True)
class Saved:
    """What a snapshot holds."""

    collection: str
    mark: str
    listed: float
    infos: list[CorrectionInfo]
    applied: Applied | None = None  # the journal entries it reflects (None: unknown)


def path_for(api: Any, collection_id: str, persist_directory: str | None) -> str | None:
    """Return where a collection's snapshot lives, or None for an in-memory store."""
    name = f"{collection_id}{_SUFFIX}"
    if persist_directory is not None:
        return os.path.join(persist_directory, "nowline", name)
    base = getattr(api, "_api_url", None)
    if not isinstance(base, str):
        return None
    root = os.environ.get("NOWLINE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "nowline"
    )
    server = hashlib.sha256(base.encode("utf-8")).hexdigest()[:16]
    return os.path.join(root, server, name)


def _version() -> str:
    """Return nowline's version (a snapshot of another version is not read)."""
    return VERSION


def writes() -> bool:
    """Return whether this process may write snapshots (``NOWLINE_SNAPSHOT_WRITE`` is not 0)."""
    return os.environ.get(WRITE_ENV, "1").strip() != "0"


def state_of(registry: Any, fresh: Any) -> Any:
    """Return the state to save for a registry and the mark it is caught up under.

    It holds the registry's corrections as a list (a copy taken at once); :func:`write` lays
    them out as the file's rows, in the background for a large registry, so a catch-up does
    not wait for that.
    """
    return {
        "format": FORMAT,
        "nowline": _version(),
        "mark": fresh.mark,
        "listed": fresh.listed_wall,  # when the listing it reflects began (time.time())
        "listing_cost": fresh.listing_estimate(),  # how long a listing of the store takes (s)
        "applied": saved_applied(fresh.applied),  # the journal entries it reflects
        "infos": list(registry.held().values()),  # sorted when written
    }


def write(path: str, state: dict[str, Any]) -> None:
    """Write a snapshot atomically (a reader sees the old file or the new one, never half)."""
    if not writes():
        return
    folder = os.path.dirname(path)
    tmp = None
    try:
        rows = _rows(state["infos"])  # before any file exists: a failure leaves nothing behind
        if _in_cache(folder):
            os.makedirs(folder, exist_ok=True)
        else:  # beside a store: one removed meanwhile (a temporary folder) is not brought back
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        os.close(fd)
        _write_file(tmp, state, _collection_of(path), rows)
        os.replace(tmp, path)
        tmp = None
    except (OSError, TypeError, sqlite3.Error):  # a read-only store or cache: only slower
        # (TypeError: orjson.JSONEncodeError, a text Chroma would not have stored either)
        logger.debug("Could not write the registry snapshot %s.", path, exc_info=True)
    finally:
        if tmp is not None:  # written in part (a full disk, say): not left beside the store
            with contextlib.suppress(OSError):
                os.remove(tmp)


def _rows(infos: list[CorrectionInfo]) -> list[tuple[CorrectionInfo, bytes]]:
    """Return the corrections oldest first, each with its row (a JSON array of its fields)."""
    ordered = sorted(infos, key=lambda i: i.order)  # the registry's order
    return [(info, orjson.dumps(tuple(info))) for info in ordered]


_SCHEMA = """
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE corrections (row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, info BLOB NOT NULL);
CREATE TABLE runs (run TEXT NOT NULL, row INTEGER NOT NULL, PRIMARY KEY (run, row)) WITHOUT ROWID;
CREATE TABLE holders (key TEXT NOT NULL, row INTEGER NOT NULL, PRIMARY KEY (key, row))
    WITHOUT ROWID;
CREATE TABLE always (row INTEGER PRIMARY KEY);
"""
_TABLES = ("meta", "corrections", "runs", "holders", "always")


def _write_file(
    tmp: str, state: dict[str, Any], collection: str, rows: list[tuple[CorrectionInfo, bytes]]
) -> None:
    """Write a snapshot's state into the new file ``tmp`` (see the module)."""
    from .._rules.registry import index_keys

    counts: dict[str, int] = {}
    for info, _ in rows:
        if info.scope:
            counts[info.scope[0]] = counts.get(info.scope[0], 0) + 1
    meta = {
        "format": str(FORMAT),
        "nowline": _version(),
        "collection": collection,
        "mark": state["mark"],
        "listed": orjson.dumps(state["listed"]).decode(),
        "listing_cost": orjson.dumps(float(state.get("listing_cost", 0.0))).decode(),
        "applied": orjson.dumps(state["applied"]).decode(),
        "scope_keys": orjson.dumps(counts, option=orjson.OPT_SORT_KEYS).decode(),
        "active": str(sum(1 for info, _ in rows if info.retracted is None)),
    }
    runs: list[tuple[str, int]] = []
    holders: list[tuple[str, int]] = []
    always: list[tuple[int]] = []
    for row, (info, _) in enumerate(rows):
        if info.retracted is not None:
            continue  # read by id only
        filed, anywhere, holds = index_keys(info)
        runs.extend((run, row) for run in filed)
        holders.extend((key, row) for key in holds)
        if anywhere:
            always.append((row,))
    conn = sqlite3.connect(tmp)
    try:
        conn.executescript(_SCHEMA)
        conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        conn.executemany(
            "INSERT INTO corrections VALUES (?, ?, ?)",
            ((row, info.id, data) for row, (info, data) in enumerate(rows)),
        )
        conn.executemany("INSERT OR IGNORE INTO runs VALUES (?, ?)", sorted(runs))
        conn.executemany("INSERT OR IGNORE INTO holders VALUES (?, ?)", sorted(holders))
        conn.executemany("INSERT INTO always VALUES (?)", always)
        conn.commit()
    finally:
        conn.close()


class Index:
    """A snapshot, open read-only: a :class:`nowline._rules.registry.Source`.

    Every method returns corrections checked as the registry needs them; a row of the wrong
    shape raises ``ValueError`` (a file someone else wrote). The lookups that file by key
    return active corrections only; :meth:`by_ids` and :meth:`everything` return retracted
    ones too.

    Attributes:
        mark: the generation mark the snapshot was written under.
        scope_keys: the scope keys the collection's corrections carry.
        scope_counts: how many corrections carry each of them.
        listed: when the listing the snapshot reflects began (``time.time()``).
        listing_cost: how long a listing of the store took its writer (seconds).
        applied: the journal entries it reflects (None: unknown).
        active: how many active corrections it holds.
    """

    def __init__(self, conn: sqlite3.Connection, meta: dict[str, Any]) -> None:
        self._conn = conn
        self.mark: str = meta["mark"]
        self.scope_counts: dict[str, int] = meta["scope_keys"]
        self.scope_keys = frozenset(self.scope_counts)
        self.listed: float = meta["listed"]
        self.listing_cost: float = meta["listing_cost"]
        self.applied: Applied | None = meta["applied"]
        self.active: int = meta["active"]
        self._seen: dict[int, CorrectionInfo] = {}

    def close(self) -> None:
        """Close the snapshot."""
        self._conn.close()

    def by_runs(self, runs: set[str]) -> list[CorrectionInfo]:
        """Return the corrections filed under one of ``runs``."""
        return self._filed("runs", "run", runs)

    def always(self) -> list[CorrectionInfo]:
        """Return the corrections with a string that has no token characters."""
        found = self._conn.execute(
            "SELECT c.row, c.info FROM always a JOIN corrections c ON c.row = a.row"
        ).fetchall()
        return self._active(found)

    def holding(self, keys: set[str]) -> list[CorrectionInfo]:
        """Return the corrections holding one of ``keys`` as a new value."""
        return self._filed("holders", "key", keys)

    def by_ids(self, ids: set[str]) -> list[CorrectionInfo]:
        """Return the corrections (active or retracted) with one of these ids."""
        if not ids:
            return []
        found = self._conn.execute(
            "SELECT row, info FROM corrections WHERE id IN (SELECT value FROM json_each(?))",
            (orjson.dumps(sorted(ids)).decode(),),
        ).fetchall()
        infos = self._infos(found)
        if any(i.id not in ids for i in infos):
            raise ValueError("not a snapshot: a row's id is not its correction's")
        return infos

    def everything(self) -> list[CorrectionInfo]:
        """Return every correction, oldest first."""
        with paused():  # hundreds of thousands of containers, none of them garbage
            found = self._conn.execute("SELECT row, info FROM corrections ORDER BY row").fetchall()
            infos = self._infos(found)
        if len({i.id for i in infos}) != len(infos):
            raise ValueError("not a snapshot: one id in two rows")
        if sum(1 for i in infos if i.retracted is None) != self.active:
            raise ValueError("not a snapshot: another number of active corrections")
        return infos

    def count(self) -> int:
        """Return how many corrections (active or retracted) the snapshot holds."""
        (n,) = self._conn.execute("SELECT count(*) FROM corrections").fetchone()
        return int(n)

    def _filed(self, table: str, column: str, keys: set[str]) -> list[CorrectionInfo]:
        """Return the corrections a table files under any of ``keys``."""
        if not keys:
            return []
        found = self._conn.execute(
            f"SELECT DISTINCT c.row, c.info FROM {table} t JOIN corrections c ON c.row = t.row "
            f"WHERE t.{column} IN (SELECT value FROM json_each(?))",
            (orjson.dumps(sorted(keys)).decode(),),
        ).fetchall()
        return self._active(found)

    def _active(self, found: list[tuple[Any, Any]]) -> list[CorrectionInfo]:
        """Return the corrections of fetched rows that an index files: active ones only."""
        infos = self._infos(found)
        if any(i.retracted is not None for i in infos):
            raise ValueError("not a snapshot: a retracted correction is filed")
        return infos

    def _infos(self, found: list[tuple[Any, Any]]) -> list[CorrectionInfo]:
        """Return the corrections of fetched rows, each parsed and checked once."""
        new = [(row, info) for row, info in found if row not in self._seen]
        if new:
            parsed = [orjson.loads(info) for _, info in new]
            if not all(type(p) is list and len(p) == len(CorrectionInfo._fields) for p in parsed):
                raise ValueError("not a snapshot: a row is not a correction")
            columns = dict(
                zip(CorrectionInfo._fields, map(list, zip(*parsed, strict=True)), strict=True)
            )
            infos = _infos(columns)
            if infos is None:
                raise ValueError("not a snapshot: a row is not a correction")
            self._seen.update(zip((row for row, _ in new), infos, strict=True))
        return [self._seen[row] for row, _ in found]


def open_index(path: str) -> Index | None:
    """Open the snapshot at ``path`` read-only; None if missing, damaged or not this format.

    Nothing is created or changed: the file is opened as immutable (it is replaced, never
    written in place), so no lock or journal is made, and its schema is not trusted to run
    anything. A file whose size is not the size of its pages (cut short, or grown) is not
    opened. The connection may be used from any thread, one at a time (the registry's lock).
    """
    from urllib.parse import quote

    if not os.path.isfile(path):
        return None
    uri = f"file:{quote(os.path.abspath(path))}?mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    except sqlite3.Error:
        return None
    try:
        conn.execute("PRAGMA trusted_schema = OFF")
        (pages,) = conn.execute("PRAGMA page_count").fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
        # (a file replaced between the two reads fails this check: then the full path)
        if pages * size != os.path.getsize(path):
            raise ValueError("a snapshot cut short")
        kinds = dict(conn.execute("SELECT name, type FROM sqlite_master").fetchall())
        if any(kinds.get(t) != "table" for t in _TABLES) or {"view", "trigger"} & {*kinds.values()}:
            raise ValueError("not this schema")  # views stand in for tables: a hostile file
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        parsed = {
            "mark": meta["mark"],
            "scope_keys": orjson.loads(meta["scope_keys"]),
            "listed": orjson.loads(meta["listed"]),
            "listing_cost": orjson.loads(meta["listing_cost"]),
            "applied": parse_applied(orjson.loads(meta["applied"])),
            "active": int(meta["active"]),
        }
        keys, listed, cost = parsed["scope_keys"], parsed["listed"], parsed["listing_cost"]
        if (
            meta.get("format") != str(FORMAT)
            or meta.get("nowline") != _version()
            or meta.get("collection") != _collection_of(path)
            or type(parsed["mark"]) is not str
            or type(keys) is not dict
            or not all(type(n) is int and n > 0 for n in keys.values())
            or type(listed) not in (int, float)
            or listed != listed
            or type(cost) not in (int, float)
            or not 0 <= cost < float("inf")
            or parsed["active"] < 0
        ):
            raise ValueError("not this format")
        parsed["listed"], parsed["listing_cost"] = float(listed), float(cost)
        return Index(conn, parsed)
    except (sqlite3.Error, ValueError, KeyError, TypeError, OSError):
        conn.close()
        return None


_pending: dict[str, threading.Thread] = {}  # the thread writing each path
_latest: dict[str, dict[str, Any]] = {}  # the newest state each path still has to be written
_pending_lock = threading.Lock()


BACKGROUND_FROM = 2_000
"""The number of corrections from which a snapshot is written in a background thread."""


def save_meanwhile(path: str, state: dict[str, Any]) -> None:
    """Write a snapshot, in a background thread for a large registry (the state was taken).

    A process that catches up, or writes a correction, saves what it knows under the new mark
    at once, so that a new process (the hook) starts from it. Below :data:`BACKGROUND_FROM`
    corrections the write (the snapshot and its index) takes under 25 ms and is done before
    this returns: the caller may then remove the store at once (a temporary folder) and
    nothing writes into it afterwards. From there on the caller does not wait for the disk
    (100k corrections take about 1.5 s to write). One thread writes a path at a time, the
    newest state last, and rests :data:`SPACING` times a write's length before the next:
    states saved meanwhile are coalesced, so a burst of corrections costs a few writes, not
    one per correction, and the writes take at most a fifth of a core. The writes still
    running when the process exits are waited for (a few seconds at most), so no
    half-written temporary file is left behind.
    """
    if len(state["infos"]) < BACKGROUND_FROM:
        write(path, state)
        return
    with _pending_lock:
        _latest[path] = state
        running = _pending.get(path)
        if running is not None and running.is_alive():
            return  # it writes this state when the one it is writing is done
        thread = threading.Thread(target=_drain, args=(path,), name="nowline-snapshot")
        thread.daemon = True
        _pending[path] = thread
    try:
        thread.start()
    except RuntimeError:  # no thread to be had (interpreter shutting down, limits)
        _drain(path)


def _drain(path: str) -> None:
    """Write the newest state saved for ``path`` until none is left."""
    while True:
        with _pending_lock:
            state = _latest.pop(path, None)
            if state is None:
                if _pending.get(path) is threading.current_thread():
                    del _pending[path]
                return
        began = time.monotonic()
        write(path, state)
        # A rest of a few times the write's own length: while corrections keep coming, the
        # writer takes at most a fifth of a core from them (a write at 100k takes 1.5 s).
        _flushing.wait(min(SPACING * (time.monotonic() - began), 10.0))


SPACING = 4.0
"""The rest after a background snapshot write, in multiples of the write's own length."""

_flushing = threading.Event()  # set while flush() waits: the writers rest no more


def flush() -> None:
    """Wait (briefly) for the snapshot writes still running (at exit, and in tests)."""
    with _pending_lock:
        threads = list(_pending.values())
    _flushing.set()
    try:
        for thread in threads:
            if thread.is_alive():
                thread.join(timeout=5.0)
    finally:
        _flushing.clear()


atexit.register(flush)  # nothing to wait for unless a background write ran


def _in_cache(folder: str) -> bool:
    """Return whether a snapshot folder is in the cache (see :func:`path_for`), not a store's."""
    return os.path.basename(folder) != "nowline"  # a store's is <store>/nowline


def _collection_of(path: str) -> str:
    """Return the collection id a snapshot's file name says it belongs to."""
    return os.path.basename(path).removesuffix(_SUFFIX)


def read(path: str) -> Saved | None:
    """Return the snapshot at ``path`` read whole, or None when it is missing or not this format."""
    index = open_index(path)
    if index is None:
        return None
    try:
        infos = index.everything()
    except (sqlite3.Error, ValueError, KeyError, TypeError, AttributeError):
        return None
    finally:
        index.close()
    return Saved(_collection_of(path), index.mark, index.listed, infos, index.applied)


def _infos(columns: dict[str, list[Any]]) -> list[CorrectionInfo] | None:
    """Return the corrections of a snapshot's columns, or None if any column is malformed.

    Every check and conversion runs over a whole column in C (``map``, ``set``, ``zip``),
    not per correction in Python: 100k corrections are read back in under 0.1 s.
    """
    listed = [columns[name] for name in CorrectionInfo._fields]
    if not all(type(c) is list and len(c) == len(listed[0]) for c in listed):
        return None
    (
        ids,
        documents,
        deprecates,
        about,
        times,
        written,
        scopes,
        retracted,
        marked,
        sources,
        urls,
        replaced_by,
    ) = listed
    if not (
        _only(ids, str)
        and _only(documents, str)
        and _stored(deprecates)
        and all(deprecates)  # a correction deprecates at least one string
        and _stored(about)
        and _stored(replaced_by)
        and _only(times, float, int)
        and _only(written, float, int)
        and _only(retracted, float, int, type(None))
        and _only(marked, bool)
        and _only(sources, str, type(None))
        and _only(urls, str, type(None))
    ):
        return None
    if not _only(scopes, type(None)):
        parsed: dict[str, Any] = {}  # a store has few distinct scopes: parse each once
        scopes = [
            None
            if s is None
            else parsed[k]
            if (k := orjson.dumps(s).decode()) in parsed
            else parsed.setdefault(k, _scope(s))
            for s in scopes
        ]
    # tuple.__new__ skips the named tuple's own __new__ (a Python call per correction);
    # the columns are CorrectionInfo's fields, in order.
    rows = zip(
        ids,
        documents,
        map(tuple, deprecates),
        map(tuple, about),
        map(float, times),
        map(float, written),
        scopes,
        (None if r is None else float(r) for r in retracted),
        marked,
        sources,
        urls,
        map(tuple, replaced_by),
        strict=True,
    )
    return list(map(tuple.__new__, repeat(CorrectionInfo), rows))


def _stored(lists: list[Any]) -> bool:
    """Return whether each item is a list of phrases as nowline stores them.

    That is strings, not blank, with no space around them (``_records.stored_phrases``); a
    blank phrase would fail the automaton's build on every read.
    """
    if not _only(lists, list):
        return False
    flat = list(chain.from_iterable(lists))
    return _only(flat, str) and all(flat) and all(map(str.__eq__, flat, map(str.strip, flat)))


def _only(values: Iterable[Any], *types: type) -> bool:
    """Return whether every value is of one of ``types`` exactly (bool is no int here)."""
    return set(map(type, values)) <= set(types)


def _scope(value: Any) -> Any:
    """Return a correction's scope read back from JSON: None, or (key, token)."""
    if value is None:
        return None
    if type(value) is not list or len(value) != 2 or type(value[0]) is not str:
        raise ValueError("not a correction's scope")
    return (value[0], _token(value[1]))


def _token(value: Any) -> Any:
    """Return a scope token read back from JSON (tuples were written as arrays)."""
    if type(value) is not list or not value or type(value[0]) is not str:
        raise ValueError("not a scope token")
    if value[0] == "list" and len(value) == 2 and type(value[1]) is list:
        value = ["list", tuple(value[1])]
        inner = value[1]
    else:
        inner = value[1:]
    if not _only(inner, str, int, float, bool, type(None)):
        raise ValueError("not a scope token")  # a token must hash like the metadata's
    return tuple(value)


def confirmable(registry: Any, fresh: Any) -> bool:
    """Return whether a registry may be saved as the snapshot of the mark it is caught up under.

    It must hold every correction (a deferred one leaves the save to the process that wrote
    the change, which reads everything to write) and be caught up, settled, under a *done*
    mark: a registry that may lag the store is never saved as confirmed.
    """
    from .mark import DONE
    from .mark import state_of as mark_state

    return (
        not registry.deferred and fresh.known and fresh.settled and mark_state(fresh.mark) == DONE
    )


def save_at_exit(core: Any, path: str | None) -> None:
    """Write the snapshot when the process exits, if the registry changed since it was read.

    It is written only where :func:`confirmable` says so.
    Only a weak reference to the wrapper's state is kept, so a wrapper that is dropped early
    costs nothing at exit.
    """
    if path is None or not writes():
        return
    import weakref

    ref = weakref.ref(core)
    loaded = core.registry.version

    def save() -> None:
        state = ref()
        if state is None or state.registry.version == loaded:
            return
        if confirmable(state.registry, state.fresh):
            write(path, state_of(state.registry, state.fresh))

    atexit.register(save)
