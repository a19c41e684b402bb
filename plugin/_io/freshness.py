"""Registry freshness: what a process knows of the corrections, and when it catches up.

Corrections change through this process, through other processes (over a Chroma server, or a
writer process of a local store) and around nowline altogether (the raw collection, a plain
chromadb client). These mechanisms keep a process's registry true to the store, and nothing
else does:

* **The generation mark** (:mod:`nowline._io.mark`). Every nowline write that changes a
  correction writes a fresh random mark before and after the records change. A process reads
  the mark before an operation uses what it knows, at most every ``refresh_seconds`` (0: before
  every operation), and catches up only when the mark differs from the one it caught up under.
  So a change made through nowline anywhere is seen within ``refresh_seconds`` plus one
  catch-up, and a store where nothing changes costs one small read per interval.
* **The change journal** (:mod:`nowline._io.journal`): which corrections each write changed.
  A catch-up reads those by id (:func:`catch_up_flow`); it lists every correction
  (:func:`list_flow`) only where the journal cannot say what changed.
* **The snapshot** (:mod:`nowline._io.snapshot`): the registry as a process had it, with the
  mark it was caught up under. It is used at start-up only while the store's mark equals that
  one; then the process reads no listing, and its registry reads from the snapshot only what
  its texts can trip until it needs every correction (:meth:`Registry.defer`).
* **The resync**: a listing at a slow interval (:data:`RESYNC_SECONDS`, stretched so listings
  take at most :data:`RESYNC_SHARE` of a process's time; from the process's start where it
  started from a snapshot), for writes made around nowline,
  which change no mark. A correction such a write adds is also taken in when a read returns
  it (:func:`observe`), and ``repair()`` marks it and changes the mark.

The states of a process (:class:`Freshness`): *unknown* (nothing caught up yet, or a catch-up
that overlapped a write in this process: the next operation catches up), *caught up* under a
mark (``mark``), and *settling* (caught up under a *writing* mark, whose write may not have
landed: it catches up once more at the next read of the mark, then settles). One registry and
one freshness serve every wrapper of a collection in a process (:func:`shared`).
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from chromadb.api.types import Where

from .._rules import records as R
from .._rules.records import CorrectionInfo, Record, correction_info
from .._rules.registry import Registry
from ..errors import SnapshotDamaged
from . import journal as J
from .mark import DONE, WRITING, new_mark, state_of, token_of
from .ops import (
    Background,
    DropEntries,
    Flow,
    Get,
    ReadJournal,
    ReadMark,
    Work,
    WriteEntry,
    WriteMark,
)
from .reads import read_all, read_by_ids, records_of

__all__ = [
    "MARKED",
    "RESYNC_ENV",
    "RESYNC_SECONDS",
    "RESYNC_SHARE",
    "SCAN_PAGE",
    "Freshness",
    "Shared",
    "catch_up_flow",
    "compact_flow",
    "list_flow",
    "load_flow",
    "marked_flow",
    "marking_flow",
    "observe",
    "refresh_flow",
    "retry_delays",
    "shared",
]

RESYNC_SECONDS = 60.0
"""Seconds between the listings that find writes made around nowline (at the least); the
environment variable ``NOWLINE_RESYNC_SECONDS`` sets another."""

RESYNC_ENV = "NOWLINE_RESYNC_SECONDS"

SCAN_PAGE = 20_000
"""Records whose metadata one resync reads for unmarked corrections (:func:`list_flow`)."""

RESYNC_SHARE = 0.1
"""The largest share of a process's time that resync listings may take (stretches the interval)."""

MARKED: Where = cast(Where, {R.CORRECTION: True})
"""The filter that lists the store's corrections (nowline marks every correction it writes)."""


def resync_seconds() -> float:
    """Return the resync interval's floor: ``NOWLINE_RESYNC_SECONDS``, else the default."""
    import os

    try:
        value = float(os.environ.get(RESYNC_ENV, RESYNC_SECONDS))
    except ValueError:
        return RESYNC_SECONDS
    return value if 0 <= value < float("inf") else RESYNC_SECONDS


def retry_delays(first: float = 0.5, longest: float = 30.0) -> Iterator[float]:
    """Yield the waits between tries of a store that cannot be reached: doubling, capped."""
    delay = first
    while True:
        yield delay
        delay = min(delay * 2, longest)


