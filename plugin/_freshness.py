"""Registry freshness: what a process knows of the corrections, and when it reads them again.

Corrections change through this wrapper, through other wrappers of this process, through other
processes (over a Chroma server), and around nowline altogether (the raw collection, a plain
chromadb client). The registry catches up with all of them:

* **This process.** Every wrapper of one store and collection shares a change counter; a
  wrapper that sees another's change refreshes before it reads.
* **nowline elsewhere.** Every correction change is stamped (``nowline_changed``) just before
  the call that makes it visible, and stamped again when that call took long, so a reader
  that reads the stamps since its last refresh, less a slack, never misses it. Deletions show
  as ids missing from the corrections' id list.
* **Around nowline.** A correction written by a plain client carries no stamp. Each refresh
  also reads one page of the collection in turn (a rolling scan), so every record is looked at
  once per rotation; and any correction that a read returns is taken in at once.

A refresh runs at most once per ``refresh_seconds`` (and at once when a hit names an unknown
correction). The bounds this gives are stated in the README ("Freshness").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from chromadb.api.types import Where

from . import _records as R
from . import _snapshot
from ._records import CorrectionInfo, Record, correction_info
from ._registry import Registry
from ._store import Background, Flow, Get, Work
from ._time import now

__all__ = [
    "PAGE",
    "SLACK",
    "Freshness",
    "load_flow",
    "read_all",
    "read_by_ids",
    "records_of",
    "refresh_flow",
    "verify_flow",
]

PAGE = 5000
"""Rows per bulk read (a single Chroma read of more than about 32k rows with metadatas fails)."""

SLACK = 5.0
"""Seconds of clock skew and write latency tolerated between processes."""

SCAN_PAGE = 1000
"""Rows the rolling scan reads per refresh."""

TRIES = 5
"""Reads of the same records before a refresh gives up on a registry that keeps changing."""

# Per store and collection, how often wrappers in this process changed its corrections.
_generations: dict[tuple[object, str], int] = {}
_generations_lock = threading.Lock()


@dataclass
class Freshness:
    """One wrapper's knowledge of when it last caught up with the store's corrections."""

    key: tuple[object, str]
    refresh_seconds: float
    last_refresh: float = 0.0  # time.monotonic() of the last refresh
    last_scan: float = -float("inf")  # time.monotonic() of the last rolling-scan step
    mark: float = 0.0  # wall-clock lower bound of changes not yet read
    seen_generation: int = 0
    scan_offset: int = 0

    def generation(self) -> int:
        """Return how often wrappers in this process changed this collection's corrections."""
        with _generations_lock:
            return _generations.get(self.key, 0)

    def changed_here(self) -> None:
        """Record that this wrapper changed the corrections (other wrappers will refresh)."""
        with _generations_lock:
            new = _generations.get(self.key, 0) + 1
            _generations[self.key] = new
        if self.seen_generation == new - 1:
            self.seen_generation = new  # this wrapper's registry is already up to date

    def due(self, force: bool = False) -> bool:
        """Return whether a refresh should run now."""
        if force or self.generation() != self.seen_generation:
            return True
        return time.monotonic() - self.last_refresh >= self.refresh_seconds


def records_of(page: Mapping[str, Any]) -> list[Record]:
    """Return the records of a raw GetResult."""
    ids: list[str] = list(page["ids"])
    empty: list[Any] = [None] * len(ids)
    docs: list[Any] = list(page.get("documents") or empty)
    metas: list[Any] = list(page.get("metadatas") or empty)
    return [Record(i, d, m) for i, d, m in zip(ids, docs, metas, strict=True)]


def read_all(
    where: Where | None = None,
    where_document: Any = None,
    include: Sequence[str] = ("documents", "metadatas"),
) -> Flow[list[Record]]:
    """Read every matching record: the first page with the filter, any others by id.

    Chroma has no cursor: a read at an offset evaluates its filter again from the first row
    (a ``$regex`` reads every document). So past the first page, the remaining ids are read in
    one pass without their data, and their rows by id, in pages.
    """
    page = yield Get(
        where=where, where_document=where_document, limit=PAGE, offset=0, include=tuple(include)
    )
    out = records_of(page)
    if len(out) < PAGE:
        return out
    rest = yield Get(where=where, where_document=where_document, offset=PAGE, include=())
    seen = {r.id for r in out}
    ids = [i for i in dict.fromkeys(rest["ids"]) if i not in seen]
    found = yield from read_by_ids(ids, include)
    out += [found[i] for i in ids if i in found]
    return out


