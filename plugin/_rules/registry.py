"""The correction registry: every correction of a collection, its automaton, and its chains.

The registry is nowline's in-memory view of the corrections stored in one collection. One
automaton (:class:`nowline.matchers.Matcher`) holds every active deprecated string, a second
one every anchor (``about``) string. For a record's text the registry says which active
corrections supersede it directly, and it resolves each correction to the newest correction of
its chain. Everything it holds is rebuilt from Chroma metadata; it is a cache, never the source
of truth.

Thread safety: every method takes the registry's lock, so readers in several threads and a
writer may share one registry (a scan of a 10 kB text holds it for about 0.1 ms).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import re
import threading
import weakref
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from typing import NoReturn, Protocol

from ..errors import SnapshotDamaged
from ..matchers import Match, Matcher, fold
from .records import (
    CorrectionInfo,
    CorrectionScope,
    Order,
    Scoped,
    bare_path,
    held_keys,
    match_form,
    same_value,
    spelled_here,
    value_keys,
)

__all__ = [
    "Lookup",
    "PlannedRegistry",
    "Registry",
    "Source",
    "closure",
    "index_keys",
    "narrowed",
]

logger = logging.getLogger("nowline")

# Resolution of a chain stops after visiting this many corrections (hand-written cycles).
_MAX_CHAIN = 10_000


Revived = Callable[[CorrectionInfo, str, "float | None"], bool]
"""Whether a correction's deprecated string is revived (at a time): a newer one made it new."""


@functools.lru_cache(maxsize=65536)
def _key(value: str) -> str:
    """Return the key a value is compared by: folded (case- and width-insensitive)."""
    return fold(value)


def _held_keys(info: CorrectionInfo) -> set[str]:
    """Return the keys a correction's new values are filed under (:func:`held_keys`).

    ``github.com/ufo-ai/ufo`` is filed so that looking up ``ufo-ai/ufo`` by its
    :func:`value_keys` finds it (deprecating it is refused, and ``acme/app`` revives after a
    change back to ``github.com/acme/app``), while ``gitlab.com/ufo-ai/ufo`` does not. Every
    index of new values files them so: the registry's, the snapshot's (:func:`index_keys`) and
    a planned write's (:class:`PlannedRegistry`).
    """
    return {key for value in info.replaced_by for key in held_keys(value)}


def _named_keys(info: CorrectionInfo) -> set[str]:
    """Return the keys of a correction's deprecated strings, as written."""
    return {_key(value) for value in info.deprecates}


def _spelling_keys(info: CorrectionInfo) -> set[str]:
    """Return the keys a correction's deprecated strings are looked up by (:func:`value_keys`).

    The index of these is asked with a new value's :func:`held_keys`: which corrections
    deprecate that value, in any spelling.
    """
    return {key for value in info.deprecates for key in value_keys(value)}


def _filed_under(index: Mapping[str, Iterable[str]], keys: Iterable[str]) -> set[str]:
    """Return the ids an index files under any of ``keys`` (a new set: the index may change)."""
    return {cid for key in keys for cid in index.get(key, ())}


def _direct(
    text: str,
    deprecated: Matcher[str],
    anchors: Matcher[str],
    info_of: Callable[[str], CorrectionInfo | None],
    *,
    record_id: str,
    scope: Scoped,
    order: Order | None,
    as_of: float | None,
    revived: Revived | None = None,
) -> dict[str, list[Match[str]]]:
    """Return, per active correction that supersedes the record, where its strings occur.

    This is the linking rule itself: a correction's deprecated string occurs in the text, its
    anchor (if it has one) occurs too, the correction may supersede the record (another record,
    same scope, not a newer correction), it is not after ``as_of``, the string is not revived
    (a newer correction of its scope holds it as a new value again: a rename back), and the
    record is not a memory that records the change itself (:func:`_records_change`, read
    around the correction's first occurrences, :func:`_around`; once one occurrence
    supersedes, the others are listed as they are).
    """
    found: dict[str, list[Match[str]]] = {}
    known: dict[str, CorrectionInfo] = {}
    rejected: set[str] = set()
    read: dict[str, int] = {}
    anchored: set[str] | None = None
    for match in deprecated.find(text):
        cid = match.key
        if cid in rejected:
            continue
        info = known.get(cid)
        if info is None:
            info = info_of(cid)
            if info is None or info.retracted is not None:
                rejected.add(cid)
                continue
            if (as_of is not None and info.time > as_of) or not info.may_supersede(
                record_id, scope, order
            ):
                rejected.add(cid)
                continue
            if info.about:
                if anchored is None:
                    anchored = anchors.keys(text)
                if cid not in anchored:
                    rejected.add(cid)
                    continue
            known[cid] = info
        form = match.phrase
        kept = None
        for phrase, bare in spelled_here(
            info.deprecates, info.replaced_by, form, text, match.start
        ):
            if revived is not None and (
                revived(info, phrase, as_of) or (bare and revived(info, form, as_of))
            ):
                continue  # a change back made it current again (a bare path: on any host)
            if order is None and cid not in found and read.get(cid, 0) < _RECORDS_READS:
                read[cid] = read.get(cid, 0) + 1
                around = _around(text, match)
                news = info.replaced_by
                if _records_change(around, phrase, news) or (
                    form != phrase
                    and _records_change(around, form, tuple(match_form(v) for v in news))
                ):
                    continue  # it records the change, in the spelling written or bare
            kept = phrase
            break
        if kept is None:
            continue  # under another host, inside a longer path, revived, or the change itself
        found.setdefault(cid, []).append(
            match if kept == form else Match(kept, cid, match.start, match.end)
        )
    return found


_AROUND = 600
"""How many characters on each side of an occurrence a statement of the change is read in."""

_RECORDS_READS = 8
"""The most occurrences of one correction read for a statement of its change, per text."""


