"""Registry freshness: what a process knows of the corrections, and when it reads them again.

Corrections change through this wrapper, through other wrappers of this process, through other
processes (over a Chroma server), and around nowline altogether (the raw collection, a plain
chromadb client). The protocol has two parts, and neither trusts a clock, a stamp or a cache:

* **Verify on use.** Every correction that an operation shows (beneath a hit, in a trip, in a
  chain) or stores a link to is read back by id in that operation, and taken in if it changed
  (:func:`verify_flow`). So a deletion, retraction or edit of a correction is never shown, and
  never linked, as it was: whatever the registry holds, the output is the store's.
* **Listing.** Which corrections exist is learnt by listing the store's corrections (records
  whose metadata has ``nowline_correction: True``; nowline marks every correction it writes,
  and ``repair()`` marks those written around it): their ids at a *membership* refresh, which
  finds additions and deletions, and their metadata at a *full* refresh, which finds every
  other change. Each runs when a read needs it and its interval has passed: the wrapper's
  ``refresh_seconds``, stretched so that listings take at most :data:`LISTING_SHARE` of a
  reading process's time (a store with 100k corrections lists them in seconds), and never
  longer than :data:`MAX_INTERVAL`. Wrappers of one collection in this process tell each
  other which corrections they changed, so those are read at the next call.

A correction written around nowline and never marked is found when a read returns it, and by
``repair()``, which marks it. The bounds are stated in the README ("Freshness") and held by
``tests/reliability/``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from chromadb.api.types import Where

from .._rules import records as R
from .._rules.records import CorrectionInfo, Record, correction_info
from .._rules.registry import Registry
from .ops import Background, Flow, Work
from .reads import read_all, read_by_ids, read_ids

__all__ = [
    "LISTING_SHARE",
    "MAX_INTERVAL",
    "Freshness",
    "list_flow",
    "load_flow",
    "refresh_flow",
    "verify_flow",
]

LISTING_SHARE = 0.1
"""The largest share of a reading process's time that listings of corrections may take."""

MAX_INTERVAL = 60.0
"""Seconds: the longest a listing waits, however long it takes (the bounds' ceiling)."""

TRIES = 5
"""Reads of the same records before a refresh gives up on a registry that keeps changing."""

_LOG = 1000
"""Changes per collection this process remembers for its other wrappers."""

MARKED: Where = cast(Where, {R.CORRECTION: True})
"""The filter that lists the store's corrections."""


class _Log:
    """What the wrappers of one collection in this process changed, in order."""

    def __init__(self) -> None:
        self.generation = 0
        self.entries: list[tuple[int, tuple[str, ...]]] = []


_logs: dict[tuple[object, str], _Log] = {}
_logs_lock = threading.Lock()


@dataclass
class Freshness:
    """One wrapper's knowledge of when it last listed the store's corrections."""

    key: tuple[object, str]
    refresh_seconds: float
    last_members: float = -float("inf")  # time.monotonic() a membership listing last began
    last_full: float = -float("inf")  # time.monotonic() a full listing last began
    members_cost: float = 0.0  # seconds the last membership listing took
    full_cost: float = 0.0  # seconds the last full listing took
    seen: int = 0  # the generation of this process's change log taken in
    _log: _Log = field(init=False, repr=False)

    def __post_init__(self) -> None:
        """Join the change log of this collection in this process."""
        with _logs_lock:
            self._log = _logs.setdefault(self.key, _Log())
            self.seen = self._log.generation

    def interval(self, cost: float) -> float:
        """Return how long a listing that took ``cost`` seconds waits before the next.

        ``refresh_seconds=0`` lists at every read, whatever it costs (the caller's choice).
        """
        if self.refresh_seconds == 0:
            return 0.0
        return min(max(self.refresh_seconds, cost / LISTING_SHARE), MAX_INTERVAL)

    def changed_here(self, ids: Iterable[str]) -> None:
        """Record that this wrapper changed these corrections (other wrappers will read them)."""
        changed = tuple(ids)
        if not changed:
            return
        with _logs_lock:
            log = self._log
            caught_up = self.seen == log.generation
            log.generation += 1
            log.entries.append((log.generation, changed))
            del log.entries[:-_LOG]
            if caught_up:
                self.seen = log.generation  # this wrapper's registry already holds them

    def changed_elsewhere(self) -> tuple[int, list[str] | None]:
        """Return the log's generation and the ids other wrappers changed since this one looked.

        None instead of ids: more changes than the log keeps (the caller lists everything).
        """
        with _logs_lock:
            log = self._log
            if self.seen == log.generation:
                return self.seen, []
            newer = [ids for gen, ids in log.entries if gen > self.seen]
            if len(newer) < log.generation - self.seen:
                return log.generation, None
            return log.generation, [i for ids in newer for i in ids]

    def bounds(self) -> tuple[float, float]:
        """Return the seconds within which additions and deletions, and other edits, are seen.

        Measured from the moment a change is visible in Chroma, for a wrapper that keeps
        reading: a listing's interval plus the time it takes.
        """
        members = self.interval(self.members_cost) + self.members_cost
        full = self.interval(self.full_cost) + self.full_cost
        return min(members, full), full


