"""Model-based test: random programs of writes and reads against an in-memory model of §4–§8.

A Hypothesis ``RuleBasedStateMachine`` drives a real store (PersistentClient or a Chroma server,
fake embedder) through two wrappers of one collection scoped by ``user_id`` and through the raw
chromadb collection:

* nowline's own writes: remember, correct, update, delete, retract, repair, and chromadb's verbs
  (add, upsert, update) with batches that mix existing ids, new memories, corrections and
  records that stop being corrections; the model predicts every refusal (absent or generic
  string, reach limit) and a refused write must leave the store as it was;
* batches with one invalid record (chromadb's own errors), also 5,001 records long with the
  invalid one last: nowline must raise what a bare chromadb collection raises for the same
  call (class and message) and store nothing;
* delete() with arguments chromadb refuses (same error, nothing changes), and deletes by filter;
* get() of a few ids, of many ids (more than one page) or of a filter, with limit and offset,
  against the raw read;
* writes around nowline: plain memories, and corrections added, edited and deleted through the
  raw collection;
* a second wrapper in the same process that writes and reads, and can be reopened;
* a write in one thread while other threads call check() and recall().

With ``--backend=http`` the machine also runs with an async second wrapper
(``nowline.AsyncCollection`` over chromadb's ``AsyncHttpClient``, driven on an event loop of
its own thread): ``AsyncSecondMachine``.

The model keeps what is stored for each record: its document and user metadata, nowline's
clock (``nowline_time``/``nowline_written`` when stored) and the retraction mark. Everything
else is derived with ``tests.reliability.reference``. After every step it checks, for every
record: the stored document and user metadata; the role and correction lines recall() shows;
the stored ``nowline_by``/``nowline_role``; check() of a probe naming every string; and the
same through the second wrapper when it must know every correction.

Freshness (a choice this model makes to stay deterministic):

* The first wrapper uses ``refresh_seconds=0``: every read lists the store's corrections in
  full. A correction written around nowline is found when a read returns it (the README's
  promise), so after each change around nowline the model reads the changed records through
  it. (The bounds themselves are tested with real waits in
  ``tests/regressions/test_review_process_faults.py``.)
* The second wrapper uses ``refresh_seconds=3600`` and so never refreshes by time within a
  program: it must see every correction change made through nowline (the wrappers of one
  process share a change counter), but it may miss a change made around nowline until it
  refreshes. While such a change is pending (``synced`` is False) the second wrapper is not
  used; it catches up when the first wrapper changes corrections (its next read refreshes,
  and ``second_wrapper_agrees`` reads every record through it: a read takes in every
  correction it returns that the wrapper holds otherwise, and verifies the ones it shows),
  when it is reopened (a new wrapper's first read refreshes), or after a repair.

Stored links of records that a change around nowline affects lag until ``repair()`` (DESIGN §4):
the model computes which records' stored links that change would alter and leaves them out of
the stored-links comparison (``lagging``) until a repair or until nowline rewrites them.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import math
import os
import sys
import threading
import traceback
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, cast

import chromadb
import pytest
from hypothesis import HealthCheck, Phase, assume, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import nowline
from nowline._rules.generic import is_generic
from nowline._rules.records import new_values_of
from tests.conftest import ChromaServer, FakeEmbedding, backend, snapshot, strip_nowline
from tests.reliability.invariants import unreachable
from tests.reliability.reference import (
    Record,
    expected,
    expected_links,
    expected_states,
    occurs,
    reach_counts,
    recall_states,
    repeat_of,
    same_value,
)


@pytest.fixture(autouse=True)
def _short_resync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set ``NOWLINE_RESYNC_SECONDS`` to 0: every operation lists the corrections.

    Writes around nowline (raw adds, edits and deletes) are then seen at the next operation,
    as the model expects; the default resync's bound is tested in test_snapshot.py and by the
    checker.
    """
    monkeypatch.setenv("NOWLINE_RESYNC_SECONDS", "0")


PHRASES = ["acme/app", "ACME/App", "beta", "straße", "svc-1", "x/y"]
PHRASES += ["https://github.com/acme/app", "gitlab.com/acme/app"]  # spellings (§6)
NEAR_MISSES = ["acme/app-hosted", "betamax", "STRASSE", "svc-1-old", "xx/y", "(beta)", "x/y.git"]
TARGETS = ["acme/web", "gamma", "svc-2", "beta-2", "x/z", "github.com/acme/web", "acme/app.git"]
FILLER = ["deploy", "notes", "ticket", "call", "today"]
WORDS = PHRASES + NEAR_MISSES + TARGETS + FILLER
USERS = ["u1", "u2", None]
OBSERVED = [1_000.0, 2_000.0, 3_000.0]  # epoch seconds in 1970: always older than wall time
WALL = 1e12  # model times of records written at wall-clock time sort after every OBSERVED

REACH = 2
"""``max_reach`` (a count) of the second wrapper, so that the reach limit is met in small stores."""

BIG = 5001
"""Records in a big batch: more than 5,000 (the chunk the old core split writes into)."""

MANY_IDS = 6000
"""Ids in a big get(): more than one 5,000-row page."""

PADS = 48
"""Extra deprecated strings of a correction written while other threads read (a bigger matcher)."""

CHROMA_BAD = [
    "nested-dict",
    "empty-list",
    "mixed-list",
    "set-value",
    "empty-key",
    "document-int",
    "id-int",
    "empty-id",
    "duplicate-id",
    "dimension",
    "nan-embedding",
]
"""Invalid records chromadb refuses (nowline must raise the same error and write nothing)."""

NOWLINE_BAD = ["deprecates-empty-string", "deprecates-int"]
"""Records chromadb accepts but nowline refuses as malformed corrections."""

BAD_DELETES = [
    "ids-and-limit",
    "ids-and-limit",
    "ids-and-limit",
    "nothing",
    "unknown-operator",
    "empty-where",
    "where-document-int",
    "negative-limit",
    "str-limit",
    "empty-ids",
    "int-id",
]
"""delete() arguments chromadb refuses (ids with limit, the fault of issue 13, more often)."""

_collections = itertools.count()


@dataclass(frozen=True)
class Model:
    """What is stored for one record, as far as the rules read it.

    Attributes:
        document: the stored document.
        meta: the user metadata as stored (``deprecates``, ``user_id``, ``observed_at``, ...).
        time: the stored ``nowline_time`` (None: written around nowline and never since).
        written: the stored ``nowline_written`` (None: not stored).
        retracted: whether the ``nowline_retracted`` mark is stored.
    """

    document: str
    meta: Mapping[str, Any] = field(default_factory=dict)
    time: float | None = None
    written: float | None = None
    retracted: bool = False

    @property
    def user(self) -> Any:
        """Return the record's scope value (None: no key)."""
        return self.meta.get("user_id")

    @property
    def deprecates(self) -> tuple[str, ...]:
        """Return the deprecated strings (empty: a plain memory)."""
        return tuple(self.meta.get("deprecates") or ())

    @property
    def when(self) -> float:
        """Return the record's time (§2): stored, else its observed_at, else 0."""
        if self.time is not None:
            return self.time
        observed = self.meta.get("observed_at")
        return float(observed) if observed is not None else 0.0

    def identity(self) -> tuple[Any, ...] | None:
        """Return what a correction's links depend on (None: not a correction)."""
        if not self.deprecates:
            return None
        return (self.document, self.deprecates, self.user, self.when, self.retracted)

    def record(self, rid: str) -> Record:
        """Return the record as the reference reads it."""
        meta: dict[str, Any] = dict(self.meta)
        meta["nowline_time"] = self.when
        meta["nowline_written"] = self.written if self.written is not None else self.when
        if self.retracted:
            meta["nowline_retracted"] = 1.0
        return Record(rid, self.document, meta)