@dataclass
class Freshness:
    """What one process knows of a collection's mark, and when it last looked."""

    refresh_seconds: float
    mark: str | None = None  # the store's mark the registry is caught up under
    known: bool = False  # caught up at least once, and not overlapped since
    settled: bool = True  # False: caught up once under a writing mark; once more is due
    read_at: float = -float("inf")  # time.monotonic() the mark was last read
    listed_at: float = -float("inf")  # time.monotonic() the last listing began
    listed_wall: float = 0.0  # time.time() the last listing began (saved with the snapshot)
    listing_cost: float = 0.0  # seconds the last listing took
    snapshot_listing_cost: float = 0.0  # what a listing took the writer of the snapshot read
    listings: int = 0  # listings this process made (a count for tests and benchmarks)
    scan_offset: int = 0  # where the resync's next window of records for unmarked ones starts
    applied: J.Applied | None = None  # the journal entries the registry reflects (None: unknown)
    journal_reads: int = 0  # catch-ups that read only the changed corrections (journal)
    catch_up_cost: float = 0.0  # seconds the last catch-up by the journal took
    snapshot: str | None = None  # where this process saves what it knows (None: nowhere)
    saved: str | None = None  # the mark the last snapshot this process saved was taken under

    def resync_interval(self) -> float:
        """Return the seconds between resync listings (for writes made around nowline)."""
        return max(resync_seconds(), self.listing_cost / RESYNC_SHARE)

    def listing_estimate(self) -> float:
        """Return the seconds a listing of the store takes, as known to this process.

        Its own last listing; before it has listed, what a listing took the writer of the
        snapshot it started from.
        """
        return self.listing_cost if self.listings else self.snapshot_listing_cost

    def bounds(self) -> tuple[float, float]:
        """Return the seconds within which changes made elsewhere are seen, as measured.

        The first is for changes made through nowline (``refresh_seconds`` plus a listing: a
        catch-up by the journal reads less, but a bulk write or a repair lists), the second for
        writes made around nowline (the resync interval plus a listing).
        """
        cost = self.listing_estimate()
        return (self.refresh_seconds + cost, self.resync_interval() + cost)

    def due(self, mark: str | None, now: float) -> bool:
        """Return whether a process that has just read ``mark`` must catch up."""
        return (
            not self.known
            or mark != self.mark
            or not self.settled
            or now - self.listed_at >= self.resync_interval()
        )


@dataclass
class Shared:
    """What every wrapper of one collection in a process shares: its registry and freshness."""

    registry: Registry
    fresh: Freshness
    loaded: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


_shared: weakref.WeakValueDictionary[tuple[object, ...], Shared] = weakref.WeakValueDictionary()
_shared_lock = threading.Lock()


def shared(key: tuple[object, ...], refresh_seconds: float) -> Shared:
    """Return the registry and freshness of a collection in this process (one per collection).

    ``key`` names the store, the collection and what changes how corrections are read (the
    legacy scope key, ``text_key``). The wrapper with the smallest ``refresh_seconds`` sets
    how often the mark is read.
    """
    with _shared_lock:
        found = _shared.get(key)
        if found is None:
            found = Shared(Registry(), Freshness(refresh_seconds=refresh_seconds))
            _shared[key] = found
        found.fresh.refresh_seconds = min(found.fresh.refresh_seconds, refresh_seconds)
        return found


def refresh_flow(
    fresh: Freshness,
    registry: Registry,
    legacy_key: str | None,
    *,
    force: bool = False,
    text_key: str | None = None,
    now_: bool = False,
) -> Flow[bool]:
    """Read the mark if ``refresh_seconds`` has passed, and catch up if it must.

    ``force`` reads the mark and lists the corrections whatever they say (``corrections()``,
    a watcher's first read). ``now_`` reads the mark whatever the interval, and catches up
    as a due refresh would (by the journal where it can): before an answer that rests on
    one correction being current. Returns whether the registry changed.
    """
    now = time.monotonic()
    if registry.lost:  # its snapshot failed (SnapshotDamaged): list the store
        fresh.known = False
    if (
        not force
        and not now_
        and fresh.known
        and now - fresh.read_at < fresh.refresh_seconds
        and now - fresh.listed_at < fresh.resync_interval()
    ):
        return False
    mark = yield ReadMark()
    fresh.read_at = now
    if not force and not fresh.due(mark, now):
        return False
    listing = force or now - fresh.listed_at >= fresh.resync_interval()
    return (yield from catch_up_flow(fresh, registry, legacy_key, mark, text_key, listing=listing))