def _take_in(
    registry: Registry,
    legacy_key: str | None,
    read: Callable[[], Flow[tuple[Iterable[Record], Iterable[str]]]],
) -> Flow[bool | None]:
    """Run a read of corrections and take in what it shows, consistently with writes.

    ``read`` returns the records it found and the ids it found to be no correction now. A
    read that overlapped a change of the registry (a write in another thread or task) may be
    older than what the registry holds; it is read again (see :meth:`Registry.reconcile`).
    Returns whether the registry changed, or None when it kept changing for :data:`TRIES`
    reads (the caller leaves the refresh due).
    """
    for _ in range(TRIES):
        since = registry.version
        records, missing = yield from read()
        found: dict[str, CorrectionInfo | None] = dict.fromkeys(missing)
        found.update((r.id, correction_info(r, legacy_key)) for r in records)
        changed = registry.reconcile(found, since)
        if changed is not None:
            return changed
    return None


def _by_ids(
    ids: Sequence[str], text_key: str | None
) -> Flow[tuple[Iterable[Record], Iterable[str]]]:
    """Read records by id; return those found and the ids not found."""
    found = yield from read_by_ids(ids, text_key=text_key)
    return found.values(), [i for i in ids if i not in found]


def verify_flow(
    registry: Registry, legacy_key: str | None, ids: Iterable[str], text_key: str | None = None
) -> Flow[bool]:
    """Read the corrections an operation is about to show or link by id; fix the registry.

    A correction deleted, edited or retracted anywhere since this process last looked is
    dropped or updated before it is used. Returns whether the registry changed (the caller
    recomputes what it shows).
    """
    wanted = sorted(set(ids))
    if not wanted:
        return False
    return bool((yield from _take_in(registry, legacy_key, lambda: _by_ids(wanted, text_key))))


def _same(held: CorrectionInfo, row: Record, legacy_key: str | None) -> bool:
    """Return whether a listed row's metadata shows the correction as the registry holds it.

    A row listed without its text (the document was not read) is compared with the held text.
    """
    text = row.document if row.document is not None else held.document
    return correction_info(Record(row.id, text, row.metadata), legacy_key) == held