def _around(text: str, match: Match[str]) -> str:
    """Return the part of ``text`` around ``match`` that could state the change.

    All of it when short, else :data:`_AROUND` characters each side, cut at whitespace. A
    memory that records a change says so beside the old value ("#payments-updates is
    archived; post in #team-payments"). Reading the whole of a long text cost the hook about
    7 µs a character (seconds for a CSV file it was asked to let through) once the text
    named the old value.
    """
    if len(text) <= 2 * _AROUND + (match.end - match.start):
        return text
    start = max(0, match.start - _AROUND)
    end = min(len(text), match.end + _AROUND)
    if start > 0:
        cut = text.find(" ", start, match.start)
        start = cut + 1 if cut >= 0 else start
    if end < len(text):
        cut = text.rfind(" ", match.end, end)
        end = cut if cut >= 0 else end
    return text[start:end]


@functools.lru_cache(maxsize=4096)
def _records_change(text: str, phrase: str, news: tuple[str, ...]) -> bool:
    """Return whether a memory plainly records the change itself (the correction's ``news``).

    Such a memory ("new payments channel is #team-payments; #payments-updates is archived")
    states what the correction states; the correction does not make it stale (the rule:
    :func:`nowline._rules.wording.records_change`). Marked, it showed
    as ``[outdated]`` with a ``now:`` line saying what it says itself, and a small model then
    posted to the archived channel (the fourth blind act set: the model remembered the user's
    words before it corrected). Only memories: a correction's text that names an older
    correction's string is a step of a chain. Cached, as read-time checks ask of the same hits.

    Where the correction has new values, a text that records its change names one of them:
    an ASCII text that names none (folded, a superset of the matching rules) records no
    change, and the wording reader is not imported for it. So the hook's deny of a command
    that names only the old value ("git clone .../acme/app.git") pays no import of the reader.
    """
    given = [v for v in news if v.strip()]
    if given and text.isascii() and all(v.isascii() for v in given):
        # ASCII only: the reader reads a value out of decomposed text ("cafe" and a combining
        # accent) that the folded text spells otherwise (a review of the skip)
        folded = fold(text)
        if not any(fold(v) in folded for v in given):
            return False
    from .wording import records_change

    return records_change(text, phrase, news)


def _revives(
    other: CorrectionInfo,
    info: CorrectionInfo,
    as_of: float | None,
    chained: Callable[[CorrectionInfo, CorrectionInfo], bool],
) -> bool:
    """Return whether ``other``, holding a string of ``info`` as new, revives it in ``info``.

    It must be another active correction of the same scope, newer than ``info``, not after
    ``as_of``, and it must change back what ``info`` changed (:func:`_changes_back`), or
    what a chain of corrections from ``info`` changed last (``chained``).
    """
    return (
        other.id != info.id
        and other.retracted is None
        and other.scope == info.scope
        and other.order > info.order
        and (as_of is None or other.time <= as_of)
        and (_changes_back(other, info) or chained(other, info))
    )


def _changes_back(other: CorrectionInfo, info: CorrectionInfo) -> bool:
    """Return whether ``other`` deprecates what ``info`` made new: a change back.

    One of ``other``'s deprecated strings is one of ``info``'s new values, or occurs in
    ``info``'s own text (where ``info`` states its new value in words nowline does not read).
    ``acme/app`` renamed to ``acme/app2`` and back: the second deprecates ``acme/app2``. A
    newer correction that merely has the same string as its new value about something else
    ("the answer is now Alabama" for another question) changes nothing back, so it does not
    revive: measured on SituatedQA, such unrelated revivals left 5% of the old facts unmarked.
    """
    news = _held_keys(info)  # in either spelling: github.com/acme/app2 back from acme/app2
    if any(value_keys(d) & news for d in other.deprecates):
        return True
    forms = Matcher((match_form(d), d) for d in other.deprecates if d.strip())
    return any(
        spelled_here(other.deprecates, other.replaced_by, m.phrase, info.document, m.start)
        for m in forms.find(info.document)
    )


_CHAIN_STEPS = 16
"""The most steps a change back is followed through (``acme/app`` → ... → ``acme/app``)."""

_Automata = tuple[Matcher[str], Matcher[str]]


def _held_forms(info: CorrectionInfo) -> Iterator[tuple[str, str]]:
    """Return the automaton's pairs for a correction: each string's form, under its id.

    The form is :func:`match_form`; every build and update of the automaton adds these.
    """
    return ((match_form(p), info.id) for p in info.deprecates)


def _automata_of(active: Iterable[CorrectionInfo]) -> _Automata:
    """Return the deprecated-string and anchor automata over active corrections, built."""
    # Each Matcher pauses the garbage collector while it adds its phrases (matchers._gcpause).
    listed = list(active)
    built = (
        Matcher(pair for i in listed for pair in _held_forms(i)),
        Matcher((p, i.id) for i in listed for p in i.about),
    )
    for matcher in built:
        matcher.prepare()
    return built


_RUN = re.compile(r"[\w-]+")  # a maximal run of token characters (isalnum, "_" or "-")


def _runs(text: str) -> set[str]:
    """Return the maximal runs of token characters of a folded text."""
    return set(_RUN.findall(text))


class Lookup(Protocol):
    """Where :func:`closure` finds corrections: in memory (:func:`narrowed`) or an index on disk.

    Each method returns the active corrections filed under any of the keys given, as
    :func:`index_keys` files them.
    """

    def by_runs(self, runs: set[str]) -> Iterable[CorrectionInfo]:
        """Return the corrections one of whose strings' key runs is among ``runs``."""
        ...

    def always(self) -> Iterable[CorrectionInfo]:
        """Return the corrections with a string that has no token characters."""
        ...

    def holding(self, keys: set[str]) -> Iterable[CorrectionInfo]:
        """Return the corrections holding one of ``keys`` (folded) as a new value."""
        ...


def index_keys(info: CorrectionInfo) -> tuple[set[str], bool, set[str]]:
    """Return where an active correction is filed for :func:`closure`.

    That is the key run of each of its strings (the longest maximal run of token characters,
    the first in order among equals, so every process files a string alike), whether one of
    its strings has none (then it is always kept), and the keys of its new values
    (:func:`_held_keys`).
    """
    runs: set[str] = set()
    always = False
    for phrase in info.deprecates:
        found = sorted(_runs(_key(match_form(phrase))))
        if found:
            runs.add(max(found, key=len))
        else:
            always = True
    return runs, always, _held_keys(info)