def catch_up_flow(
    fresh: Freshness,
    registry: Registry,
    legacy_key: str | None,
    mark: str | None,
    text_key: str | None = None,
    *,
    listing: bool = True,
) -> Flow[bool]:
    """Take in what changed since the registry was caught up; ``mark`` was read just before.

    The journal is read first. Where it says which corrections changed (and ``listing`` is
    not asked for), only those are read, by id; otherwise every correction is listed
    (:func:`list_flow`). A catch-up that overlapped a change of the registry in this process
    (a write in another thread) is not taken in: the next operation catches up again.
    """
    journal = yield ReadJournal()
    wanted = None
    if not listing and fresh.known:
        wanted = J.to_read(fresh.applied, journal, token_of(mark))
    if wanted is None:
        return (
            yield from list_flow(
                fresh, registry, legacy_key, mark, journal, text_key, unmarked=listing
            )
        )
    started = time.monotonic()
    since = registry.version
    found = yield from _read_corrections(sorted(wanted), legacy_key, text_key)
    changed = registry.reconcile(found, since)
    fresh.journal_reads += 1
    fresh.catch_up_cost = time.monotonic() - started
    if changed is None:
        fresh.read_at = -float("inf")  # look again at the next operation
        return True
    _caught_up(fresh, mark, journal)
    yield from _save(fresh, registry)
    return changed


def _read_corrections(
    ids: Sequence[str], legacy_key: str | None, text_key: str | None
) -> Flow[dict[str, CorrectionInfo | None]]:
    """Read corrections by id: each as it is now (None: deleted, or no correction any more)."""
    if not ids:
        return {}
    rows = yield from read_by_ids(list(ids), text_key=text_key)
    return {
        cid: None if (row := rows.get(cid)) is None else correction_info(row, legacy_key)
        for cid in ids
    }


def _caught_up(fresh: Freshness, mark: str | None, journal: J.Journal | None) -> None:
    """Note that the registry is caught up under ``mark`` and has applied ``journal``."""
    fresh.settled = state_of(mark) != WRITING or (fresh.mark == mark and not fresh.settled)
    fresh.mark = mark
    fresh.known = True
    fresh.applied = J.applied_from(journal, mark)


def list_flow(
    fresh: Freshness,
    registry: Registry,
    legacy_key: str | None,
    mark: str | None,
    journal: J.Journal | None,
    text_key: str | None = None,
    *,
    unmarked: bool = False,
) -> Flow[bool]:
    """List every correction and take in what changed; ``mark`` and ``journal`` were read first.

    The listing reads the marked corrections' documents and metadata (an edit of a
    correction's text is a change like any other); a correction the registry holds that the
    listing lacks (deleted, or written around nowline and never marked) is read by id.

    ``unmarked`` (the resync): the metadata of :data:`SCAN_PAGE` records is read too, the
    next window of the store each time (from the start again after the last), for
    corrections a plain chromadb client added without nowline's mark (Chroma cannot filter
    on a key being present), and those are read by id. Such a correction is then held, and
    kept by every later listing (the held ones are read by id), until ``repair()`` marks it.
    The window moves on only when the listing is taken in. A window, not the store: reading
    every record's metadata at each resync cost a read 0.76 s at 40,000 records (0.03 s
    without), and would stall one read for seconds on a large store.
    """
    started, wall = time.monotonic(), time.time()
    since = registry.version
    rows = yield from read_all(where=MARKED, text_key=text_key)
    found: dict[str, CorrectionInfo | None] = dict((yield Work(_infos_by_id, (rows, legacy_key))))
    unlisted = [i for i in registry.held() if i not in found]
    window = fresh.scan_offset
    if unmarked:
        page = yield Get(limit=SCAN_PAGE, offset=fresh.scan_offset, include=("metadatas",))
        metas = records_of(page)
        window = 0 if len(metas) < SCAN_PAGE else fresh.scan_offset + SCAN_PAGE
        unlisted += [r.id for r in metas if r.id not in found and R.is_correction(r.metadata)]
        unlisted = list(dict.fromkeys(unlisted))
    found.update((yield from _read_corrections(unlisted, legacy_key, text_key)))
    changed = registry.reconcile(found, since)
    if changed is not None:
        registry.lost = False  # every correction was read from the store
        # the window moves on only once taken in: a write that overlapped the listing would
        # otherwise skip it, and a correction in it waited for the windows to wrap around
        fresh.scan_offset = window
    fresh.listings += 1
    fresh.listing_cost = time.monotonic() - started
    fresh.listed_at, fresh.listed_wall = started, wall
    if changed is None:
        fresh.known = False
        return True
    _caught_up(fresh, mark, journal)
    yield from _save(fresh, registry, listed=True)
    return changed