SCOPED = {"nowline_scope_key": "user_id"}
"""What a plain client writes on a correction in this store, so that it is scoped as the rest."""


def _merged(meta: Mapping[str, Any], patch: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return metadata after a chromadb update/upsert patch (a None value removes the key)."""
    out = dict(meta)
    for key, value in (patch or {}).items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def _land(
    old: Model | None,
    patch: Mapping[str, Any] | None,
    doc: str | None,
    stamp: float,
) -> Model:
    """Return a record after nowline wrote it (keys merge; its time as §2 and the README say).

    A record's write stamp (``nowline_written``) is stored by the write that creates it, when
    its time is not that stamp (it orders corrections of equal time); a later write never
    stores one (that would move the record among corrections of equal time).
    """
    meta = _merged(old.meta if old else {}, patch)
    time = old.time if old else None
    written = old.written if old else None
    observed = (patch or {}).get("observed_at")
    if observed is not None:
        time = float(observed)
    elif time is None:
        time = float(meta["observed_at"]) if meta.get("observed_at") is not None else stamp
    if old is None and time != stamp:
        written = stamp
    retracted = old.retracted if old else False
    if old is not None and old.deprecates and not meta.get("deprecates"):
        retracted = False  # a correction that stops being one loses its retraction mark
    document = doc if doc is not None else (old.document if old else "")
    return Model(document, meta, time, written, retracted)


def _diff(got: Mapping[str, Any], want: Mapping[str, Any]) -> str:
    """Return the entries where two {id: value} maps differ, one per line."""
    return "\n".join(
        f"  {k}: got {got.get(k, '<absent>')!r}, want {want.get(k, '<absent>')!r}"
        for k in sorted(set(got) | set(want))
        if got.get(k, "<absent>") != want.get(k, "<absent>")
    )


def _without_none(meta: Any) -> Any:
    """Return a metadata without None values (None when nothing is left)."""
    if not isinstance(meta, dict):
        return meta
    return {k: v for k, v in meta.items() if v is not None} or None


texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
IDENTIFIERS = ["acme/app", "ACME/App", "svc-1", "x/y", "https://github.com/acme/app"]
"""The strings of PHRASES that are not generic (§6): add() and upsert() accept them."""

phrase_lists = st.lists(st.sampled_from(PHRASES), min_size=1, max_size=2, unique=True)


def _fix_text(old: Sequence[str], new: str, extra: str = "") -> str:
    """Return a correction's text that names what it deprecates (so chains form)."""
    return f"Moved from {' and '.join(old)} to {new}. {extra}".strip()


def _user_meta(user: str | None) -> dict[str, Any] | None:
    """Return the metadata that puts a record in ``user``'s scope (None: no metadata)."""
    return {"user_id": user} if user else None


Entry = tuple[str, str | None, dict[str, Any] | None]
"""One record of a write: id, document (None: keep), metadata patch (None: none)."""


class NowlineMachine(RuleBasedStateMachine):
    """Two wrappers of one collection, its raw collection, and the model they must agree with."""

    client: ClassVar[Any] = None
    _bare: ClassVar[dict[int, Any]] = {}

    def __init__(self) -> None:
        """Start each program on a new, empty collection."""
        super().__init__()
        self.raw = self.client.create_collection(
            f"sm{next(_collections)}", embedding_function=FakeEmbedding()
        )
        self.col = nowline.wrap(self.raw, scope_key="user_id", refresh_seconds=0)
        self.col2 = self._second()
        self.model: dict[str, Model] = {}
        self.lagging: set[str] = set()  # stored links lag (changes around nowline) until repair
        self.synced = True  # the second wrapper knows every correction (see the module doc)
        self.seq = 0
        self.ids = itertools.count()
        self.standing: str | None = None  # the correction a predicted repeat tells again

    def _second(self) -> nowline.Collection:
        """Return a new second wrapper: no refresh by time, a small reach limit."""
        return nowline.wrap(self.raw, scope_key="user_id", refresh_seconds=3600, max_reach=REACH)

    # ------------------------------------------------------------------ helpers

    def _tick(self) -> float:
        """Return the model's next write-order stamp."""
        self.seq += 1
        return WALL + self.seq

    def _records(self, model: Mapping[str, Model] | None = None) -> list[Record]:
        """Return the model's records as the reference reads them."""
        return [m.record(rid) for rid, m in (self.model if model is None else model).items()]

    def _links(self) -> dict[str, tuple[tuple[str, ...], str | None]]:
        """Return the stored links the reference expects for the model."""
        return expected_links(self._records(), "user_id")

    def _corrections(self, *, retracted: bool | None = None) -> list[str]:
        """Return the ids of corrections (optionally only retracted or only active ones)."""
        return sorted(
            rid
            for rid, m in self.model.items()
            if m.deprecates and (retracted is None or m.retracted == retracted)
        )

    def _writer(self, who: int) -> int:
        """Return which wrapper writes: the second one only while it knows every correction."""
        return who if who == 0 or self.synced else 0

    def _limit(self, who: int) -> int:
        """Return the reach limit of a wrapper for the current store size."""
        if who == 1:
            return REACH
        share = nowline.DEFAULT_MAX_REACH
        return max(nowline.REACH_FLOOR, math.floor(share * len(self.model)))

    def _wrapper(self, who: int) -> nowline.Collection:
        """Return wrapper ``who`` (0: the first, 1: the second)."""
        return self.col if who == 0 else self.col2

    def _pick(self, data: st.DataObject, ids: Sequence[str]) -> str:
        """Draw one of ``ids``."""
        return data.draw(st.sampled_from(sorted(ids)))

    def _predict(
        self,
        verb: str,
        entries: Sequence[Entry],
        who: int,
        *,
        allow_absent: bool = False,
        allow_generic: bool = False,
        unlimited: bool = False,
    ) -> tuple[dict[str, Model], set[str], type[Exception] | None, bool]:
        """Return what a nowline write does, as the model predicts it.

        That is: the model after it, the records that land, the error it must raise instead
        (None: it succeeds), and whether corrections change. chromadb ignores an add of an
        existing id and an update of a missing one. A correction that is new or changed passes
        §6's guards in the batch's order (text, new values in any spelling, absent strings,
        generic strings unless its strings are unchanged), unless its text and strings are
        both as stored; then the reach limit.
        """
        after = dict(self.model)
        landing: set[str] = set()
        stamps: dict[str, float] = {}  # each record's write time: an untimed one is told then
        for rid, doc, patch in entries:
            stamp = stamps[rid] = self._tick()
            old = self.model.get(rid)
            if (verb == "add" and old is not None) or (verb == "update" and old is None):
                continue
            after[rid] = _land(old, patch, doc, stamp)
            landing.add(rid)
        order = [rid for rid, _, _ in entries if rid in landing]
        before = {rid: (self.model[rid].identity() if rid in self.model else None) for rid in order}
        puts = [rid for rid in order if after[rid].identity() not in (None, before[rid])]
        drops = [rid for rid in order if before[rid] is not None and after[rid].identity() is None]
        told_before: list[str] = []  # new corrections of this write, in order
        for rid in puts:
            new, old = after[rid], self.model.get(rid)
            unchanged = old is not None and (old.document, old.deprecates) == (
                new.document,
                new.deprecates,
            )
            if unchanged and old is not None and old.user == new.user:
                continue  # its text, strings and scope as stored (a time edit): not judged
            if not unchanged:  # its text or strings set: the guards first (a scope edit: none)
                if not new.document.strip():
                    return after, landing, nowline.InvalidCorrection, False
                # The new-value guard (a new value in any spelling): the model reads new values
                # with nowline's own reader (tests/core/test_wording.py and bench/wording.py
                # test the reader itself).
                values = new_values_of({}, new.document, new.deprecates)
                if any(same_value(p, v) for p in new.deprecates for v in values):
                    return after, landing, nowline.NewValue, False
                if not allow_absent and not all(occurs(p, new.document) for p in new.deprecates):
                    return after, landing, nowline.AbsentString, False
                same = old is not None and old.deprecates == new.deprecates
                if not (allow_generic or same) and any(is_generic(p) for p in new.deprecates):
                    return after, landing, nowline.GenericString, False
            if new.retracted:
                continue
            # Judged as written (new or edited): does it tell a standing correction again?
            told = [*self._records(), *(after[r].record(r) for r in told_before)]
            timed = new.meta.get("observed_at") is not None  # as merged: a stored time too
            self.standing = repeat_of(
                told,
                new.record(rid),
                "user_id",
                timed=timed,
                now=max(stamps.values()),
                stored=self._records(),
            )
            if self.standing is not None:
                return after, landing, nowline.Repeated, False
            told_before.append(rid)
        active = [rid for rid in puts if not after[rid].retracted]
        if active and not unlimited:
            reach = reach_counts(self._records(after), "user_id")
            limit = self._limit(who)
            if any(reach[rid] > limit for rid in active):
                return after, landing, nowline.CorrectionTooBroad, False
        return after, landing, None, bool(puts or drops)

    def _write(
        self,
        who: int,
        verb: str,
        entries: Sequence[Entry],
        call: Callable[[nowline.Collection], Any],
        *,
        answers_repeats: bool = False,
        **guards: bool,
    ) -> Any:
        """Run a nowline write through wrapper ``who``; check it against the model's prediction.

        A write the model says is refused must raise that error and leave the store as it was.
        A correction that repeats a standing one, written with ``correct()``
        (``answers_repeats``), must instead return the standing one, unstored. Returns what
        the call returned (None when it was refused or repeated).
        """
        who = self._writer(who)
        after, landing, error, changes = self._predict(verb, entries, who, **guards)
        wrapper = self._wrapper(who)
        if error is nowline.Repeated and answers_repeats:  # correct(): the standing one
            before = snapshot(self.raw)
            report = call(wrapper)
            assert (report.stored, report.id) == (False, self.standing), report
            assert snapshot(self.raw) == before, "a repeat changed the store"
            return None
        if error is not None:
            before = snapshot(self.raw)
            with pytest.raises(error):
                call(wrapper)
            assert snapshot(self.raw) == before, "a refused write changed the store"
            return None
        result = call(wrapper)
        self.model = after
        self.lagging -= landing  # nowline rewrote their links
        if changes and who == 0:
            self.synced = True  # the second wrapper refreshes at its next read
        return result

    def _around(self, change: Callable[[], None], touched: set[str]) -> None:
        """Make a change around nowline (raw collection) and in the model.

        The records whose stored links the change would alter lag until repair(); the second
        wrapper may miss it (until it refreshes) when a correction is involved.
        """
        links = self._links()
        corrections = {rid for rid in touched if rid in self.model and self.model[rid].deprecates}
        change()
        # A correction written around nowline is found when a read returns it (and by
        # repair()); the first wrapper reads what was changed, as the README's promise says.
        if touched & set(self.model):
            self.col.get(ids=sorted(touched & set(self.model)))
        after = self._links()
        self.lagging |= {rid for rid, v in after.items() if links.get(rid) != v}
        self.lagging |= touched
        self.lagging &= set(self.model)
        corrections |= {rid for rid in touched if rid in self.model and self.model[rid].deprecates}
        if corrections:
            # A change of a correction around nowline moves no generation mark: the wrappers
            # see it at their resync (DESIGN §12; its bound is the checker's and
            # test_snapshot.py's subject) or after repair(), which the README prescribes.
            self.repair()

    def _bare_twin(self) -> Any:
        """Return a bare chromadb collection of this store (one record, 32 dimensions)."""
        key = id(self.client)
        if key not in self._bare:
            bare = self.client.create_collection(
                f"smbare{next(_collections)}", embedding_function=FakeEmbedding()
            )
            bare.add(ids=["seed"], documents=["seed"])
            self._bare[key] = bare
        return self._bare[key]

    def _chroma_error(self, call: Callable[[Any], object]) -> BaseException:
        """Return what a bare chromadb collection raises for ``call`` (it must raise)."""
        try:
            call(self._bare_twin())
        except Exception as exc:
            return exc
        raise AssertionError("bare chromadb accepted the call; the program's premise is wrong")

    def _refused_like_chromadb(
        self, call: Callable[[Any], object], guard: type[Exception] | None = None
    ) -> None:
        """Assert that the first wrapper refuses ``call`` as chromadb does, changing nothing.

        The same exception class and message as a bare chromadb collection's; or ``guard``,
        the error of one of nowline's guards that the call also breaks.
        """
        want = self._chroma_error(call)
        before = snapshot(self.raw)
        with pytest.raises(Exception) as got:
            call(self.col)
        if guard is None or not isinstance(got.value, guard):
            assert (type(got.value), str(got.value)) == (type(want), str(want))
        assert snapshot(self.raw) == before, "a refused call changed the store"

    # ------------------------------------------------------------ nowline's writes

    @rule(
        text=texts,
        user=st.sampled_from(USERS),
        observed=st.sampled_from([None, *OBSERVED]),
        who=st.sampled_from([0, 1]),
    )
    def remember(self, text: str, user: str | None, observed: float | None, who: int = 0) -> None:
        """Store a memory."""
        rid = f"m{next(self.ids)}"
        patch = {**(_user_meta(user) or {}), **({"observed_at": observed} if observed else {})}

        def call(w: nowline.Collection) -> str:
            return w.remember(text, id=rid, metadata=_user_meta(user), observed_at=observed)

        assert self._write(who, "add", [(rid, text, patch)], call) == rid

    @rule(
        old=phrase_lists,
        new=st.sampled_from(TARGETS + PHRASES),
        extra=st.sampled_from(["", *WORDS]),
        user=st.sampled_from(USERS),
        observed=st.sampled_from([None, *OBSERVED]),
        who=st.sampled_from([0, 1]),
    )
    def correct(
        self,
        old: list[str],
        new: str,
        extra: str,
        user: str | None,
        observed: float | None,
        who: int = 0,
    ) -> None:
        """Store a correction whose text names what it deprecates (so chains form).

        Its new value is never one of its old ones: that is the new-value guard's case, which
        refuses it (tests/guards/), and the model here predicts only the other guards.
        """
        assume(not any(same_value(new, o) for o in old))
        self.correct_one(_fix_text(old, new, extra), old, user, observed, who)

    def correct_one(
        self,
        text: str,
        deprecates: list[str],
        user: str | None,
        observed: float | None = None,
        who: int = 0,
        *,
        allow_absent: bool = False,
        unlimited: bool = False,
    ) -> None:
        """Store one correction through correct(); its report counts the model's reach.

        ``unlimited`` passes ``max_reach=None`` (no reach limit).
        """
        rid = f"c{next(self.ids)}"
        patch = {**(_user_meta(user) or {}), "deprecates": list(deprecates)}
        if observed:
            patch["observed_at"] = observed

        def call(w: nowline.Collection) -> nowline.CorrectionReport:
            return w.correct(
                text,
                deprecates=deprecates,
                id=rid,
                metadata=_user_meta(user),
                observed_at=observed,
                allow_absent=allow_absent,
                allow_generic=True,  # the generic-string guard is tested on its own
                allow_unreached=True,  # so is the near-miss guard (tests/guards/)
                max_reach=None if unlimited else "default",
            )

        report = self._write(
            who,
            "add",
            [(rid, text, patch)],
            call,
            answers_repeats=True,
            allow_absent=allow_absent,
            allow_generic=True,
            unlimited=unlimited,
        )
        if report is not None:
            assert report.id == rid
            assert report.reached == reach_counts(self._records(), "user_id")[rid]

    @precondition(lambda self: self.model)
    @rule(data=st.data(), text=texts, who=st.sampled_from([0, 1]))
    def update_document(self, data: st.DataObject, text: str, who: int) -> None:
        """Change a record's text; a correction whose text loses its strings is refused."""
        rid = self._pick(data, self.model)
        if self.model[rid].deprecates and data.draw(st.booleans()):
            text = f"{text} (was {' and '.join(self.model[rid].deprecates)})"
        self.update_one(rid, text, who)

    def update_one(self, rid: str, text: str, who: int = 0) -> None:
        """Set one record's text through update(), and in the model."""
        self._write(
            who, "update", [(rid, text, None)], lambda w: w.update(ids=[rid], documents=[text])
        )

    @precondition(lambda self: self.model)
    @rule(data=st.data(), user=st.sampled_from(USERS), who=st.sampled_from([0, 1]))
    def move_to_scope(self, data: st.DataObject, user: str | None, who: int) -> None:
        """Give a record another user (None removes the key): it changes scope."""
        rid = self._pick(data, self.model)
        patch = {"user_id": user}
        self._write(
            who, "update", [(rid, None, patch)], lambda w: w.update(ids=[rid], metadatas=[patch])
        )

    @precondition(lambda self: self.model)
    @rule(data=st.data(), who=st.sampled_from([0, 1]))
    def delete(self, data: st.DataObject, who: int) -> None:
        """Delete a record through a wrapper (a correction is unlinked first)."""
        self.delete_one(self._pick(data, self.model), who)

    def delete_one(self, rid: str, who: int = 0) -> None:
        """Delete one record by id through a wrapper, and in the model."""
        who = self._writer(who)
        self._wrapper(who).delete(ids=[rid])
        if self.model.pop(rid).deprecates and who == 0:
            self.synced = True
        self.lagging.discard(rid)

    @precondition(lambda self: any(m.deprecates for m in self.model.values()))
    @rule(data=st.data(), who=st.sampled_from([0, 1]))
    def retract(self, data: st.DataObject, who: int) -> None:
        """Retract a correction (again, if it already was)."""
        self.retract_one(self._pick(data, self._corrections()), who)

    def retract_one(self, rid: str, who: int = 0) -> None:
        """Retract one correction, and in the model (a second retraction changes nothing)."""
        who = self._writer(who)
        self._wrapper(who).retract(rid)
        if not self.model[rid].retracted:
            self.model[rid] = replace(self.model[rid], retracted=True)
            if who == 0:
                self.synced = True

    @rule(who=st.sampled_from([0, 1]))
    def repair(self, who: int = 0) -> None:
        """Repair: afterwards every stored link must be right, raw records included.

        A repair reads every record, so the wrapper that runs it knows every correction
        afterwards, and the other refreshes at its next read.
        """
        report = self._wrapper(who).repair()
        assert report.records == len(self.model)
        self.lagging.clear()
        self.synced = True
        self.model = {
            rid: replace(m, time=m.when) if m.time is None else m for rid, m in self.model.items()
        }

    @rule(
        data=st.data(),
        verb=st.sampled_from(["add", "upsert", "update"]),
        size=st.integers(1, 5),
        who=st.sampled_from([0, 1]),
    )
    def write_batch(self, data: st.DataObject, verb: str, size: int, who: int) -> None:
        """Write a batch mixing existing ids, new memories, new and changed corrections.

        chromadb ignores an add of an existing id, but a correction in the same call still
        links that record; a correction too broad alone is too broad when the records it
        reaches are written with it.
        """
        entries = self._draw_entries(data, size)
        ids = [rid for rid, _, _ in entries]
        docs = [doc for _, doc, _ in entries]
        metas = [meta for _, _, meta in entries]

        def call(w: nowline.Collection) -> None:
            getattr(w, verb)(ids=ids, documents=docs, metadatas=metas)

        self._write(who, verb, entries, call)

    @rule(
        data=st.data(),
        verb=st.sampled_from(["add", "upsert"]),
        user=st.sampled_from(USERS),
        who=st.sampled_from([1, 0]),
    )
    def write_correction_with_its_records(
        self, data: st.DataObject, verb: str, user: str | None, who: int
    ) -> None:
        """Write a correction in one call with records it reaches, stored ones and new ones.

        An add of a stored id is ignored by chromadb, but the correction still links that
        record; the records written with the correction count towards its reach limit.
        """
        entries = self._draw_cluster(data, user, set())
        ids = [rid for rid, _, _ in entries]
        docs = [doc for _, doc, _ in entries]
        metas = [meta for _, _, meta in entries]

        def call(w: nowline.Collection) -> None:
            getattr(w, verb)(ids=ids, documents=docs, metadatas=metas)

        self._write(who, verb, entries, call)

    def _draw_entries(self, data: st.DataObject, size: int) -> list[Entry]:
        """Draw the records of a batch (unique ids, a document for each)."""
        kinds = ["memory", "correction", "cluster"]
        if self.model:
            kinds += ["existing", "existing", "recorrect"]
        if self._corrections():
            kinds.append("uncorrect")
        entries: list[Entry] = []
        used: set[str] = set()
        for _ in range(size):
            kind = data.draw(st.sampled_from(kinds), label="kind")
            user = data.draw(st.sampled_from(USERS), label="user")
            if kind == "cluster":
                entries += self._draw_cluster(data, user, used)
                continue
            if kind == "memory":
                rid = f"b{next(self.ids)}"
                entries.append((rid, data.draw(texts), _user_meta(user)))
            elif kind == "correction":
                rid = f"b{next(self.ids)}"
                old = data.draw(phrase_lists, label="old")
                text = _fix_text(old, data.draw(st.sampled_from(TARGETS)))
                meta: dict[str, Any] = {**(_user_meta(user) or {}), "deprecates": old}
                if data.draw(st.booleans(), label="observed"):
                    meta["observed_at"] = data.draw(st.sampled_from(OBSERVED))
                entries.append((rid, text, meta))
            else:
                pool = self._corrections() if kind == "uncorrect" else sorted(self.model)
                rid = self._pick(data, [r for r in pool if r not in used] or pool)
                if rid in used:
                    continue
                m = self.model[rid]
                doc = m.document
                patch: dict[str, Any] | None
                if kind == "uncorrect":
                    patch = {"deprecates": None}
                elif kind == "recorrect":
                    old = data.draw(phrase_lists, label="old")
                    doc = _fix_text(old, data.draw(st.sampled_from(TARGETS)))
                    patch = {"deprecates": old}
                else:
                    change = data.draw(st.sampled_from(["same", "text", "k", "scope"]))
                    patch = None
                    if change == "text":
                        doc = data.draw(texts)
                        if m.deprecates:
                            doc = f"{doc} (was {' and '.join(m.deprecates)})"
                    elif change == "k":
                        patch = {"k": data.draw(st.integers(0, 3))}
                    elif change == "scope":
                        patch = {"user_id": user}
                entries.append((rid, doc, patch))
            used.add(rid)
        return entries

    def _draw_cluster(self, data: st.DataObject, user: str | None, used: set[str]) -> list[Entry]:
        """Draw a correction with records it reaches, in a drawn order.

        The records are stored ones (written again as they are) and new memories, all in the
        correction's scope.
        """
        present = [
            p
            for p in IDENTIFIERS
            if any(m.user == user and occurs(p, m.document) for m in self.model.values())
        ]
        phrase = data.draw(st.sampled_from(present or IDENTIFIERS), label="phrase")
        named = sorted(
            rid
            for rid, m in self.model.items()
            if m.user == user and rid not in used and occurs(phrase, m.document)
        )
        cluster: list[Entry] = [(rid, self.model[rid].document, None) for rid in named[:2]]
        for _ in range(data.draw(st.integers(0, 2), label="memories")):
            cluster.append((f"b{next(self.ids)}", f"deploy {phrase}", _user_meta(user)))
        fix = (
            f"b{next(self.ids)}",
            _fix_text([phrase], data.draw(st.sampled_from(TARGETS))),
            {**(_user_meta(user) or {}), "deprecates": [phrase]},
        )
        cluster.insert(data.draw(st.integers(0, len(cluster)), label="at"), fix)
        used.update(rid for rid, _, _ in cluster)
        return cluster

    @rule(
        data=st.data(),
        verb=st.sampled_from(["add", "upsert", "update"]),
        size=st.integers(1, 4),
        bad=st.sampled_from(CHROMA_BAD + NOWLINE_BAD),
        big=st.integers(0, 5).map(lambda n: n == 0),
    )
    def write_batch_with_an_invalid_record(
        self, data: st.DataObject, verb: str, size: int, bad: str, big: bool
    ) -> None:
        """A batch with one invalid record is refused whole: nothing is stored.

        The error is the one a bare chromadb collection raises for the same call (class and
        message); a malformed ``deprecates``, which chromadb accepts, is InvalidCorrection.
        With ``big`` the batch has 5,001 records and the invalid one is last.
        """
        entries = self._draw_entries(data, size)
        if big:
            entries += [(f"p{i}", f"note {i}", {"k": i}) for i in range(BIG - len(entries) - 1)]
            at = len(entries)
        else:
            at = data.draw(st.integers(0, len(entries)), label="at")
        ids: list[Any] = [rid for rid, _, _ in entries]
        docs: list[Any] = [doc for _, doc, _ in entries]
        metas: list[Any] = [meta for _, _, meta in entries]
        bad_id, bad_doc, bad_meta = f"x{next(self.ids)}", "deploy acme/app", {"k": 1}
        if bad == "nested-dict":
            bad_meta = {"k": {"nested": 1}}
        elif bad == "empty-list":
            bad_meta = {"k": []}
        elif bad == "mixed-list":
            bad_meta = {"k": [1, "a"]}
        elif bad == "set-value":
            bad_meta = {"k": {1, 2}}
        elif bad == "empty-key":
            bad_meta = {"": 1}
        elif bad == "document-int":
            bad_doc = 5  # type: ignore[assignment]
        elif bad == "id-int":
            bad_id = 7  # type: ignore[assignment]
        elif bad == "empty-id":
            bad_id = ""
        elif bad == "duplicate-id" and ids:
            bad_id = ids[data.draw(st.integers(0, len(ids) - 1), label="twin")]
        elif bad == "deprecates-empty-string":
            bad_meta = {"deprecates": [""]}
        elif bad == "deprecates-int":
            bad_meta = {"deprecates": 5}
        ids.insert(at, bad_id)
        docs.insert(at, bad_doc)
        metas.insert(at, bad_meta)
        embeddings: list[Any] | None = None
        if bad in ("dimension", "nan-embedding"):
            embeddings = [list(map(float, v)) for v in FakeEmbedding()([str(d) for d in docs])]
            embeddings[at] = [float("nan")] * 32 if bad == "nan-embedding" else [0.5] * 16

        def call(c: Any) -> None:
            sent = metas
            if verb == "add" and not isinstance(c, nowline.Collection):
                # In add(), nowline reads a None value as "no value" where chromadb refuses
                # it (DESIGN §10): ask chromadb about the call as nowline reads it.
                sent = [_without_none(m) for m in metas]
            getattr(c, verb)(ids=ids, documents=docs, metadatas=sent, embeddings=embeddings)

        if bad in NOWLINE_BAD:
            before = snapshot(self.raw)
            with pytest.raises(nowline.InvalidCorrection):
                call(self.col)
            assert snapshot(self.raw) == before, "a refused write changed the store"
        elif bad == "duplicate-id" and len(ids) == 1:
            return  # nothing to duplicate
        else:
            # chromadb's client-side checks come first, then nowline's guards, then the checks
            # chromadb makes in its store (an empty id or key, a dimension, NaN): when the rest
            # of the batch breaks a guard, that guard's error may come first.
            _, _, guard, _ = self._predict(verb, entries, 0)
            self._refused_like_chromadb(call, guard)

    # ------------------------------------------------------------- deletes and reads

    @rule(data=st.data(), kind=st.sampled_from(BAD_DELETES))
    def delete_with_bad_arguments(self, data: st.DataObject, kind: str) -> None:
        """delete() with arguments chromadb refuses raises its error and changes nothing.

        The target is a correction that holds records when there is one (deleting it would
        unlink them).
        """
        holding = {c for e in expected(self._records(), "user_id").values() for c in e.by}
        pool = sorted(holding) or self._corrections() or sorted(self.model) or ["none"]
        rid = self._pick(data, pool)
        args: dict[str, Any] = {
            "ids-and-limit": {"ids": [rid], "limit": 1},
            "nothing": {},
            "unknown-operator": {"where": {"$bad": 1}},
            "empty-where": {"where": {}},
            "where-document-int": {"where_document": {"$contains": 5}},
            "negative-limit": {"where": {"user_id": "u1"}, "limit": -1},
            "str-limit": {"where": {"user_id": "u1"}, "limit": "1"},
            "empty-ids": {"ids": []},
            "int-id": {"ids": [rid, 5]},
        }[kind]
        self._refused_like_chromadb(lambda c: c.delete(**args))

    @precondition(lambda self: self.model)
    @rule(
        user=st.sampled_from(["u1", "u2"]),
        word=st.sampled_from([None, *WORDS]),
        limit=st.sampled_from([None, 1, 2]),
        who=st.sampled_from([0, 1]),
    )
    def delete_where(self, user: str, word: str | None, limit: int | None, who: int) -> None:
        """delete(where=..., limit=...) deletes what chromadb selects; corrections are unlinked."""
        who = self._writer(who)
        where = {"user_id": user}
        doc_filter = {"$contains": word} if word else None
        matching = {
            rid
            for rid, m in self.model.items()
            if m.user == user and (word is None or word in m.document)
        }
        before = set(self.raw.get(include=[])["ids"])
        self._wrapper(who).delete(where=where, where_document=doc_filter, limit=limit)
        deleted = before - set(self.raw.get(include=[])["ids"])
        assert deleted <= matching
        assert len(deleted) == (len(matching) if limit is None else min(limit, len(matching)))
        if any(self.model[rid].deprecates for rid in deleted) and who == 0:
            self.synced = True
        for rid in deleted:
            del self.model[rid]
        self.lagging -= deleted

    @rule(
        data=st.data(),
        limit=st.sampled_from([None, 0, 1, 2, 5]),
        offset=st.sampled_from([None, 0, 1, 3]),
        include=st.sampled_from([["documents", "metadatas"], ["metadatas"], []]),
        user=st.sampled_from([None, "u1", "u2"]),
        by_id=st.booleans(),
    )
    def get_matches_chromadb(
        self,
        data: st.DataObject,
        limit: int | None,
        offset: int | None,
        include: list[str],
        user: str | None,
        by_id: bool,
    ) -> None:
        """get() (of a few ids, or of a filter, with limit and offset) returns what chromadb does.

        Metadata comes back without nowline's keys, and None when only they were stored.
        """
        ids = None
        if by_id:
            known = data.draw(st.lists(st.sampled_from(sorted(self.model) or ["none"]), max_size=5))
            ids = [*dict.fromkeys(known), "missing"]
        if data.draw(st.booleans(), label="bool"):
            limit, offset = data.draw(st.sampled_from([(True, None), (None, True), (1, False)]))
        self._same_get(ids, {"user_id": user} if user else None, limit, offset, include)

    @precondition(lambda self: self.model)
    @rule(
        data=st.data(),
        limit=st.sampled_from([1, 2, 0, None]),
        offset=st.sampled_from([1, None, 2]),
        include=st.sampled_from([["documents", "metadatas"], []]),
    )
    def get_many_ids(
        self, data: st.DataObject, limit: int | None, offset: int | None, include: list[str]
    ) -> None:
        """get() of more ids than one page (6,000) honours limit and offset as chromadb does."""
        known = data.draw(st.lists(st.sampled_from(sorted(self.model)), min_size=1, max_size=5))
        ids = [*dict.fromkeys(known), *(f"missing{i}" for i in range(MANY_IDS))]
        self._same_get(ids, None, limit, offset, include)

    def _same_get(
        self,
        ids: list[str] | None,
        where: dict[str, Any] | None,
        limit: Any,
        offset: Any,
        include: list[str],
    ) -> None:
        """Assert that the first wrapper's get() returns the raw get() without nowline's keys.

        When the raw get() raises (a Chroma server refuses a bool ``offset``), the wrapper
        must raise the same error (class and message).
        """
        args = {"ids": ids, "where": where, "limit": limit, "offset": offset, "include": include}
        try:
            want = self.raw.get(**args)
        except Exception as exc:
            with pytest.raises(Exception) as refused:
                self.col.get(**args)
            assert (type(refused.value), str(refused.value)) == (type(exc), str(exc))
            return
        got = self.col.get(**args)
        assert got["ids"] == want["ids"]
        assert got["documents"] == want["documents"]
        raw_metas = want["metadatas"]
        stripped = [strip_nowline(m) for m in raw_metas] if raw_metas is not None else None
        assert got["metadatas"] == stripped

    @precondition(lambda self: self.model)
    @rule(as_of=st.sampled_from(OBSERVED))
    def recall_as_of(self, as_of: float) -> None:
        """recall(as_of=t) shows the store as it was then (records written since left out).

        A record written around nowline has no stored time: it takes part with its observed_at
        (or at time 0 without one).
        """
        got = recall_states(self.col, as_of=as_of)
        want = expected_states(self._records(), "user_id", as_of)
        assert set(got) <= set(want)
        assert got == {k: v for k, v in want.items() if k in got}

    # ------------------------------------------------------------ around nowline

    @rule(text=texts, user=st.sampled_from(USERS))
    def write_around_nowline(self, text: str, user: str | None) -> None:
        """Add a plain memory with the raw chromadb collection (no links, no time)."""
        rid = f"r{next(self.ids)}"

        def change() -> None:
            meta = _user_meta(user)
            self.raw.add(ids=[rid], documents=[text], metadatas=[meta] if meta else None)
            self.model[rid] = Model(text, meta or {})

        self._around(change, {rid})

    @rule(
        old=phrase_lists,
        new=st.sampled_from(TARGETS + PHRASES),
        user=st.sampled_from(USERS),
        observed=st.sampled_from([None, *OBSERVED]),
        named=st.booleans(),
    )
    def add_correction_around_nowline(
        self, old: list[str], new: str, user: str | None, observed: float | None, named: bool
    ) -> None:
        """Add a correction with the raw collection: no guards, no links, no stored time.

        Its text may not even name what it deprecates (no guard checks it).
        """
        assume(not any(same_value(new, o) for o in old))  # the new-value guard's case
        rid = f"rc{next(self.ids)}"
        text = _fix_text(old, new) if named else f"now {new}"
        meta: dict[str, Any] = {**(_user_meta(user) or {}), "deprecates": old}
        if observed:
            meta["observed_at"] = observed

        def change() -> None:
            # A correction written around nowline carries its scope key itself, as the
            # README asks of a plain client in a scoped store (the scope travels with it).
            self.raw.add(ids=[rid], documents=[text], metadatas=[{**meta, **SCOPED}])
            self.model[rid] = Model(text, meta)

        self._around(change, {rid})

    @precondition(lambda self: self.model)
    @rule(
        data=st.data(),
        change=st.sampled_from(["text", "strings", "uncorrect", "scope", "observed"]),
        prefer_correction=st.booleans(),
    )
    def edit_around_nowline(
        self, data: st.DataObject, change: str, prefer_correction: bool
    ) -> None:
        """Edit a record with the raw collection, correction or not.

        Its text, its deprecated strings (a plain memory becomes a correction), no strings (a
        correction becomes a plain memory), its scope or its observed_at.
        """
        pool = (self._corrections() if prefer_correction else []) or sorted(self.model)
        rid = self._pick(data, pool)
        doc: str | None = None
        patch: dict[str, Any] | None = None
        if change == "text":
            doc = data.draw(st.one_of(texts, phrase_lists.map(lambda p: _fix_text(p, "acme/web"))))
        elif change == "strings":
            patch = {"deprecates": data.draw(phrase_lists)}
        elif change == "uncorrect":
            patch = {"deprecates": None}
        elif change == "scope":
            patch = {"user_id": data.draw(st.sampled_from(USERS))}
        else:
            patch = {"observed_at": data.draw(st.sampled_from(OBSERVED))}

        def edit() -> None:
            sent = {**patch, **SCOPED} if patch is not None and patch.get("deprecates") else patch
            self.raw.update(
                ids=[rid],
                documents=[doc] if doc is not None else None,
                metadatas=[sent] if sent is not None else None,  # type: ignore[list-item]
            )
            m = self.model[rid]
            new_doc = doc if doc is not None else m.document
            self.model[rid] = replace(m, document=new_doc, meta=_merged(m.meta, patch))

        self._around(edit, {rid})

    @precondition(lambda self: self.model)
    @rule(data=st.data(), prefer_correction=st.booleans())
    def delete_around_nowline(self, data: st.DataObject, prefer_correction: bool) -> None:
        """Delete a record (a correction, mostly) with the raw collection: nothing is unlinked."""
        pool = (self._corrections() if prefer_correction else []) or sorted(self.model)
        rid = self._pick(data, pool)

        def change() -> None:
            self.raw.delete(ids=[rid])
            del self.model[rid]

        self._around(change, {rid})

    # ---------------------------------------------------------- the second wrapper

    @rule()
    def reopen_second_wrapper(self) -> None:
        """Replace the second wrapper by a new one (its first read refreshes)."""
        self.col2 = self._second()
        self.synced = True

    # --------------------------------------------------------------------- threads

    @rule(
        ops=st.lists(
            st.tuples(
                st.sampled_from(["correct", "correct", "remember", "retract", "delete"]),
                st.integers(0, 2**16),
                phrase_lists,
                texts,
                st.sampled_from(USERS),
            ),
            min_size=1,
            max_size=3,
        ),
        readers=st.integers(2, 3),
        who=st.sampled_from([1, 0]),
    )
    def write_while_reading(self, ops: list[tuple[Any, ...]], readers: int, who: int) -> None:
        """Write in one thread while other threads call check() and recall() (both wrappers).

        No read may raise; the writes land as if alone (the invariants check the end state).
        A correction written here carries extra strings, so the matcher grows while read; the
        second wrapper's check() reads no store until a refresh is due, so its readers spend
        their time in the matcher the writer (mostly that wrapper) changes.
        """
        errors: list[str] = []
        done = threading.Event()
        who = self._writer(who)  # one writer for the whole rule

        def write() -> None:
            for kind, pick, old, text, user in ops:
                if kind == "correct":
                    n = next(self.ids)
                    strings = [*old, *(f"z{n}-{j}" for j in range(PADS))]
                    self.correct_one(
                        _fix_text(old, "acme/web"),
                        strings,
                        user,
                        who=who,
                        allow_absent=True,
                        unlimited=True,
                    )
                elif kind == "remember":
                    self.remember(text, user, None, who)
                elif kind == "retract" and self._corrections():
                    corrections = self._corrections()
                    self.retract_one(corrections[pick % len(corrections)], who)
                elif kind == "delete" and self.model:
                    ids = sorted(self.model)
                    self.delete_one(ids[pick % len(ids)], who)

        probe = " ".join(PHRASES)

        def read(n: int) -> None:
            while not done.is_set():
                for user in USERS:
                    if n == 0:
                        self.col.check(probe, metadata={"user_id": user})
                    else:
                        self.col2.check(probe, metadata={"user_id": user})
                if n == 0:
                    try:
                        self.col.recall("deploy acme/app", n_results=3)
                    except chromadb.errors.InternalError as exc:
                        # chromadb 1.5.9's local store: a query that opens a collection's
                        # vector index while another thread writes it can find the index
                        # folder without its files (rust/segment/src/local_hnsw.rs,
                        # UninitializedSegment; cf. chroma-core/chroma#4212). Not nowline's.
                        if "Nothing found on disk" not in str(exc):
                            raise

        def guarded(target: Callable[[], None], writer: bool) -> Callable[[], None]:
            def run() -> None:
                try:
                    target()
                except BaseException as exc:
                    where = traceback.extract_tb(exc.__traceback__)[-1]
                    errors.append(f"{type(exc).__name__}: {exc} ({where.filename}:{where.lineno})")
                finally:
                    if writer:
                        done.set()

            return run

        threads = [threading.Thread(target=guarded(write, True))]
        threads += [
            threading.Thread(target=guarded(lambda n=n: read(n), False)) for n in range(readers)
        ]
        interval = sys.getswitchinterval()
        sys.setswitchinterval(1e-5)
        try:
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            sys.setswitchinterval(interval)
        assert errors == []

    # --------------------------------------------------------------- invariants

    @invariant()
    def stored_data_is_the_users(self) -> None:
        """Ids, documents and user metadata are stored as the user wrote them."""
        got = self.col.get(include=["documents", "metadatas"])
        rows = dict(
            zip(got["ids"], zip(got["documents"], got["metadatas"], strict=True), strict=True)
        )
        want = {rid: (m.document, dict(m.meta) or None) for rid, m in self.model.items()}
        assert rows == want, "stored data differs:\n" + _diff(rows, want)
        assert self.col.count() == len(self.model)

    @invariant()
    def recall_matches_the_model(self) -> None:
        """Every record recalls with the model's role and correction lines."""
        got = recall_states(self.col)
        want = expected_states(self._records(), "user_id")
        missing = [rid for rid in want if rid not in got]
        assert all(unreachable(self.col.raw, rid) for rid in missing), missing
        want = {k: v for k, v in want.items() if k in got}
        assert got == want, "recall differs:\n" + _diff(got, want)

    @invariant()
    def stored_links_match_the_model(self) -> None:
        """Stored nowline_by/nowline_role equal the model's (lagging records: after a repair)."""
        got = self.col.raw.get(include=["documents", "metadatas"])
        stored = {
            rid: (
                tuple(sorted((meta or {}).get("nowline_by") or ())),
                (meta or {}).get("nowline_role"),
            )
            for rid, meta in zip(got["ids"], got["metadatas"], strict=True)
        }
        want = self._links()
        for rid in self.lagging:
            stored.pop(rid, None)
            want.pop(rid, None)
        assert stored == want, "stored links differ:\n" + _diff(stored, want)

    @invariant()
    def check_matches_the_model(self) -> None:
        """check() of a text naming every string trips the model's corrections, per scope."""
        self._check_matches(self.col)

    def _check_matches(self, col: nowline.Collection) -> None:
        """Assert check() of a probe naming every string through ``col``, per scope."""
        probe = " ".join(PHRASES)
        for user in USERS:
            trips = col.check(probe, metadata={"user_id": user})
            got = sorted((t.correction.id, t.newest.id) for t in trips)
            pseudo = Model(probe, _user_meta(user) or {}, WALL * 2).record("\x00probe")
            exp = expected([*self._records(), pseudo], "user_id")
            # A trip's newest is the newest of the newest of each supersessor: the last.
            newest = {c: exp[c].now[-1] if exp[c].now else c for c in exp["\x00probe"].by}
            assert got == sorted(newest.items()), user

    @invariant()
    def second_wrapper_agrees(self) -> None:
        """The second wrapper shows every record and trips as the model says (when it must)."""
        if not self.synced:
            return
        ids = sorted(self.model)
        got = {
            h.id: (h.role, tuple(sorted(c.id for c in h.direct)), tuple(c.id for c in h.now))
            for h in self.col2.hits(ids)
        }
        want = expected_states(self._records(), "user_id")
        assert got == want, "the second wrapper differs:\n" + _diff(got, want)
        self._check_matches(self.col2)


def _settings(examples: int = 25) -> settings:
    """Return the machine's settings: bounded by default, larger through the environment.

    By default (25 programs of 25 steps; over a Chroma server fewer, as each call is slower)
    under a minute on a loaded 2-CPU machine when every program passes.
    ``NOWLINE_SM_EXAMPLES`` and ``NOWLINE_SM_STEPS`` set the number of programs and their
    length (a long run: 300 and 50). Shrinking a failure of this machine can take minutes, so
    it is off unless ``NOWLINE_SHRINK=1`` is set; the failing program is printed (and saved
    for replay) either way. The programs are the same in every run (derandomized), so that
    ``make test`` passes or fails alike on every machine; ``NOWLINE_SM_RANDOM=1`` draws new
    ones (how a long run explores).
    """
    phases = list(Phase) if os.environ.get("NOWLINE_SHRINK") else [Phase.reuse, Phase.generate]
    return settings(
        derandomize=not os.environ.get("NOWLINE_SM_RANDOM"),
        max_examples=int(os.environ.get("NOWLINE_SM_EXAMPLES", str(examples))),
        stateful_step_count=int(os.environ.get("NOWLINE_SM_STEPS", "25")),
        deadline=None,
        phases=phases,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        print_blob=True,
    )


def test_wrapper_agrees_with_the_model(
    module_client: chromadb.api.ClientAPI, request: pytest.FixtureRequest
) -> None:
    """Random programs of writes and reads keep the store equal to the reference model."""
    NowlineMachine.client = module_client
    examples = 12 if backend(request.config) == "http" else 25
    run_state_machine_as_test(NowlineMachine, settings=_settings(examples))


def test_minimal_program_found_by_hypothesis(module_client: chromadb.api.ClientAPI) -> None:
    """Editing the text of a retracted correction keeps the stored links of the model."""
    NowlineMachine.client = module_client
    machine = NowlineMachine()
    machine.correct(old=["acme/app"], new="acme/web", extra="", user="u1", observed=None)
    machine.correct(old=["acme/app"], new="acme/site", extra="", user="u1", observed=None)
    machine.retract_one("c1")
    machine.update_one("c1", "acme/app")
    machine.stored_links_match_the_model()


def test_a_repeat_is_answered_with_the_standing_correction(
    module_client: chromadb.api.ClientAPI,
) -> None:
    """The same change told twice is stored once, until the first is retracted (§6)."""
    NowlineMachine.client = module_client
    machine = NowlineMachine()
    machine.remember("acme/app", user="u1", observed=None)
    for _ in range(2):
        machine.correct(old=["acme/app"], new="acme/web", extra="", user="u1", observed=None)
    assert len(machine._corrections()) == 1
    machine.recall_matches_the_model()
    machine.retract_one(machine._corrections()[0])
    machine.correct(old=["acme/app"], new="acme/web", extra="", user="u1", observed=None)
    assert len(machine._corrections(retracted=False)) == 1
    machine.stored_links_match_the_model()
    machine.recall_matches_the_model()


# ----------------------------------------------------------------- an async second wrapper


class _Loop:
    """One event loop on a thread of its own; :meth:`run` waits for a coroutine run on it.

    An ``AsyncHttpClient`` belongs to the loop it was opened in, so every call of one machine
    run goes through the same loop; calls from several threads run there as concurrent tasks.
    """

    def __init__(self) -> None:
        """Start the loop's thread."""
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="sm-loop", daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Run ``coro`` on the loop and return its result (or raise its error)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def close(self) -> None:
        """Stop the loop and its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class _SyncOverAsync:
    """A ``nowline.AsyncCollection`` with the sync methods the machine calls (via a _Loop)."""

    def __init__(self, col: nowline.AsyncCollection, loop: _Loop) -> None:
        """Keep the async collection and the loop its calls run on."""
        self._col = col
        self._loop = loop

    def __getattr__(self, name: str) -> Any:
        """Return the attribute; a coroutine method runs to its end on the loop."""
        attr = getattr(self._col, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            return self._loop.run(attr(*args, **kwargs))

        return call


class AsyncSecondMachine(NowlineMachine):
    """The machine with an async second wrapper (``nowline.AsyncCollection``).

    The second wrapper is over chromadb's ``AsyncHttpClient`` on the same server database as
    the first (sync) wrapper. Every rule and invariant is the parent's: the two wrappers must
    agree with the model and so with each other, also while threads read through both (on the
    async side, as tasks of one event loop) and one writes.
    """

    aclient: ClassVar[Any] = None
    aloop: ClassVar[_Loop | None] = None

    def _second(self) -> nowline.Collection:
        """Return a new async second wrapper (as a sync face): no refresh by time, small reach."""
        assert self.aloop is not None
        raw2 = self.aloop.run(
            self.aclient.get_collection(self.raw.name, embedding_function=FakeEmbedding())
        )
        col = nowline.wrap(raw2, scope_key="user_id", refresh_seconds=3600, max_reach=REACH)
        return cast(nowline.Collection, _SyncOverAsync(col, self.aloop))


def test_async_second_wrapper_agrees_with_the_model(request: pytest.FixtureRequest) -> None:
    """Random programs through a sync and an async wrapper of one server collection.

    Runs with ``--backend=http`` only (an AsyncHttpClient needs a server; the local run would
    start one just for this): ``make test`` runs it once.
    """
    if backend(request.config) != "http":
        pytest.skip("an async wrapper needs a Chroma server: runs with --backend=http")
    chroma_server: ChromaServer = request.getfixturevalue("chroma_server")
    database = chroma_server.new_database()
    NowlineMachine.client = AsyncSecondMachine.client = chroma_server.client(database)
    loop = _Loop()
    try:
        AsyncSecondMachine.aloop = loop
        AsyncSecondMachine.aclient = loop.run(
            _async_client(chroma_server.host, chroma_server.port, database)
        )
        run_state_machine_as_test(AsyncSecondMachine, settings=_settings(12))
    finally:
        AsyncSecondMachine.aclient = AsyncSecondMachine.aloop = None
        loop.close()


async def _async_client(host: str, port: int, database: str) -> Any:
    """Return chromadb's AsyncHttpClient on a server database (opened in the running loop)."""
    return await chromadb.AsyncHttpClient(host=host, port=port, database=database)