class Source(Lookup, Protocol):
    """Where a deferred registry (:meth:`Registry.defer`) reads corrections: a snapshot.

    Attributes:
        scope_counts: how many of its corrections (active or retracted) carry each scope key.
    """

    scope_counts: Mapping[str, int]

    def by_ids(self, ids: set[str]) -> Iterable[CorrectionInfo]:
        """Return the corrections (active or retracted) with one of these ids."""
        ...

    def everything(self) -> list[CorrectionInfo]:
        """Return every correction, oldest first."""
        ...

    def count(self) -> int:
        """Return how many corrections (active or retracted) it holds."""
        ...

    def close(self) -> None:
        """Release the source (a deferred registry that has read everything needs it no more)."""
        ...


def _grow(
    lookup: Lookup,
    kept: dict[str, CorrectionInfo],
    texts: list[str],
    found: list[CorrectionInfo],
    asked: tuple[set[str], set[str]],
) -> bool:
    """Add to ``kept`` what :func:`closure` adds for ``texts`` and the corrections ``found``.

    ``asked`` holds the runs and new-value keys already looked up for ``kept`` (and is
    updated): ``kept`` holds everything they file, so they are not looked up again. Returns
    whether anything was added.
    """
    runs_asked, keys_asked = asked
    added = False
    while texts or found:
        runs: set[str] = set()
        for each in texts:
            runs |= _runs(fold(each))
        runs -= runs_asked
        runs_asked |= runs
        found.extend(lookup.by_runs(runs))
        texts = []
        while found:
            new = [i for i in dict((i.id, i) for i in found).values() if i.id not in kept]
            kept.update((i.id, i) for i in new)
            added = added or bool(new)
            active = [i for i in new if i.retracted is None]
            texts.extend(i.document for i in active)
            keys = {k for i in active for p in i.deprecates for k in value_keys(p)} - keys_asked
            keys_asked |= keys
            found = list(lookup.holding(keys)) if keys else []
    return added


def closure(lookup: Lookup, text: str) -> Registry:
    """Return a registry of the corrections that can matter to what ``text`` trips.

    A check of one text needs no automaton over every correction. Every token run of a
    deprecated string (a maximal run of token characters) is, wherever the string occurs, a
    token run of the text as well: inside the string it is delimited by the string's own
    characters, and at its ends by the boundary rule. So a correction none of whose strings'
    key runs (:func:`index_keys`) is among the text's runs cannot occur in it (a string
    without token characters is always kept). To these are added, until nothing changes, what
    their lines depend on: the corrections that can occur in their own texts (chains) and
    those that hold one of their strings as a new value (rename backs). The matcher then
    decides on the result, so ``trips_of(closure(lookup, text), text, ...)`` equals the answer
    of the full registry (a Hypothesis test holds that, in memory and on disk). A deferred
    registry (:meth:`Registry.defer`) grows by the same rule.
    """
    kept: dict[str, CorrectionInfo] = {}
    _grow(lookup, kept, [text], list(lookup.always()), (set(), set()))
    return Registry(kept.values())


class _InMemory:
    """A :class:`Lookup` over corrections held in memory."""

    def __init__(self, infos: Iterable[CorrectionInfo]) -> None:
        self._by_run: dict[str, list[CorrectionInfo]] = {}
        self._always: list[CorrectionInfo] = []
        self._holders: dict[str, list[CorrectionInfo]] = {}
        for info in infos:
            if info.retracted is not None:
                continue
            runs, always, holds = index_keys(info)
            for run in runs:
                self._by_run.setdefault(run, []).append(info)
            if always:
                self._always.append(info)
            for key in holds:
                self._holders.setdefault(key, []).append(info)

    def by_runs(self, runs: set[str]) -> Iterable[CorrectionInfo]:
        return [i for run in runs for i in self._by_run.get(run, ())]

    def always(self) -> Iterable[CorrectionInfo]:
        return self._always

    def holding(self, keys: set[str]) -> Iterable[CorrectionInfo]:
        return [i for key in keys for i in self._holders.get(key, ())]


def narrowed(infos: Iterable[CorrectionInfo], text: str) -> Registry:
    """Return :func:`closure` over corrections held in memory."""
    return closure(_InMemory(infos), text)


class _Overlaid:
    """A deferred registry's source with the changes taken in since (a :class:`Source`).

    A catch-up or a write of a deferred registry notes each correction it puts or drops here
    instead of reading the whole source: lookups answer from the source with the changed
    corrections left out, and from the changes.
    """

    def __init__(self, source: Source) -> None:
        self.source = source
        self.changes: dict[str, CorrectionInfo | None] = {}  # None: dropped
        self._filed = _InMemory(())

    @property
    def scope_keys(self) -> frozenset[str]:
        """Return the scope keys the corrections carry, the changes taken in."""
        counts = dict(self.source.scope_counts)
        if self.changes:
            for was in self.source.by_ids(set(self.changes)):
                if was.scope:
                    counts[was.scope[0]] -= 1
            for now in self.changes.values():
                if now is not None and now.scope:
                    counts[now.scope[0]] = counts.get(now.scope[0], 0) + 1
        return frozenset(key for key, n in counts.items() if n > 0)

    def note(self, correction_id: str, info: CorrectionInfo | None) -> None:
        """Take in a correction as it is now (None: dropped)."""
        self.changes[correction_id] = info
        self._filed = _InMemory(i for i in self.changes.values() if i is not None)

    def _kept(self, found: Iterable[CorrectionInfo]) -> list[CorrectionInfo]:
        """Return what the source found, less the corrections that changed."""
        return [i for i in found if i.id not in self.changes]

    def by_runs(self, runs: set[str]) -> Iterable[CorrectionInfo]:
        return [*self._kept(self.source.by_runs(runs)), *self._filed.by_runs(runs)]

    def always(self) -> Iterable[CorrectionInfo]:
        return [*self._kept(self.source.always()), *self._filed.always()]

    def holding(self, keys: set[str]) -> Iterable[CorrectionInfo]:
        return [*self._kept(self.source.holding(keys)), *self._filed.holding(keys)]

    def by_ids(self, ids: set[str]) -> Iterable[CorrectionInfo]:
        changed = [i for cid in ids if cid in self.changes and (i := self.changes[cid])]
        return [*self.source.by_ids(ids - set(self.changes)), *changed]

    def everything(self) -> list[CorrectionInfo]:
        held = self._kept(self.source.everything())
        return [*held, *(i for i in self.changes.values() if i is not None)]

    def count(self) -> int:
        present = {i.id for i in self.source.by_ids(set(self.changes))}
        kept = sum(1 for i in self.changes.values() if i is not None)
        return self.source.count() - len(present) + kept

    def close(self) -> None:
        self.source.close()


