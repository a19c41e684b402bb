"""The change journal: which corrections each nowline write changed, so a catch-up reads only them.

The generation mark (:mod:`nowline._io.mark`) tells a process *that* something changed; the
journal tells it *what*, so that a catch-up reads the changed corrections by id instead of
listing every correction (26 s at 100k corrections over a server). It lives beside the mark, as
records of the companion collection: one *entry* per write.

* A write upserts its entry (its own id, the token of its writing mark, so no read-merge-write)
  in state *writing*, listing the ids of the corrections it changes, before its writing mark;
  after its records it sets the entry *done*, then writes its done mark. A write of more than
  :data:`LIMIT` corrections, and ``repair()``, write a *reset* entry (no ids: "list
  everything").
* A process that catches up reads the journal after the mark. It reads by id the corrections
  of every entry it has not applied, and of every entry it applied while it was *writing* (whose
  records may have landed after its read; the done mark that follows them changes the mark, so
  the process looks again). It lists everything instead where it cannot tell what changed: a
  reset it has not applied, a journal that is not nowline's, another companion (deleted and
  made again), or an entry it applied that is gone and not folded into a present one (a store
  restored from a backup, or entries deleted around nowline).
* The journal is compacted without clocks: now and then a writer folds the done entries into
  one (the union of their ids, or a reset beyond :data:`LIMIT`), which names the entries it
  folded (``parts``) and every entry those had folded (``covers``, up to :data:`LIMIT`), and
  then deletes them. A process that had applied every part takes the folded entry as
  applied; one that had not reads its ids. An applied entry that is gone must be covered by
  a present one.

A process keeps what it applied (:class:`Applied`: the companion's id, and each entry with
the state it was applied in) with its registry, and in its snapshot.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from .._rules import records as R

__all__ = [
    "COMPACT_EVERY",
    "KEEP",
    "LIMIT",
    "NO_COMPANION",
    "Applied",
    "Entry",
    "Journal",
    "applied_from",
    "compaction",
    "entry_meta",
    "new_id",
    "parse",
    "parse_applied",
    "saved_applied",
    "to_read",
    "wants_compaction",
    "write_entry",
    "writing",
]

LIMIT = 1000
"""The most correction ids one entry lists; a larger write (or fold) is a reset."""

KEEP = 32
"""The done entries a journal holds before a writer folds them into one."""

COMPACT_EVERY = 8
"""About one write in this many looks whether the journal needs folding (chosen by its token)."""

State = Literal["writing", "done"]
_STATES: Final = ("writing", "done")

_STATE = R.ENTRY_STATE
_IDS = R.ENTRY_IDS
_PARTS = R.ENTRY_PARTS
_COVERS = R.ENTRY_COVERS


@dataclass(frozen=True)
class Entry:
    """One write's record in the journal."""

    id: str
    state: State
    ids: frozenset[str] | None  # None: a reset (the write changed too much to list)
    parts: frozenset[str] = frozenset()  # the entries this one folded (empty: a write's own)
    covers: frozenset[str] = frozenset()  # those, and what they covered (at most LIMIT)


@dataclass(frozen=True)
class Journal:
    """The journal as one read found it: its companion's id and its entries by id."""

    companion: str
    entries: Mapping[str, Entry]


@dataclass(frozen=True)
class Applied:
    """What a process has applied of a journal: the companion's id, each entry's state then."""

    companion: str
    states: Mapping[str, State]


def new_id() -> str:
    """Return a fresh entry id (128 bits)."""
    return secrets.token_hex(16)


def entry_meta(entry: Entry) -> dict[str, Any]:
    """Return the companion record's metadata that stores ``entry``."""
    meta: dict[str, Any] = {_STATE: entry.state}
    if entry.ids is not None:
        meta[_IDS] = json.dumps(sorted(entry.ids))
    if entry.parts:
        meta[_PARTS] = json.dumps(sorted(entry.parts))
    if entry.covers - entry.parts:
        meta[_COVERS] = json.dumps(sorted(entry.covers - entry.parts))
    return meta


def _id_list(value: Any) -> frozenset[str] | None:
    """Return a JSON list of ids as a set, or None when it is not one."""
    if not isinstance(value, str):
        return None
    try:
        got = json.loads(value)
    except ValueError:
        return None
    if not isinstance(got, list) or not all(isinstance(i, str) for i in got):
        return None
    return frozenset(got)