def _save(fresh: Freshness, registry: Registry, listed: bool = False) -> Flow[None]:
    """Save the registry as a snapshot in the background, where it is caught up.

    Only where :func:`nowline._io.snapshot.confirmable` says so, where this process may
    write snapshots (``NOWLINE_SNAPSHOT_WRITE``), and when the snapshot would say something
    new: a mark the last one this process saved did not have, or a newer listing (``listed``:
    a new process then knows the writes made around nowline that this listing found).
    """
    from . import snapshot as _snapshot

    if (
        fresh.snapshot is None
        or not _snapshot.confirmable(registry, fresh)
        or (fresh.saved == fresh.mark and not listed)
        or not _snapshot.writes()
    ):
        return
    fresh.saved = fresh.mark
    state = yield Work(_snapshot.state_of, (registry, fresh))
    _snapshot.save_meanwhile(fresh.snapshot, state)


def _infos_by_id(
    rows: Sequence[Record], legacy_key: str | None
) -> dict[str, CorrectionInfo | None]:
    """Return the correction each listed row is (None: marked, but no correction now)."""
    return {r.id: correction_info(r, legacy_key) for r in rows}


def observe(registry: Registry, legacy_key: str | None, rows: Iterable[Record], since: int) -> None:
    """Take in what a read shows of corrections: one the registry lacks or holds otherwise.

    A correction written around nowline (no mark changed) is seen as soon as a read returns
    it; a record the registry holds as a correction that no longer is one is dropped.
    ``since`` is the registry's version before the read: a read that overlapped a change of
    the registry is not taken in (it may be older than what the registry holds).
    """
    found: dict[str, CorrectionInfo | None] = {}
    for row in rows:
        meta = row.metadata
        held = registry.get(row.id)
        if held is None and (not meta or R.DEPRECATES not in meta):
            continue
        info = correction_info(row, legacy_key)
        if info is not None and row.document is None:
            if held is None:
                continue  # a row without its text cannot be taken in
            info = info._replace(document=held.document)
        if info != held:
            found[row.id] = info
    if found:
        registry.reconcile(found, since)


def marking_flow(fresh: Freshness, changed: Sequence[str] | None) -> Flow[tuple[bool, str]]:
    """Before the records of a write that changes corrections: its entry, then a writing mark.

    ``changed`` names the corrections the write changes (None: too many to name, a repair).
    Returns whether the registry was caught up with the store just before (the mark read
    first equals the one it holds), and the mark written.
    """
    before = yield ReadMark()
    token = J.new_id()
    writing = new_mark("writing", token)
    yield WriteEntry(J.write_entry(token, "writing", changed))
    yield WriteMark(writing)
    return (fresh.known and fresh.settled and before == fresh.mark), writing