class _Build:
    """A build of the automata over the active corrections as they were when it was made."""

    def __init__(self, active: dict[str, CorrectionInfo]) -> None:
        self.active = active
        self.pid = os.getpid()  # a fork copies the job but not the thread running it
        self.done = threading.Event()
        self.result: _Automata | None = None

    def __call__(self) -> None:
        """Build (in any thread); a failure leaves the build to the first scan, which raises."""
        try:
            self.result = _automata_of(self.active.values())
        except Exception:  # the first scan builds again, in the caller's thread
            logger.debug("Building the automata in the background failed.", exc_info=True)
        finally:
            self.done.set()


_DEFER_MOST = 5_000
"""A deferred registry that holds more corrections than this reads every one instead."""

_DEFER_CHANGES = 1_000
"""A deferred registry that took in more changes than this reads every correction instead."""

_deferred: weakref.WeakSet[Registry] = weakref.WeakSet()


def _before_fork() -> None:
    """Read every deferred registry whole before a fork: a child must not share the file.

    An open SQLite connection must not be used on both sides of a ``fork()``; a child
    (a pre-forking server's worker, a ``multiprocessing`` fork) then starts with the whole
    registry instead (0.25 s at 100k corrections, paid once in the parent).
    """
    for registry in list(_deferred):
        with contextlib.suppress(Exception):  # a damaged file: the child finds the registry lost
            registry.complete()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork)