def parse(companion: str, ids: Sequence[Any], metadatas: Sequence[Any] | None) -> Journal | None:
    """Return the journal a read of the companion's records found, or None if not nowline's.

    Records without an entry's state key are not entries, and are passed over; an entry
    whose values are not of nowline's form makes the whole journal unknown (then every
    catch-up lists).
    """
    entries: dict[str, Entry] = {}
    for rid, meta in zip(ids, metadatas or [None] * len(ids), strict=True):
        if not isinstance(rid, str):
            return None
        if not isinstance(meta, Mapping) or _STATE not in meta:
            continue  # not an entry (a plain client's record): it says nothing of changes
        state = meta.get(_STATE)
        if state not in _STATES:
            return None
        listed = _id_list(meta[_IDS]) if _IDS in meta else None
        if _IDS in meta and listed is None:
            return None
        parts = _id_list(meta[_PARTS]) if _PARTS in meta else frozenset()
        inherited = _id_list(meta[_COVERS]) if _COVERS in meta else frozenset()
        if parts is None or inherited is None:
            return None
        entries[rid] = Entry(rid, state, listed, parts, parts | inherited)
    return Journal(companion, entries)


NO_COMPANION = ""
"""The companion id of a journal read where no companion existed yet (no write ever marked)."""


def applied_from(journal: Journal | None, mark: str | None) -> Applied | None:
    """Return what a process has applied once it has read every entry of ``journal``.

    A store with no companion at all (no journal, and no ``mark``) has nothing to apply: a
    companion made later is taken as this one.
    """
    if journal is None:
        return Applied(NO_COMPANION, {}) if mark is None else None
    return Applied(journal.companion, {e.id: e.state for e in journal.entries.values()})


def saved_applied(applied: Applied | None) -> dict[str, Any] | None:
    """Return ``applied`` as JSON-ready data (kept in a snapshot)."""
    if applied is None:
        return None
    return {"companion": applied.companion, "states": dict(applied.states)}


def parse_applied(value: Any) -> Applied | None:
    """Return what a snapshot says its process had applied, or None (unknown, or not valid)."""
    if not isinstance(value, dict):
        return None
    companion, states = value.get("companion"), value.get("states")
    if not isinstance(companion, str) or not isinstance(states, dict):
        return None
    if not all(isinstance(k, str) and v in _STATES for k, v in states.items()):
        return None
    return Applied(companion, dict(states))


def to_read(applied: Applied | None, journal: Journal | None, token: str | None) -> set[str] | None:
    """Return the corrections to read by id to catch up, or None: list everything.

    ``applied`` is what the process applied before; ``journal`` was read after the mark,
    whose ``token`` names the entry of the write that set it. A mark that names no entry was
    set by a writer that keeps no journal (an older nowline): then everything is listed.
    """
    if applied is None or journal is None:
        return None
    if applied.companion not in (NO_COMPANION, journal.companion):
        return None
    entries = journal.entries
    folded = {p for e in entries.values() for p in e.covers}
    if token is None or (token not in entries and token not in folded):
        return None
    for eid, state in applied.states.items():
        if eid not in entries and (state != "done" or eid not in folded):
            return None  # gone without being folded: restored, or deleted around nowline
    wanted: set[str] = set()
    for entry in entries.values():
        had = applied.states.get(entry.id)
        if had == "done" and entry.state == "done":
            continue
        if (
            had is None
            and entry.parts
            and all(applied.states.get(p) == "done" for p in entry.parts)
        ):
            continue  # a fold of entries this process applied, done
        if entry.ids is None:
            return None
        wanted |= entry.ids
    return wanted


def writing(journal: Journal | None) -> list[str]:
    """Return the entries still *writing* (a writer that died mid-write leaves one for good).

    ``repair()`` deletes them after its reset, which makes every process list anyway; a
    writer that was only slow sets its entry done again (the upsert makes it anew).
    """
    if journal is None:
        return []
    return sorted(e.id for e in journal.entries.values() if e.state == "writing")


def wants_compaction(token: str) -> bool:
    """Return whether the write with this token looks whether the journal needs folding."""
    try:
        return int(token[-4:], 16) % COMPACT_EVERY == 0
    except ValueError:
        return False


def compaction(journal: Journal | None) -> tuple[Entry, list[str]] | None:
    """Return the entry that folds a journal's done entries and the ids to delete, if due."""
    if journal is None:
        return None
    done = [e for e in journal.entries.values() if e.state == "done"]
    if len(done) <= KEEP:
        return None
    ids: set[str] | None = set()
    for entry in done:
        if entry.ids is None or ids is None:
            ids = None
        else:
            ids |= entry.ids
    if ids is not None and len(ids) > LIMIT:
        ids = None
    parts = frozenset(e.id for e in done)
    covers = parts.union(*(e.covers for e in done))
    if len(covers) > LIMIT:
        covers = parts
    folded = Entry(new_id(), "done", None if ids is None else frozenset(ids), parts, covers)
    return folded, sorted(parts)


def write_entry(token: str, state: State, ids: Iterable[str] | None) -> Entry:
    """Return the entry a write with this token stores (a reset beyond :data:`LIMIT` ids)."""
    listed = None if ids is None else frozenset(ids)
    if listed is not None and len(listed) > LIMIT:
        listed = None
    return Entry(token, state, listed)