def list_flow(
    fresh: Freshness,
    registry: Registry,
    legacy_key: str | None,
    full: bool,
    text_key: str | None = None,
) -> Flow[bool]:
    """List the store's corrections and take in what changed; return whether anything did.

    A membership listing reads ids only: listed ids the registry lacks are read in full,
    held ones no longer listed are read by id (deleted, or no correction now). A full listing
    reads metadata too, and re-reads every row whose metadata shows something the registry
    does not hold. Corrections the registry found in reads (written around nowline, never
    marked) are not listed; they are kept, and verified whenever they are used.
    """
    started = time.monotonic()

    def listing() -> Flow[tuple[Iterable[Record], Iterable[str]]]:
        held = registry.held()
        if full:
            rows = yield from read_all(where=MARKED, include=("metadatas",), text_key=text_key)
            listed: dict[str, Record | None] = {r.id: r for r in rows}
            stale = [
                i
                for i, row in listed.items()
                if i not in held or not _same(held[i], cast(Record, row), legacy_key)
            ]
        else:
            listed = dict.fromkeys((yield from read_ids(MARKED)))
            stale = [i for i in listed if i not in held]
        gone = [i for i, info in held.items() if i not in listed and info.marked]
        return (yield from _by_ids(sorted(set(stale) | set(gone)), text_key))

    taken = yield from _take_in(registry, legacy_key, listing)
    cost = time.monotonic() - started
    if taken is None:
        return True
    fresh.last_members = started
    fresh.members_cost = cost if not full else fresh.members_cost
    if full:
        fresh.last_full = started
        fresh.full_cost = cost
    return bool(taken)


def refresh_flow(
    fresh: Freshness,
    registry: Registry,
    legacy_key: str | None,
    *,
    force: bool = False,
    text_key: str | None = None,
) -> Flow[bool]:
    """Catch up with changes made elsewhere, as far as the listings' intervals ask.

    First the corrections other wrappers of this process changed (read by id); then a full
    listing if its interval has passed (or ``force``), else a membership listing if its
    interval has passed. Returns whether the registry changed.
    """
    generation, ids = fresh.changed_elsewhere()
    changed = False
    if ids:
        changed = yield from verify_flow(registry, legacy_key, ids, text_key)
    now = time.monotonic()
    if force or ids is None or now - fresh.last_full >= fresh.interval(fresh.full_cost):
        changed |= yield from list_flow(fresh, registry, legacy_key, True, text_key)
    elif now - fresh.last_members >= fresh.interval(fresh.members_cost):
        changed |= yield from list_flow(fresh, registry, legacy_key, False, text_key)
    fresh.seen = max(fresh.seen, generation)
    return changed


def load_flow(
    fresh: Freshness,
    registry: Registry,
    legacy_key: str | None,
    snapshot: str | None = None,
    text_key: str | None = None,
) -> Flow[None]:
    """Load the collection's corrections into ``registry`` (at wrap time).

    With a usable snapshot (:mod:`nowline._snapshot`), its corrections are a head start: the
    store's ids are listed, a snapshot correction the store no longer lists is dropped, and
    every listed correction the snapshot lacks or holds as retracted is read (a snapshot is
    never the authority on what is retracted or deleted). Whatever else changed since it was
    written is found by the first full listing, which is due within the same bound as in a
    process that had been running. Without a snapshot every correction is read.
    """
    from . import snapshot as _snapshot

    if snapshot is not None:
        saved = yield Work(_snapshot.read, (snapshot,))
        if saved is not None:
            started = time.monotonic()
            registry.replace_all(saved.infos)
            yield from _build_meanwhile(registry)
            listed = set((yield from read_ids(MARKED)))
            held = registry.held()
            wanted = [i for i in listed if i not in held or held[i].retracted is not None]
            wanted += [i for i in held if i not in listed]
            taken = yield from _take_in(
                registry, legacy_key, lambda: _by_ids(sorted(wanted), text_key)
            )
            if taken is not None:
                fresh.last_members = fresh.last_full = started
                fresh.members_cost = time.monotonic() - started
                # The first full listing is due as it would be in a process that had been
                # listing all along (the snapshot's writer measured what one costs).
                fresh.full_cost = saved.full_cost
                return
    started = time.monotonic()
    records = yield from read_all(where=MARKED, text_key=text_key)
    infos = yield Work(R.correction_infos, (records, legacy_key))
    registry.replace_all(infos)
    yield from _build_meanwhile(registry)
    fresh.last_members = fresh.last_full = started
    fresh.full_cost = time.monotonic() - started
    if snapshot is not None:
        yield Work(_snapshot.write, (snapshot, _snapshot.state_of(registry, fresh)))


def _build_meanwhile(registry: Registry) -> Flow[None]:
    """Build the registry's automata in the background while the next read reads Chroma."""
    job = registry.build_job()
    if job is not None:
        yield Background(job)