class Registry:
    """All corrections of one collection, with automata over the active ones.

    A registry may be *deferred* (:meth:`defer`): it then holds only what its source (a
    snapshot) was asked for, grown by :func:`closure`'s rule for every text it scans and id it
    is asked about, so each answer equals the one of the whole registry; it reads every
    correction when first asked for all of them or to change one.
    """

    def __init__(self, infos: Iterable[CorrectionInfo] = ()) -> None:
        """Create a registry holding ``infos``; the automata are built at the first scan."""
        self._lock = threading.RLock()
        self._infos: dict[str, CorrectionInfo] = {info.id: info for info in infos}
        self._automata: _Automata | None = None
        self._building: _Build | None = None
        self._sups: dict[str, tuple[str, ...]] = {}
        self._keys: frozenset[str] | None = None
        # Active corrections by the key of a new value they hold, and of a string they
        # deprecate: built at first use, then kept in step by put and drop.
        self._holding: dict[str, set[str]] | None = None
        self._naming: dict[str, set[str]] | None = None
        self._spelled_naming: dict[str, set[str]] | None = None  # deprecated, any spelling
        self.version = 0
        self._source: _Overlaid | None = None  # deferred: where the rest of the corrections are
        self._asked: tuple[set[str], set[str]] = (set(), set())  # runs and keys looked up
        self._missing: set[str] = set()  # ids the source does not hold
        self.lost = False  # a source failed: the registry holds nothing it can vouch for

    # ------------------------------------------------------------------ deferral

    def defer(self, source: Source) -> None:
        """Replace every correction by those of ``source``, read from it only as needed.

        Raises:
            SnapshotDamaged: the source failed to answer (it is closed, and the registry is
                :attr:`lost`).
        """
        with self._lock:
            self._end_deferral()
            self._infos = {}
            self._source = _Overlaid(source)
            _deferred.add(self)
            self._asked, self._missing = (set(), set()), set()
            self._reset()
            self._changed()
            try:
                seeds = list(self._source.always())
            except Exception as exc:
                self._fail(exc)
            self._need(found=seeds)

    @property
    def deferred(self) -> bool:
        """Whether the registry holds only part of its corrections so far (:meth:`defer`)."""
        return self._source is not None

    def complete(self) -> None:
        """Read every correction from the source of a deferred registry (else nothing)."""
        with self._lock:
            source = self._source
            if source is None:
                return
            try:
                infos = source.everything()
            except Exception as exc:
                self._fail(exc)
            self._end_deferral()
            self._infos = {info.id: info for info in infos}
            self._reset()

    def _need(
        self,
        ids: Iterable[str] = (),
        texts: Iterable[str] = (),
        values: Iterable[str] = (),
        found: Iterable[CorrectionInfo] = (),
    ) -> None:
        """Take in, from the source, what these ids, texts and new values can need (deferred)."""
        source = self._source
        if source is None:
            return
        wanted = {i for i in ids if i not in self._infos and i not in self._missing}
        keys = {k for v in values for k in value_keys(v)} - self._asked[1]
        listed = list(texts)
        if not (wanted or keys or listed or found):
            return
        try:
            taken = list(found)
            if wanted:
                by_id = list(source.by_ids(wanted))
                self._missing |= wanted - {i.id for i in by_id}
                taken += by_id
            if keys:
                self._asked[1].update(keys)
                taken += source.holding(keys)
            added = _grow(source, self._infos, listed, taken, self._asked)
        except Exception as exc:
            self._fail(exc)
        if added:
            self._reset()
            if len(self._infos) > _DEFER_MOST:
                self.complete()

    def _fail(self, exc: Exception) -> NoReturn:
        """Give up a source that failed: hold nothing, say so, and raise."""
        self._end_deferral()
        self._infos = {}
        self._reset()
        self._changed()
        self.lost = True
        raise SnapshotDamaged(
            f"The registry snapshot this process started from could not be read ({exc}); "
            "nothing was written. The operation runs again with the corrections read from "
            "the store; if this reaches you, that failed too: delete the snapshot file and "
            "retry."
        ) from exc

    def _end_deferral(self) -> None:
        """Close the source, if any: the registry is no longer deferred."""
        source, self._source = self._source, None
        _deferred.discard(self)
        if source is not None:
            source.close()

    def _reset(self) -> None:
        """Forget what was built over the corrections held (they changed, or grew)."""
        self._automata = None
        self._building = None
        self._holding = self._naming = self._spelled_naming = None
        self._sups = {}

    def _matchers(self) -> tuple[Matcher[str], Matcher[str]]:
        """Return the deprecated-string and anchor automata, building them on first use.

        Loading a registry stays cheap (no automaton is built until a text is scanned), so a
        process that only lists or counts never pays for it.
        """
        if self._automata is None:
            job, self._building = self._building, None
            if job is not None and job.pid == os.getpid():
                job.done.wait()  # the job never takes the lock held here
            if job is not None and job.result is not None:
                self._automata = self._catch_up(job.result, job.active)
            else:
                self._automata = _automata_of(
                    i for i in self._infos.values() if i.retracted is None
                )
        return self._automata

    def build_job(self) -> Callable[[], None] | None:
        """Return a job that builds the automata, to run in another thread; None if built.

        A process that has just loaded its corrections scans soon, and reads Chroma until
        then (chromadb's calls release the GIL), so building meanwhile hides most of the
        build. The first scan waits for the job, then brings what it built up to date with
        every change made since the job began.
        """
        with self._lock:
            if self._automata is not None or self._building is not None or self.deferred:
                return None
            job = _Build({i.id: i for i in self._infos.values() if i.retracted is None})
            self._building = job
            return job

    def _catch_up(self, built: _Automata, was: Mapping[str, CorrectionInfo]) -> _Automata:
        """Return automata built over the active corrections ``was``, made current."""
        deprecated, anchors = built
        now = self._infos
        for cid, info in was.items():
            if now.get(cid) != info:
                deprecated.discard(cid)
                anchors.discard(cid)
        for cid, info in now.items():
            if info.retracted is None and was.get(cid) != info:
                deprecated.add_many(_held_forms(info))
                anchors.add_many((p, cid) for p in info.about)
        return built

    def __len__(self) -> int:
        """Return how many corrections (active or retracted) the registry holds."""
        with self._lock:
            if self._source is not None:
                try:
                    return self._source.count()
                except Exception as exc:
                    self._fail(exc)
            return len(self._infos)

    def __contains__(self, correction_id: object) -> bool:
        """Return whether the registry holds a correction with this id."""
        if not isinstance(correction_id, str):
            return False
        return self.get(correction_id) is not None

    def get(self, correction_id: str) -> CorrectionInfo | None:
        """Return the correction with this id, or None."""
        if self._source is not None:
            with self._lock:
                self._need(ids=(correction_id,))
        return self._infos.get(correction_id)

    def infos(self) -> list[CorrectionInfo]:
        """Return every correction, oldest first."""
        with self._lock:
            self.complete()
            values = list(self._infos.values())
        return sorted(values, key=lambda i: i.order)

    def held(self) -> dict[str, CorrectionInfo]:
        """Return every correction by id (a copy)."""
        with self._lock:
            self.complete()
            return dict(self._infos)

    def ids(self) -> set[str]:
        """Return the ids of every correction."""
        with self._lock:
            self.complete()
            return set(self._infos)

    def scope_keys(self) -> frozenset[str]:
        """Return the scope keys the corrections were written with."""
        with self._lock:
            if self._source is not None:
                try:
                    return self._source.scope_keys
                except Exception as exc:
                    self._fail(exc)
            if self._keys is None:
                self._keys = frozenset(i.scope[0] for i in self._infos.values() if i.scope)
            return self._keys

    # ----------------------------------------------------------------- changes

    # ------------------------------------------------------------ value indexes

    def _holders(self) -> dict[str, set[str]]:
        """Return the active corrections by the key of each new value, built on first use."""
        if self._holding is None:
            self._holding = self._built(_held_keys)
        return self._holding

    def _namers(self) -> dict[str, set[str]]:
        """Return the active corrections by the key of each deprecated string, built on first use.

        Only writes ask it (which older corrections a new one revives), so a process that only
        reads never builds it: at 100k corrections it costs about 0.3 s.
        """
        if self._naming is None:
            self._naming = self._built(_named_keys)
        return self._naming

    def _spelled_namers(self) -> dict[str, set[str]]:
        """Return the active corrections by the :func:`value_keys` of each deprecated string.

        Built on first use, and asked with a new value's :func:`held_keys`.

        :meth:`changed_since` asks it (a later step that wrote the value longer,
        ``github.com/acme/app2``, moved ``acme/app2`` on too) and :meth:`revived_by` (a change
        back to ``acme/app`` revives ``github.com/acme/app``).
        """
        if self._spelled_naming is None:
            self._spelled_naming = self._built(_spelling_keys)
        return self._spelled_naming

    def _built(self, keys_of: Callable[[CorrectionInfo], set[str]]) -> dict[str, set[str]]:
        """Return an index of the active corrections by the keys ``keys_of`` gives each.

        :func:`_held_keys` (new values), :func:`_named_keys` or :func:`_spelling_keys` (deprecated
        strings): the same functions :meth:`_index` keeps the built indexes in step with.
        """
        index: dict[str, set[str]] = {}
        for info in self._infos.values():
            if info.retracted is None:
                for key in keys_of(info):
                    index.setdefault(key, set()).add(info.id)  # no cache: each once
        return index

    def _index(self, info: CorrectionInfo, *, add: bool) -> None:
        """Add an active correction's values to the built indexes, or take a correction's out."""
        if add and info.retracted is not None:
            return
        filed = (
            (self._holding, _held_keys(info)),
            (self._naming, _named_keys(info)),
            (self._spelled_naming, _spelling_keys(info)),
        )
        for index, keys in filed:
            if index is None:
                continue  # built from the corrections when first asked
            for key in keys:
                ids = index.setdefault(key, set())
                if add:
                    ids.add(info.id)
                else:
                    ids.discard(info.id)

    def holding(self, value: str, scope: CorrectionScope) -> list[CorrectionInfo]:
        """Return the active corrections of ``scope`` that hold ``value`` as a new value.

        In any spelling (:func:`value_keys`): ``acme/app`` is held by a correction to
        ``https://github.com/acme/app``. What they hold is current: a new correction may not
        deprecate it unless its own text says it changed again (the write guards).
        """
        with self._lock:
            self._need(values=(value,))
            found = [
                self._infos.get(cid) for cid in _filed_under(self._holders(), value_keys(value))
            ]
        return sorted(
            (i for i in found if i is not None and i.retracted is None and i.scope == scope),
            key=lambda i: i.order,
        )

    def changed_since(self, value: str, holder: CorrectionInfo) -> bool:
        """Return whether a newer active correction of ``holder``'s scope moved ``value`` on.

        ``holder`` made ``value`` new (in any spelling), and a later step of its chain
        deprecates it (``acme/app2`` to ``acme/app3``, or ``github.com/acme/app2`` to ...):
        the value is no longer current, though ``holder`` still holds it as its new value.
        The step is looked up by the holder's own spelling of the value: one that deprecates
        the same path under another host (a mirror's move) changes another value.
        """
        with self._lock:
            self.complete()
            named = [new for new in holder.replaced_by if same_value(value, new)]
            ids = _filed_under(
                self._spelled_namers(), {key for new in named for key in held_keys(new)}
            )
            return any(
                (other := self._infos.get(cid)) is not None
                and other.retracted is None
                and other.scope == holder.scope
                and other.order > holder.order
                for cid in ids
            )

    def revived_by(self, info: CorrectionInfo) -> list[str]:
        """Return the active corrections that ``info`` revives a string of, oldest first.

        Those that deprecate one of its new values and are older, in its scope: a rename back
        (``acme/app`` to ``acme/app2`` and back) makes the first correction's old name current
        again, so its records are linked anew when ``info`` comes or goes. Also those that
        deprecate a new value's path under another host: their hits written as the bare path
        are current again (``_direct``), though the string itself is not revived
        (``https://github.com/acme/app`` after a change back to ``gitlab.com/acme/app``).
        """
        with self._lock:
            self.complete()
            held = _held_keys(info) | {fold(bare_path(v)) for v in info.replaced_by}
            ids = _filed_under(self._spelled_namers(), held)
            older = [
                other
                for cid in ids
                if (other := self._infos.get(cid)) is not None
                and other.retracted is None
                and other.scope == info.scope
                and other.order < info.order
                and (_changes_back(info, other) or self._chained_back(info, other))
            ]
        return [i.id for i in sorted(older, key=lambda i: i.order)]

    def stating(self, info: CorrectionInfo) -> list[CorrectionInfo]:
        """Return the active corrections of ``info``'s scope that deprecate its first string.

        The candidates a new correction may repeat (:func:`nowline._rules.guards.repeat_of`
        decides), oldest first; ``info`` itself is left out.
        """
        if not info.deprecates:
            return []
        with self._lock:
            self.complete()
            ids = self._namers().get(_key(info.deprecates[0]), set())
            found = [
                other
                for cid in ids
                if cid != info.id
                and (other := self._infos.get(cid)) is not None
                and other.retracted is None
                and other.scope == info.scope
            ]
        return sorted(found, key=lambda i: i.order)

    def revived(
        self,
        info: CorrectionInfo,
        phrase: str,
        as_of: float | None = None,
        *,
        without: Container[str] = (),
    ) -> bool:
        """Return whether ``phrase``, deprecated by ``info``, is revived (at ``as_of``).

        A newer active correction of its scope holds it as a new value: a rename back.
        Retracting that correction ends the revival. The corrections ``without`` names are
        left out (a write that changes or drops them: :class:`PlannedRegistry`).
        """
        with self._lock:
            self._need(values=(phrase,))
            ids = _filed_under(self._holders(), value_keys(phrase))  # a walk may rebuild it
            if not ids:
                return False
            return any(
                cid not in without
                and (other := self._infos.get(cid)) is not None
                and _revives(other, info, as_of, lambda n, o: self._chained_back(n, o, without))
                for cid in ids
            )

    def chained_back(
        self, newer: CorrectionInfo, older: CorrectionInfo, without: Container[str] = ()
    ) -> bool:
        """Return whether ``newer`` changes back a chain ``older`` began (see below)."""
        with self._lock:
            return self._chained_back(newer, older, without)

    def _chained_back(
        self, newer: CorrectionInfo, older: CorrectionInfo, without: Container[str] = ()
    ) -> bool:
        """Return whether ``newer`` changes back the last step of a chain that ``older`` began.

        ``acme/app`` to ``acme/app2``, ``acme/app2`` to ``acme/app3``, then ``acme/app3``
        back to ``acme/app``: the last deprecates what a step made new, and the steps lead
        back to ``older``, each an active correction of its scope between the two, each
        deprecating what the one before made new (at most :data:`_CHAIN_STEPS` steps). The
        caller holds the lock.
        """
        seen = {newer.id}
        frontier = list(newer.deprecates)
        for _ in range(_CHAIN_STEPS):
            self._need(values=frontier)
            holding = self._holders()
            steps: list[str] = []
            for value in frontier:
                for cid in sorted(_filed_under(holding, value_keys(value))):
                    if cid in seen or cid in without:
                        continue
                    seen.add(cid)
                    step = self._infos.get(cid)
                    if (
                        step is None
                        or step.retracted is not None
                        or step.scope != older.scope
                        or not older.order <= step.order < newer.order
                    ):
                        continue
                    if step.id == older.id:
                        return True
                    steps.extend(step.deprecates)
            if not steps:
                return False
            frontier = steps
        return False

    # ----------------------------------------------------------------- changes

    def put(self, info: CorrectionInfo) -> None:
        """Add or replace a correction."""
        with self._lock:
            if self._source is not None:
                self._put_deferred(info)
                return
            if self._infos.get(info.id) == info:
                return
            was = self._infos.get(info.id)
            if was is not None:
                self._index(was, add=False)
            self._infos[info.id] = info
            self._index(info, add=True)
            if self._automata is not None:
                deprecated, anchors = self._automata
                deprecated.discard(info.id)
                anchors.discard(info.id)
                if info.retracted is None:
                    deprecated.add_many(_held_forms(info))
                    anchors.add_many((p, info.id) for p in info.about)
            self._changed()

    def _put_deferred(self, info: CorrectionInfo) -> None:
        """Put a correction into a deferred registry: noted, held, and closed over."""
        source = self._source
        assert source is not None
        if self.get(info.id) == info:
            return
        source.note(info.id, info)
        self._infos.pop(info.id, None)
        self._missing.discard(info.id)
        self._changed()
        self._reset()
        self._need(found=(info,))  # it, and what its own text and strings can need
        if len(source.changes) > _DEFER_CHANGES:
            self.complete()

    def drop(self, correction_id: str) -> None:
        """Forget a correction (it was deleted); unknown ids are ignored."""
        with self._lock:
            source = self._source
            if source is not None:
                if self.get(correction_id) is not None:
                    source.note(correction_id, None)
                    del self._infos[correction_id]
                    self._missing.add(correction_id)
                    self._reset()
                    self._changed()
                return
            gone = self._infos.pop(correction_id, None)
            if gone is not None:
                self._index(gone, add=False)
                if self._automata is not None:
                    self._automata[0].discard(correction_id)
                    self._automata[1].discard(correction_id)
                self._changed()

    def apply(self, put: Iterable[CorrectionInfo], drop: Iterable[str] = ()) -> tuple[int, int]:
        """Put and drop corrections in one step; return :attr:`version` before and after.

        No other thread's change comes between, so a caller that planned against the version
        before (:class:`PlannedRegistry`) knows the version after is exactly its plan.
        """
        with self._lock:
            before = self.version
            for info in put:
                self.put(info)
            for cid in drop:
                self.drop(cid)
            return before, self.version

    def retract(self, correction_id: str, when: float) -> None:
        """Mark a correction retracted at ``when``."""
        with self._lock:
            info = self.get(correction_id)
            if info is not None and info.retracted is None:
                self.put(info._replace(retracted=when))

    def reconcile(self, found: Mapping[str, CorrectionInfo | None], since: int) -> bool | None:
        """Take in what a read of the store showed, unless the registry changed since it began.

        ``found`` maps ids to the correction the read showed (None: that id is no correction,
        or no record, now). ``since`` is :attr:`version` as it was before the read. A read that
        overlapped a change (a write in another thread, another read's take-in) may show a
        state older than the registry's; it is refused, and None returned, so the caller reads
        again. Otherwise returns whether anything changed.
        """
        with self._lock:
            if self.version != since:
                return None
            changed = False
            for cid, info in found.items():
                held = self.get(cid)
                if info is None:
                    if held is not None:
                        self.drop(cid)
                        changed = True
                elif held != info:
                    self.put(info)
                    changed = True
            return changed

    def replace_all(self, infos: Iterable[CorrectionInfo]) -> None:
        """Replace every correction by ``infos`` (a full reload)."""
        fresh = {info.id: info for info in infos}
        with self._lock:
            self._end_deferral()
            self._infos = fresh
            self._reset()
            self.lost = False
            self._changed()

    # ----------------------------------------------------------------- queries

    def is_active(self, correction_id: str, as_of: float | None = None) -> bool:
        """Return whether the correction exists, is not retracted and is not after ``as_of``."""
        info = self.get(correction_id)
        return info is not None and info.retracted is None and (as_of is None or info.time <= as_of)

    def direct(
        self,
        text: str,
        *,
        record_id: str,
        scope: Scoped,
        order: Order | None,
        as_of: float | None = None,
    ) -> dict[str, list[Match[str]]]:
        """Return the active corrections that supersede a record directly, with occurrences.

        Args:
            text: the record's document (or any text, checked as a plain memory).
            record_id: the record's id (a correction never supersedes itself).
            scope: the record as the scope rule sees it.
            order: the record's sort key if it is a correction, else None.
            as_of: leave out corrections whose time is after this (epoch seconds).
        """
        with self._lock:
            self._need(texts=(text,))
            return self._direct_as(
                text,
                self._infos.get,
                self.revived,
                record_id=record_id,
                scope=scope,
                order=order,
                as_of=as_of,
            )

    def _direct_as(
        self,
        text: str,
        info_of: Callable[[str], CorrectionInfo | None],
        revived: Revived,
        *,
        record_id: str,
        scope: Scoped,
        order: Order | None,
        as_of: float | None,
    ) -> dict[str, list[Match[str]]]:
        """Scan ``text`` with this registry's automata, judging hits by another view's rules.

        ``info_of`` and ``revived`` say what a correction is and whether a string of it is
        revived: this registry's own (:meth:`direct`), or those of a write planned over it
        (:class:`PlannedRegistry`), which thus scans a text with these automata once.
        """
        with self._lock:
            deprecated, anchors = self._matchers()
            return _direct(
                text,
                deprecated,
                anchors,
                info_of,
                record_id=record_id,
                scope=scope,
                order=order,
                as_of=as_of,
                revived=revived,
            )

    def newest(self, correction_id: str, as_of: float | None = None) -> str:
        """Return the newest correction of the chain that starts at ``correction_id``.

        That is the correction itself when nothing supersedes it, else the newest of the
        newest corrections of its supersessors: the newest correction reachable through
        supersession that nothing supersedes in turn. Resolution is iterative and bounded;
        ids that are not in the registry are skipped.
        """
        return self._resolve(correction_id, as_of)[0]

    def chain(self, correction_id: str, as_of: float | None = None) -> set[str]:
        """Return every correction the resolution of ``correction_id``'s newest visits."""
        return self._resolve(correction_id, as_of)[1]

    def _resolve(self, correction_id: str, as_of: float | None) -> tuple[str, set[str]]:
        """Return the newest correction of a chain and the corrections visited on the way."""
        with self._lock:
            self._need(ids=(correction_id,))
            seen: set[str] = set()
            leaves: list[str] = []
            stack = [correction_id]
            while stack and len(seen) < _MAX_CHAIN:
                cid = stack.pop()
                if cid in seen:
                    continue
                seen.add(cid)
                nxt = [s for s in self._supersessors(cid) if self.is_active(s, as_of)]
                if nxt:
                    stack.extend(nxt)
                else:
                    leaves.append(cid)
            pool = [c for c in (leaves or seen) if c in self._infos] or [correction_id]
            return max(pool, key=self.order_of), seen

    def order_of(self, correction_id: str) -> Order:
        """Return a correction's sort key (unknown ids sort first)."""
        info = self.get(correction_id)
        return info.order if info else (float("-inf"), float("-inf"), correction_id)

    def sorted_ids(self, ids: Iterable[str]) -> list[str]:
        """Return ``ids`` oldest first."""
        wanted = set(ids)
        with self._lock:
            self._need(ids=wanted)
            return sorted(wanted, key=self.order_of)

    def _supersessors(self, correction_id: str) -> tuple[str, ...]:
        """Return the active corrections that supersede a correction (cached until a change)."""
        cached = self._sups.get(correction_id)
        if cached is None:
            info = self._infos.get(correction_id)
            found = (
                self.direct(
                    info.document,
                    record_id=info.id,
                    scope=Scoped.of_correction(info.scope),
                    order=info.order,
                )
                if info is not None
                else {}
            )
            cached = self._sups[correction_id] = tuple(sorted(found))
        return cached

    def _changed(self) -> None:
        """Invalidate caches after a change."""
        self._sups = {}
        self._keys = None
        self.version += 1


