"""The nowline collection: a ``chromadb.Collection`` whose stale hits carry their corrections.

:class:`Collection` *is* a chromadb ``Collection`` (a subclass sharing the wrapped collection's
client and model), so ``isinstance`` holds, every chromadb method nowline does not change
(``count``, ``search``, ``fork_count``, ``get_indexing_status``, equality, properties, and any
method a later chromadb adds) is chromadb's own, and code written for chromadb runs unchanged.
The methods nowline changes are a thin facade: validate and prepare (``_validate``), run the read
or write path (``_flows``), return chromadb's shapes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ParamSpec, TypeVar

from chromadb.api.collection_configuration import UpdateCollectionConfiguration
from chromadb.api.models.Collection import Collection as ChromaCollection
from chromadb.api.types import CollectionMetadata, DeleteResult, GetResult, QueryResult

from . import models
from ._facade import Facade, Options, Path
from ._io.chroma import local_store
from ._io.execute import SyncStore, run_sync
from ._io.freshness import retry_delays
from ._io.snapshot import save_at_exit
from ._rules import verbs as V
from ._rules.guard import guard_call, raise_if_stale
from .errors import InvalidInput, NowlineError, SnapshotDamaged
from .models import annotated

__all__ = ["Collection", "Options"]

logger = logging.getLogger("nowline")

P = ParamSpec("P")
T = TypeVar("T")
U = TypeVar("U")


class Collection(Facade[ChromaCollection], ChromaCollection):
    """A chromadb ``Collection`` whose recalled stale memories carry their corrections.

    Create one with :func:`nowline.wrap`. A record whose metadata has a non-empty
    ``deprecates`` (a list of the exact outdated strings) is a correction. Results look as
    chromadb returns them, except that a superseded hit of ``query()`` carries its correction
    lines in its document and its role and correction ids in its metadata.
    """

    def __init__(
        self,
        collection: ChromaCollection,
        options: Options | None = None,
    ) -> None:
        """Wrap ``collection``; prefer :func:`nowline.wrap`, which documents the options.

        Raises:
            InvalidInput: the collection is already wrapped, or its embedding function or
                recorded scope key cannot be used with these options.
        """
        super().__init__(collection, options)
        self._lock = threading.RLock()
        self._store = SyncStore(self, local_store(collection._client)[1])
        if self._load is not None:
            run_sync(self._load, self._store)
            self._load = None
        save_at_exit(self._core, self._snapshot)

    def _run(self, prepare: Callable[..., Path[Any, U]], *args: Any) -> U:
        """Prepare a path and run it with blocking I/O; one writing path at a time per wrapper.

        A path that found the snapshot this process started from damaged
        (:class:`~nowline.errors.SnapshotDamaged`, raised before anything is written) runs
        once more: its registry is then read from the store.
        """
        for again in (False, True):
            path = prepare(*args)
            try:
                if path.writes:
                    with self._lock:
                        return path.finish(run_sync(path.flow, self._store))
                return path.finish(run_sync(path.flow, self._store))
            except SnapshotDamaged:
                if again:
                    raise
        raise AssertionError("unreachable")

    # ------------------------------------------------------------------ attributes

    def __repr__(self) -> str:
        """Return a short description."""
        return f"nowline.Collection(name={self.name!r}, corrections={len(self._core.registry)})"

    # ------------------------------------------------------------ chromadb methods

    @V.takes(V.InsertArgs)
    def add(self, call: V.InsertArgs) -> None:
        """Add records, as ``chromadb.Collection.add``, and link them.

        A record whose metadata has ``deprecates`` is a correction: every stored record that
        names one of its strings is linked to it before this returns. ``observed_at`` in a
        metadata sets the record's time. A None metadata value means "no value" (chromadb
        would fail on it). Everything is validated before anything is stored.

        Raises:
            ValueError: what chromadb raises for the same arguments (nothing is stored).
            InvalidCorrection: a correction breaks a guard; nothing is written.
            CorrectionTooBroad: a correction would reach too much of the store.
        """
        self._run(self._insert_path, "add", call)

    @V.takes(V.InsertArgs)
    def upsert(self, call: V.InsertArgs) -> None:
        """Add or update records, as ``chromadb.Collection.upsert``, and relink them.

        It raises what :meth:`add` raises, for the same reasons, and then stores nothing.
        """
        self._run(self._insert_path, "upsert", call)

    @V.takes(V.InsertArgs)
    def update(self, call: V.InsertArgs) -> None:
        """Update records, as ``chromadb.Collection.update``, and relink them.

        Metadata keys merge as in chromadb, and a key set to None is removed. A document that
        still carries nowline's lines from ``query()`` is stored without them. It raises what
        :meth:`add` raises, for the same reasons, and then stores nothing.
        """
        self._run(self._insert_path, "update", call)

    @V.takes(V.DeleteArgs)
    def delete(self, call: V.DeleteArgs) -> DeleteResult:
        """Delete records, as ``chromadb.Collection.delete``.

        A deleted correction's records become current again unless another correction still
        holds them. Arguments chromadb refuses are refused before anything changes.
        """
        return self._run(self._delete_path, call)

    @V.takes(V.GetArgs)
    def get(self, call: V.GetArgs) -> GetResult:
        """Return records as ``chromadb.Collection.get`` does, without nowline's keys.

        Order, ``limit`` and ``offset`` are chromadb's; reads larger than Chroma's row limit
        (about 32k rows with metadatas) are paged. Stored documents come back as stored.
        """
        return self._run(self._get_path, call)

    def peek(self, limit: int = 10) -> GetResult:
        """Return the first ``limit`` records, as chromadb's ``peek``, without nowline's keys."""
        return self._run(self._peek_path, limit)

    @V.takes(V.QueryArgs)
    def query(self, call: V.QueryArgs) -> QueryResult:
        """Query nearest neighbours, as ``chromadb.Collection.query``.

        A hit that no correction supersedes comes back exactly as chromadb returns it. A
        superseded hit's document carries its correction lines (the corrections that name
        its strings, then ``now:`` the newest of their chains) and its metadata carries
        ``nowline_role``, ``nowline_by`` (the direct corrections) and ``nowline_now`` (the
        newest); a recalled retracted correction carries its ``retracted:`` mark.
        """
        return self._run(self._query_path, call)

    def modify(
        self,
        name: str | None = None,
        metadata: CollectionMetadata | None = None,
        configuration: UpdateCollectionConfiguration | None = None,
    ) -> None:
        """Rename the collection or change its metadata, as ``chromadb.Collection.modify``."""
        self._run(self._modify_path, name, metadata, configuration)

    def fork(self, new_name: str) -> Collection:
        """Fork the collection (hosted Chroma only), as chromadb's; the fork is wrapped too."""
        return Collection(self._raw.fork(new_name), self._options)

    # ------------------------------------------------------------ nowline methods

    @V.takes(V.RememberArgs)
    def remember(self, call: V.RememberArgs) -> str:  # noqa: D417 (Args: those takes() gives)
        """Store one memory and return its id (a new UUID when ``id`` is None).

        Args:
            text: the memory's text.
            id: the record id to use.
            metadata: user metadata to store with it.
            observed_at: when the fact was observed (ISO 8601 or epoch seconds).

        Raises:
            InvalidInput: the text, id, metadata or time cannot be used, or ``id`` exists.
        """
        return self._run(self._remember_path, call)

    @V.takes(V.CorrectArgs)
    def correct(self, call: V.CorrectArgs) -> models.CorrectionReport:  # noqa: D417 (Args: those takes() gives)
        """Store a correction and link every record that names what it deprecates.

        Args:
            text: the correction's text; it should say what changed ("Moved from A to B").
            deprecates: the exact outdated strings (or one string).
            about: anchors: the correction then reaches only records that also name one of
                these: the role or subject that changed (``billing`` for a billing owner,
                ``Michigan`` for a state's figure). Leave it empty for a specific string
                (``org/repo``, a URL); an anchor inside a deprecated string is dropped.
            replaced_by: the new values (or one), stored as a list like ``deprecates``; when
                not given they are read from ``text`` ("moved from A to B" makes B new).
                A new value is never deprecated, and a later correction that deprecates it
                is refused unless its text says it changed again.
            id: the record id to use (a new UUID when None).
            metadata: user metadata to store with it (the scope key goes here).
            observed_at: when the change was observed (ISO 8601 or epoch seconds).
            allow_absent: accept deprecated strings that do not occur in ``text``.
            allow_generic: accept a common word or bare number without an anchor.
            allow_person: accept a person's full name without an anchor (everything about
                the person is then outdated).
            max_reach: refuse the correction if it would reach more records than this: a
                share of the store (a float in (0, 1]; never below ``REACH_FLOOR``), a count
                (an int), or None for no limit. The default is the collection's setting.
            allow_unreached: store a correction that reaches no record even where the store
                names a near miss of its strings (see ``Unreached``).

        Returns:
            The correction's id, how many records it reached and the seconds taken.

        Raises:
            InvalidCorrection: ``deprecates`` or ``about`` is malformed, a string is absent
                from ``text``, or a string is generic without an anchor; nothing is written.
                Its ``suggestions`` are the strings to deprecate instead, with their reach.
            NewValue: a deprecated string is a new value (its own, or one another active
                correction holds as current).
            PersonName: a person's full name without an anchor.
            CorrectionTooBroad: it would reach more than ``max_reach``; nothing is written.
            Unreached: it reaches no record, while the store names a near miss (a string
                within a small edit distance of a deprecated one, or another string of
                ``text`` that names records: the old and new values swapped); the error
                lists them, and nothing is written.
        """
        return self._run(self._correct_path, call)

    @V.takes(V.RecallArgs)
    def recall(self, call: V.RecallArgs) -> models.Recall:  # noqa: D417 (Args: those takes() gives)
        """Recall the memories closest to ``text`` as an evidence packet.

        Args:
            text: what to recall (not empty).
            n_results: how many hits to return.
            where: a Chroma metadata filter.
            where_document: a Chroma document filter.
            as_of: answer as the store knew things then: records and corrections with a
                later time are left out (ISO 8601 or epoch seconds).
            include_historical: keep historical hits (with their lines); False leaves them
                out and fills the packet with the next closest hits.

        Returns:
            A :class:`Recall`; ``render()`` gives the context block.

        Raises:
            InvalidInput: the text is empty, or an argument has the wrong type.
        """
        return self._run(self._recall_path, call)

    def hits(
        self, ids: Sequence[str], *, as_of: str | float | int | None = None
    ) -> list[models.Hit]:
        """Return the records with these ids as evidence-packet hits, in the order given.

        Each hit carries its role and corrections exactly as ``recall()`` would show it (its
        distance is None). Missing ids are left out.
        """
        return self._run(self._hits_path, ids, as_of)

    @V.takes(V.PreviewArgs)
    def preview(self, call: V.PreviewArgs) -> models.Preview:  # noqa: D417 (Args: those takes() gives)
        """Return the ids of the records a correction would reach, without writing anything.

        The result is a list of ids that also says what ``correct()`` would do with the same
        strings: ``refusal`` (None, or the message ``correct()`` would raise: a generic
        string, an anchor that narrows nothing, a string absent from ``text``, a reach over
        the collection's limit, a near miss) and ``near_misses`` (when it reaches nothing,
        the strings the store names that it may have meant, with how many records each
        names).

        Args:
            deprecates: the outdated strings the correction would name; when None, those
                ``text`` proposes (its old values that name records; see ``deprecates`` on
                the result).
            about: its anchors, if any.
            metadata: the metadata it would have (its scope key decides whom it may reach).
            text: the correction's text, if known: its other strings are checked as swapped
                values, and the guards that read the text apply.
            replaced_by: its new values, if given (else read from ``text``).
            allow_absent: judge as ``correct(allow_absent=True)`` would.
            allow_generic: judge as ``correct(allow_generic=True)`` would.
            allow_person: judge as ``correct(allow_person=True)`` would.
            max_reach: judge the reach against this limit, as ``correct(max_reach=...)``
                would (the default is the collection's setting; None: no limit).
            allow_unreached: judge as ``correct(allow_unreached=True)`` would.

        Raises:
            InvalidCorrection: ``deprecates`` or ``about`` is malformed.
            InvalidInput: an ``allow_*`` keyword is not a bool, or ``max_reach`` is not a
                share, a count or None.
        """
        return self._run(self._preview_path, call)

    def retract(self, correction_id: str) -> None:
        """Undo a wrong correction; the correction record stays, marked retracted.

        Its links go, and the records it made historical become current again unless another
        correction still holds them. Retracting twice does nothing more.

        Raises:
            UnknownRecord: no record has this id.
            InvalidInput: the record is not a correction.
        """
        self._run(self._retract_path, correction_id)

    def repair(self) -> models.RepairReport:
        """Rebuild every link from the documents and persist what differs. Idempotent.

        Use it after records were written by a plain chromadb client, or after a process
        died while propagating a correction. Read-time checks already show the right lines
        before a repair; ``repair()`` makes the stored links (and so ``where`` filters on
        roles) agree.
        """
        return self._run(self._repair_path)

    def corrections(self) -> list[models.CorrectionSummary]:
        """Return every correction, oldest first: its strings, status, reach and newest."""
        return self._run(self._corrections_path)

    def stats(self) -> dict[str, int]:
        """Return how many records hold each stored role, and the total (``records``)."""
        return self._run(self._stats_path)

    def changes(self, *, poll_seconds: float | None = None) -> Iterator[models.CorrectionChange]:
        """Yield each change of a correction this wrapper observes, from the first ``next()``.

        For long-running work that must hear about new corrections (a plan made an hour ago
        may name a string corrected since). It catches up as reads do (see the README's
        "Freshness": the generation mark and its bounds), every ``poll_seconds`` (default: the
        wrapper's ``refresh_seconds``), and blocks until something changed. Changes made by
        this wrapper are reported too. A store that cannot be reached (a server restarting)
        is tried again with backoff (0.5 s, doubling to 30 s), and what changed meanwhile is
        reported once it answers.

        Args:
            poll_seconds: seconds between catch-ups (> 0), or None for the refresh interval.

        Yields:
            A :class:`CorrectionChange` per added, edited, retracted or deleted correction.
        """
        wait = self._poll_seconds(poll_seconds)

        def step(baseline: Any) -> Any:
            """One catch-up; a store that cannot be reached is tried again, with backoff."""
            for delay in retry_delays():
                try:
                    return self._run(self._changes_path, baseline)
                except NowlineError:
                    raise
                except Exception:  # the store went away (a server restarting, say)
                    logger.warning("Reading the corrections failed; trying again.", exc_info=True)
                    time.sleep(delay)
            raise AssertionError("unreachable")  # pragma: no cover

        def steps() -> Iterator[models.CorrectionChange]:
            _, baseline = step(None)
            while True:
                time.sleep(wait)
                found, baseline = step(baseline)
                yield from found

        return steps()

    # ------------------------------------------------------------ guarding actions

    def check(self, text: str, *, metadata: Mapping[str, Any] | None = None) -> list[models.Trip]:
        """Return the active corrections whose strings occur in ``text``; write nothing.

        Use it on anything that never passes through recall: a planned tool call, a plan
        written earlier, a cached tool result, a document from elsewhere.

        Args:
            text: the text to check.
            metadata: the caller's metadata; on a collection with a ``scope_key`` it must
                carry that key, whose value selects the scope whose corrections apply.

        Returns:
            One :class:`Trip` per correction, with its newest correction (chains resolved),
            the matched strings and their offsets, ordered by first occurrence.

        Raises:
            InvalidInput: the collection has a scope key and ``metadata`` does not give it.
        """
        return self._run(self._check_path, text, metadata)

    def annotate(self, text: str, *, metadata: Mapping[str, Any] | None = None) -> str:
        """Return ``text`` with the lines of the corrections it trips beneath it.

        The format is the one of recalled memories; lines of ``text`` that look like
        nowline's lines are quoted. Text that trips nothing comes back (sanitized) unchanged.
        """
        return annotated(text, self.check(text, metadata=metadata))

    def require_current(self, *texts: str, metadata: Mapping[str, Any] | None = None) -> None:
        """Raise :class:`StaleReference` if any text names a superseded string.

        Raises:
            StaleReference: with the trips; its message gives the lines.
        """
        raise_if_stale((self.check(text, metadata=metadata) for text in texts), override=None)

    def guard(
        self, func: Callable[P, T] | None = None, *, metadata: Mapping[str, Any] | None = None
    ) -> Any:
        """Decorate a tool function so that it never runs on a superseded string.

        Before each call every string argument (also inside lists, tuples and dicts) is
        checked. If a correction applies, :class:`StaleReference` is raised and the function
        does not run; the error carries the trips and its message gives the now-line. Call
        the tool with ``allow_stale=True`` to run it anyway.

        Use as ``@memory.guard`` or ``@memory.guard(metadata={"user_id": "u1"})``.
        """

        def decorate(f: Callable[P, T]) -> Callable[P, T]:
            if not callable(f):
                raise InvalidInput(f"guard() decorates a function, not {type(f).__name__}.")
            return guard_call(lambda text: self.check(text, metadata=metadata), f)

        return decorate(func) if func is not None else decorate