def marked_flow(
    fresh: Freshness,
    token: tuple[bool, str],
    changed: Sequence[str] | None,
    registry: Registry | None = None,
) -> Flow[None]:
    """After the records of a write that changes corrections: its entry done, then a done mark.

    Where no other writer came between (the registry was caught up before, the writing mark
    is still the store's, and the journal holds no entry this process has not applied), this
    process's registry, which holds its own write, is caught up under the new mark. Otherwise
    its next operation catches up, by the journal where it can: its own entry is applied.
    """
    caught_up, writing = token
    entry = writing.rpartition(":")[2]
    current = yield ReadMark()
    yield WriteEntry(J.write_entry(entry, "done", changed))
    done = new_mark("done", entry)
    yield WriteMark(done)
    caught_up = caught_up and current == writing
    journal = None
    if fresh.applied is not None:
        fresh.applied = J.Applied(fresh.applied.companion, {**fresh.applied.states, entry: "done"})
        if caught_up:
            # Another writer's whole write may have fallen between this one's first read of
            # the mark and its writing mark: its entry says so.
            journal = yield ReadJournal()
            caught_up = J.to_read(fresh.applied, journal, entry) == set()
            if caught_up:
                fresh.applied = J.applied_from(journal, done)
    if caught_up:
        fresh.mark = done
        if registry is not None:
            yield from _save(fresh, registry)
    else:
        fresh.read_at = -float("inf")  # the next operation reads the mark and catches up
    if J.wants_compaction(entry):
        yield from compact_flow(journal)


def compact_flow(journal: J.Journal | None = None) -> Flow[None]:
    """Fold the journal's done entries into one, if it holds too many (no mark changes).

    ``journal`` is one this flow's caller has just read; otherwise it is read here.
    """
    if journal is None:
        journal = yield ReadJournal()
    plan = J.compaction(journal)
    if plan is not None:
        folded, parts = plan
        yield WriteEntry(folded)
        yield DropEntries(parts)


def load_flow(
    fresh: Freshness,
    registry: Registry,
    legacy_key: str | None,
    snapshot: str | None = None,
    text_key: str | None = None,
    *,
    save: bool = True,
) -> Flow[None]:
    """Load the collection's corrections into ``registry`` (when the first wrapper is made).

    The mark is read first. A snapshot taken under the same *done* mark is the registry, and
    no listing is read; otherwise every correction is listed, and (with ``save``) a snapshot is
    written under the mark read before the listing.
    """
    from . import snapshot as _snapshot

    now = time.monotonic()
    mark = yield ReadMark()
    fresh.read_at = now
    if snapshot is not None and state_of(mark) == DONE:
        index = yield Work(_snapshot.open_index, (snapshot,))
        if index is not None and index.mark != mark:
            index.close()
        elif index is not None and _deferred(registry, index):
            # The registry reads from the snapshot only what the texts it scans can trip,
            # and the whole of it when first asked for everything (Registry.defer).
            fresh.mark, fresh.known, fresh.settled = mark, True, True
            fresh.applied = index.applied
            # The snapshot stands for a listing: this process lists again (the resync) a
            # resync interval after it starts, as one that listed now would; until then a
            # write made around nowline since the snapshot's listing is seen when a read
            # returns it (or after repair()).
            fresh.listed_wall = index.listed
            fresh.listed_at = now
            # What a listing of this store cost the process that listed it: this process's
            # bounds count it until it lists itself.
            fresh.snapshot_listing_cost = index.listing_cost
            fresh.snapshot, fresh.saved = (snapshot if save else None), mark
            return
    journal = yield ReadJournal()
    started, wall = time.monotonic(), time.time()
    records = yield from read_all(where=MARKED, text_key=text_key)
    infos = yield Work(R.correction_infos, (records, legacy_key))
    registry.replace_all(infos)
    yield from _build_meanwhile(registry)
    fresh.listings += 1
    fresh.listed_at, fresh.listed_wall = started, wall
    fresh.listing_cost = time.monotonic() - started
    fresh.mark, fresh.known = mark, True
    fresh.settled = state_of(mark) != WRITING
    fresh.applied = J.applied_from(journal, mark)
    fresh.snapshot = snapshot if save else None
    yield from _save(fresh, registry)


def _deferred(registry: Registry, index: Any) -> bool:
    """Defer ``registry`` to a snapshot's index; False if the index fails at once (then list)."""
    try:
        registry.defer(index)
    except SnapshotDamaged:
        return False
    return True


def _build_meanwhile(registry: Registry) -> Flow[None]:
    """Build the registry's automata in the background while the next read reads Chroma."""
    job = registry.build_job()
    if job is not None:
        yield Background(job)