class PlannedRegistry:
    """The registry as it will be after a write that puts and drops some corrections.

    A write plans its links against this view, so the shared registry changes only once the
    write has landed: readers in other threads never see a correction that may yet fail. The
    view is exact: while ``base`` does not change, :meth:`direct` returns what
    :meth:`Registry.direct` will return once ``base`` has put ``put`` and dropped ``drop``
    (:meth:`Registry.apply`), revivals included (a correction this write changes or drops
    revives nothing any more; one it puts may revive).
    """

    def __init__(
        self, base: Registry, put: Sequence[CorrectionInfo], drop: Iterable[str] = ()
    ) -> None:
        """Plan ``put`` and ``drop`` over ``base`` (which then holds every correction)."""
        base.complete()
        self._base = base
        self._put = {info.id: info for info in put}
        self._hidden = set(self._put) | set(drop)
        self._deprecated, self._anchors = _automata_of(i for i in put if i.retracted is None)
        # The write's active corrections by the key of each new value they hold (revivers).
        self._holding: dict[str, list[CorrectionInfo]] = {}
        for info in self._put.values():
            if info.retracted is None:
                for key in sorted(_held_keys(info)):
                    self._holding.setdefault(key, []).append(info)

    def get(self, correction_id: str) -> CorrectionInfo | None:
        """Return the correction as it will be, or None."""
        if correction_id in self._put:
            return self._put[correction_id]
        return self._kept(correction_id)

    def _kept(self, correction_id: str) -> CorrectionInfo | None:
        """Return a correction of ``base`` that this write leaves as it is, or None."""
        if correction_id in self._hidden:
            return None
        return self._base.get(correction_id)

    def direct(
        self,
        text: str,
        *,
        record_id: str,
        scope: Scoped,
        order: Order | None,
        as_of: float | None = None,
    ) -> dict[str, list[Match[str]]]:
        """Return what :meth:`Registry.direct` will return once the write has landed.

        The text is scanned once with the base's automata (the corrections this write
        changes or drops left out) and once with the write's own.
        """
        found = self._kept_direct(text, record_id, scope, order, as_of)
        found.update(self._put_direct(text, record_id, scope, order, as_of))
        return found

    def reaching(self) -> _Reaching:
        """Return this view as reach asks it: only of the records the write's corrections reach.

        Its :meth:`~_Reaching.direct` is this view's for a record that one of the corrections
        this write puts supersedes, and empty for any other record, whose text is then not
        scanned with the base's automata (:func:`nowline._rules.links.write_reach`).
        """
        return _Reaching(self)

    def _kept_direct(
        self, text: str, record_id: str, scope: Scoped, order: Order | None, as_of: float | None
    ) -> dict[str, list[Match[str]]]:
        """Return the base's corrections this write leaves that will supersede the record."""
        return self._base._direct_as(
            text,
            self._kept,
            self._revived,
            record_id=record_id,
            scope=scope,
            order=order,
            as_of=as_of,
        )

    def _put_direct(
        self, text: str, record_id: str, scope: Scoped, order: Order | None, as_of: float | None
    ) -> dict[str, list[Match[str]]]:
        """Return the corrections this write puts that will supersede the record."""
        if not self._put:
            return {}
        return _direct(
            text,
            self._deprecated,
            self._anchors,
            self._put.get,
            record_id=record_id,
            scope=scope,
            order=order,
            as_of=as_of,
            revived=self._revived,
        )

    def _revived(self, info: CorrectionInfo, phrase: str, as_of: float | None) -> bool:
        """Return whether ``phrase`` is revived in ``info`` once the write has landed.

        Its revivers are then the base's that this write leaves as they are, and its own.
        """

        def chained(newer: CorrectionInfo, older: CorrectionInfo) -> bool:
            return self._base.chained_back(newer, older, self._hidden)

        planned = {o.id: o for key in value_keys(phrase) for o in self._holding.get(key, ())}
        if any(_revives(other, info, as_of, chained) for other in planned.values()):
            return True
        return self._base.revived(info, phrase, as_of, without=self._hidden)


class _Reaching:
    """A planned write's view, asked only about the records its own corrections reach.

    For such a record, :meth:`direct` is the view's (:meth:`PlannedRegistry.direct`); for
    any other it is empty: the record's verdict is then no use, and reach never uses it.
    """

    def __init__(self, view: PlannedRegistry) -> None:
        """Ask ``view``."""
        self._view = view

    def get(self, correction_id: str) -> CorrectionInfo | None:
        """Return the correction as it will be, or None."""
        return self._view.get(correction_id)

    def direct(
        self,
        text: str,
        *,
        record_id: str,
        scope: Scoped,
        order: Order | None,
        as_of: float | None = None,
    ) -> dict[str, list[Match[str]]]:
        """Return the view's direct corrections if the write's own are among them, else none."""
        view = self._view
        mine = view._put_direct(text, record_id, scope, order, as_of)
        if not mine:
            return {}
        found = view._kept_direct(text, record_id, scope, order, as_of)
        found.update(mine)
        return found