def read_by_ids(
    ids: Iterable[str], include: Sequence[str] = ("documents", "metadatas")
) -> Flow[dict[str, Record]]:
    """Read the stored records among ``ids`` (missing ids are left out), by id."""
    wanted = list(dict.fromkeys(ids))
    out: dict[str, Record] = {}
    for i in range(0, len(wanted), PAGE):
        page = yield Get(ids=wanted[i : i + PAGE], include=tuple(include))
        out.update((r.id, r) for r in records_of(page))
    return out


def _take_in(
    registry: Registry,
    scope_key: str | None,
    read: Callable[[], Flow[tuple[Iterable[Record], Iterable[str]]]],
) -> Flow[bool | None]:
    """Run a read of corrections and take in what it shows, consistently with writes.

    ``read`` returns the records it found and the ids it found missing. A read that overlapped
    a change of the registry (a write or another read in another thread or task) may be older
    than what the registry holds; it is read again (see :meth:`Registry.reconcile`). Returns
    whether the registry changed, or None when it kept changing for :data:`TRIES` reads (the
    caller leaves the refresh due).
    """
    for _ in range(TRIES):
        since = registry.version
        records, missing = yield from read()
        found: dict[str, CorrectionInfo | None] = dict.fromkeys(missing)
        found.update((r.id, correction_info(r, scope_key)) for r in records)
        changed = registry.reconcile(found, since)
        if changed is not None:
            return changed
    return None


def load_flow(
    fresh: Freshness,
    registry: Registry,
    choose_scope: Callable[[set[str]], str | None],
    snapshot: str | None = None,
) -> Flow[str | None]:
    """Load the collection's corrections into ``registry``: from a snapshot, else from Chroma.

    ``choose_scope`` receives the scope keys the corrections were written with and returns the
    key to read them with (it raises when they conflict). Returns that key.

    A snapshot (see :mod:`nowline._snapshot`) is the registry as it was at its mark. It is
    never trusted beyond that: the first read refreshes from the mark, exactly as a wrapper
    that had been running since then would, and every correction a read shows is verified
    by id. Without a usable snapshot every correction is read (and a snapshot is written).
    """
    fresh.seen_generation = fresh.generation()
    # The first read refreshes, so a new wrapper catches up from its mark and starts its
    # rolling scan at once (it finds corrections written around nowline).
    fresh.last_refresh = -float("inf")
    if snapshot is not None:
        saved = yield Work(_snapshot.read, (snapshot,))
        if saved is not None:
            # The automata build meanwhile: the check of the scope keys is the process's
            # first Chroma read, which loads the collection's segments. Should the snapshot
            # be refused, the first scan brings that build up to date with the full read.
            registry.replace_all(saved.infos)
            yield from _build_meanwhile(registry)
            if (yield from _scope_keys_hold(saved)):
                scope_key = choose_scope(saved.scope_keys)
                if scope_key == saved.scope_key:
                    fresh.mark, fresh.scan_offset = saved.mark, saved.scan_offset
                    return scope_key
    fresh.mark = now()
    records = yield from read_all(where=cast(Where, {R.CORRECTION: True}))
    stored = {key for r in records if isinstance(key := (r.metadata or {}).get(R.SCOPE_KEY), str)}
    scope_key = choose_scope(stored)
    # Reading every correction's record grows with the corrections: off an event loop.
    infos = yield Work(R.correction_infos, (records, scope_key))
    registry.replace_all(infos)
    yield from _build_meanwhile(registry)
    if snapshot is not None:
        yield Work(
            _snapshot.write, (snapshot, _snapshot.state_of(registry, fresh, scope_key, stored))
        )
    return scope_key


SCOPE_SAMPLE = 32
"""Corrections of a snapshot read back by id to check the scope keys it names."""


def _scope_keys_hold(saved: _snapshot.Saved) -> Flow[bool]:
    """Return whether the store bears out the scope keys a snapshot names (else it is unused).

    The scope key decides which records share a scope, and every correction written stores
    it, so a snapshot's own word is not enough: it may be stale (corrections with another key
    written since) or edited. Each key it names must be on a correction in the store (one
    read of one id per key), and a sample of its corrections, read back by id, may carry no
    other key (they all carry the store's key when the snapshot left it out).
    """
    for key in sorted(saved.scope_keys):
        page = yield Get(where=cast(Where, {R.SCOPE_KEY: key}), limit=1, include=())
        if not page["ids"]:
            return False
    infos = saved.infos
    sample = [i.id for i in infos[:: max(1, len(infos) // SCOPE_SAMPLE)][:SCOPE_SAMPLE]]
    found = yield from read_by_ids(sample, include=("metadatas",))
    keys = {(r.metadata or {}).get(R.SCOPE_KEY) for r in found.values()} - {None}
    return keys <= saved.scope_keys


def _build_meanwhile(registry: Registry) -> Flow[None]:
    """Build the registry's automata in the background while the first read reads Chroma."""
    job = registry.build_job()
    if job is not None:
        yield Background(job)


def refresh_flow(
    fresh: Freshness,
    registry: Registry,
    scope_key: str | None,
    *,
    force: bool = False,
    scan: bool = True,
) -> Flow[bool]:
    """Catch up with corrections changed since the last refresh, if one is due.

    Two cheap reads: the corrections stamped since the last refresh (less a slack), and the
    next page of the rolling scan (reads only; a write needs the stamps alone, since links to
    a correction written around nowline may lag until ``repair()`` anyway). Neither grows with
    the number of corrections. Deletions and edits elsewhere of a correction that a read is
    about to show are caught at once by :func:`verify_flow` instead.

    The wrapper counts as caught up only once the read is taken in, so a write in another
    thread that starts meanwhile refreshes too rather than plan against a registry this read
    has not filled yet.

    Returns whether the registry changed.
    """
    scan_due = scan and (force or time.monotonic() - fresh.last_scan >= fresh.refresh_seconds)
    if not fresh.due(force):
        if not scan_due:
            return False
        fresh.last_scan = time.monotonic()
        return (yield from _scan_step(fresh, registry, scope_key))
    generation = fresh.generation()
    started = now()
    since = fresh.mark - SLACK

    def stamped() -> Flow[tuple[Iterable[Record], Iterable[str]]]:
        nonlocal started
        started = now()
        records = yield from read_all(where=cast(Where, {R.CHANGED: {"$gte": since}}))
        return records, ()

    taken = yield from _take_in(registry, scope_key, stamped)
    changed = bool(taken)
    if scan_due:
        fresh.last_scan = time.monotonic()
        changed |= yield from _scan_step(fresh, registry, scope_key)
    if taken is not None:
        fresh.mark = max(fresh.mark, started)
        fresh.seen_generation = max(fresh.seen_generation, generation)
        fresh.last_refresh = time.monotonic()
    return changed


def verify_flow(registry: Registry, scope_key: str | None, ids: Iterable[str]) -> Flow[bool]:
    """Check the corrections a read is about to show against the store; fix the registry.

    One read by id: a correction deleted, edited or retracted elsewhere (another process, the
    raw collection) since this process last looked is dropped or updated before it is shown.
    Returns whether the registry changed (the caller recomputes what it shows).
    """
    wanted = sorted(set(ids))
    if not wanted:
        return False
    return bool((yield from _take_in(registry, scope_key, lambda: _by_ids(wanted))))


def _by_ids(ids: Sequence[str]) -> Flow[tuple[Iterable[Record], Iterable[str]]]:
    """Read records by id; return those found and the ids not found."""
    found = yield from read_by_ids(ids)
    return found.values(), [i for i in ids if i not in found]


def _known(registry: Registry, scope_key: str | None, row: Record) -> bool:
    """Return whether a row's metadata shows the correction exactly as the registry holds it."""
    held = registry.get(row.id)
    if held is None:
        return False
    return correction_info(Record(row.id, held.document, row.metadata), scope_key) == held


def _scan_step(fresh: Freshness, registry: Registry, scope_key: str | None) -> Flow[bool]:
    """Read the next page of the rolling scan and take in the corrections it shows.

    The page holds metadata only; the records whose metadata says something the registry does
    not know (a correction it lacks, one it holds with other strings, time, scope or
    retraction, or one that is no correction any more) are read again in full and taken in.
    An edit of a correction's text alone changes no link; it is caught when a read shows
    that correction (:func:`verify_flow`).
    """
    page = yield Get(limit=SCAN_PAGE, offset=fresh.scan_offset, include=("metadatas",))
    rows = records_of(page)
    candidates = [
        r.id
        for r in rows
        if (R.is_correction(r.metadata) or r.id in registry) and not _known(registry, scope_key, r)
    ]
    changed = False
    if candidates:
        changed = bool((yield from _take_in(registry, scope_key, lambda: _by_ids(candidates))))
    if len(rows) < SCAN_PAGE:
        fresh.scan_offset = 0
    else:
        fresh.scan_offset += len(rows)
    return changed
