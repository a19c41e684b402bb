"""Registry freshness (``nowline._io.freshness``): the generation mark and when a process lists.

The flows (refresh, catch-up, load, the marks around a write) run against the scripted store
of ``test_flows.py``, so each test says exactly what the store holds, which mark it shows,
what the registry held, and what was read.
"""

from __future__ import annotations

from typing import Any

import pytest

from nowline._io.execute import run_sync
from nowline._io.freshness import (
    MARKED,
    RESYNC_SECONDS,
    RESYNC_SHARE,
    Freshness,
    catch_up_flow,
    compact_flow,
    load_flow,
    marked_flow,
    marking_flow,
    observe,
    refresh_flow,
    shared,
)
from nowline._io.mark import DONE, UNKNOWN, WRITING, new_mark, state_of, token_of
from nowline._rules import records as R
from nowline._rules.records import CorrectionInfo, Record
from nowline._rules.registry import Registry
from tests.core.test_flows import ScriptedStore


def _row(deprecates: str, t: float, **extra: Any) -> tuple[str, dict[str, Any]]:
    """Return a stored, marked correction of ``deprecates`` (document, metadata)."""
    meta = {R.DEPRECATES: [deprecates], R.TIME: t, R.CORRECTION: True, **extra}
    return f"Moved from {deprecates} to elsewhere.", meta


def _info(cid: str, row: tuple[str, dict[str, Any]]) -> CorrectionInfo:
    """Return the correction a stored row is, as the registry would hold it."""
    info = R.correction_info(Record(cid, *row))
    assert info is not None
    return info


def _loaded(store: ScriptedStore, refresh_seconds: float = 3600.0) -> tuple[Freshness, Registry]:
    """Return a freshness and registry loaded from ``store`` (no snapshot)."""
    fresh, registry = Freshness(refresh_seconds=refresh_seconds), Registry()
    run_sync(load_flow(fresh, registry, None), store)
    store.log.clear()
    return fresh, registry


# ------------------------------------------------------------------------------- marks


def test_a_mark_says_done_writing_or_unknown() -> None:
    """The marks nowline writes are recognised; anything else (a raw client's value) is unknown."""
    assert state_of(new_mark("done")) == DONE
    assert state_of(new_mark("writing")) == WRITING
    assert new_mark("done") != new_mark("done")
    for foreign in (
        None,
        "",
        "nowline-done:",
        "nowline-done:xyz",
        "hello",
        5,
        "nowline-done:" + "A" * 32,
    ):
        assert state_of(foreign) == UNKNOWN


def test_the_resync_interval_stretches_with_the_listing_and_the_bounds_follow() -> None:
    """Listings for writes around nowline take at most their share of a process's time."""
    fresh = Freshness(refresh_seconds=1.0)
    assert fresh.resync_interval() == RESYNC_SECONDS
    fresh.listing_cost, fresh.listings = 20.0, 1
    assert fresh.resync_interval() == pytest.approx(20.0 / RESYNC_SHARE)
    assert fresh.bounds() == pytest.approx((21.0, 20.0 / RESYNC_SHARE + 20.0))


def test_wrappers_of_one_collection_in_a_process_share_one_registry() -> None:
    """The same key gives the same registry and freshness; the quickest refresh wins."""
    key = (object(), "c", None, None)
    one, two = shared(key, 1.0), shared(key, 0.25)
    assert one is two and one.fresh.refresh_seconds == 0.25
    assert shared((object(), "c", None, None), 1.0) is not one


# ------------------------------------------------------------------------------ flows


def test_a_store_where_nothing_changes_costs_one_mark_read_and_no_listing() -> None:
    """With the mark unchanged, a refresh reads the mark and nothing else."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    store.mark = new_mark("done")
    fresh, registry = _loaded(store, refresh_seconds=0)
    for _ in range(3):
        assert run_sync(refresh_flow(fresh, registry, None), store) is False
    assert [type(op).__name__ for op in store.log] == ["ReadMark"] * 3


def test_a_refresh_reads_the_mark_at_most_every_refresh_seconds() -> None:
    """Within ``refresh_seconds`` of the last read, nothing is read at all."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    fresh, registry = _loaded(store, refresh_seconds=3600)
    store.mark = new_mark("done")
    assert run_sync(refresh_flow(fresh, registry, None), store) is False
    assert store.log == []


def test_a_mark_that_names_no_journal_entry_lists_every_kind_of_edit() -> None:
    """A writer that keeps no journal (an older nowline) changed the mark: everything is listed.

    Additions, deletions and an edit of a correction's text are all taken in.
    """
    store = ScriptedStore({"c": _row("a/b", 1.0), "gone": _row("x/y", 1.0)})
    store.mark = new_mark("done")
    fresh, registry = _loaded(store, refresh_seconds=0)
    del store.records["gone"]
    store.records["new"] = _row("p/q", 2.0)
    store.records["c"] = ("Moved from a/b to c/d, said otherwise.", _row("a/b", 1.0)[1])
    store.mark = new_mark("done")
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert set(registry.held()) == {"c", "new"}
    assert registry.held()["c"].document == "Moved from a/b to c/d, said otherwise."
    assert fresh.mark == store.mark and store.ops("Get")[0].where == MARKED


def test_a_missing_or_foreign_mark_is_caught_up_once_per_change() -> None:
    """A mark deleted or rewritten by a raw client means unknown: the process lists again."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    store.mark = new_mark("done")
    fresh, registry = _loaded(store, refresh_seconds=0)
    store.mark = None
    store.records["d"] = _row("x/y", 2.0)
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    store.mark = "rewritten by hand"
    store.records["e"] = _row("e/f", 3.0)
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert set(registry.held()) == {"c", "d", "e"}
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is False
    assert [type(op).__name__ for op in store.log] == ["ReadMark"]


def test_a_writing_mark_is_caught_up_twice_then_settles() -> None:
    """A write may not have landed under a writing mark: one more catch-up follows, then none."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    store.mark = new_mark("done")
    fresh, registry = _loaded(store, refresh_seconds=0)
    token = run_sync(marking_flow(Freshness(refresh_seconds=0), ["late"]), store)
    assert state_of(store.mark) == WRITING  # a writer died after its first mark
    assert run_sync(refresh_flow(fresh, registry, None), store) is False
    store.records["late"] = _row("l/m", 2.0)  # its records landed after that catch-up
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert "late" in registry.held() and fresh.settled
    assert not store.ops("Get")[0].where  # by the journal: the entry's ids, no listing
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is False
    assert [type(op).__name__ for op in store.log] == ["ReadMark"]
    del token


def test_the_resync_lists_writes_made_around_nowline_when_its_interval_passes() -> None:
    """An edit that changed no mark is found by the resync listing."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    store.mark = new_mark("done")
    fresh, registry = _loaded(store, refresh_seconds=0)
    store.records["c"] = _row("a/b", 1.0, **{R.RETRACTED: 5.0})
    assert run_sync(refresh_flow(fresh, registry, None), store) is False
    fresh.listed_at -= RESYNC_SECONDS
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert registry.held()["c"].retracted == 5.0


def test_a_catch_up_reads_held_corrections_it_does_not_list_by_id() -> None:
    """A correction found in a read, never marked, is kept while it stands, dropped once gone."""
    unmarked = ("Moved from u/v to w.", {R.DEPRECATES: ["u/v"], R.TIME: 1.0})
    store = ScriptedStore({"raw": unmarked})
    registry = Registry([_info("raw", unmarked), _info("gone", _row("x/y", 1.0))])
    fresh = Freshness(refresh_seconds=0)
    assert run_sync(catch_up_flow(fresh, registry, None, None), store) is True
    assert set(registry.held()) == {"raw"}
    assert [op.ids for op in store.ops("Get")][-1] == ["raw", "gone"]


def test_a_catch_up_that_overlapped_a_write_here_is_not_taken_in() -> None:
    """A listing older than the registry is refused, and the next operation catches up."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    registry = Registry()
    fresh = Freshness(refresh_seconds=0)
    flow = catch_up_flow(fresh, registry, None, None)
    op = flow.send(store.execute(next(flow)))  # the journal is read; then the listing
    registry.put(_info("meanwhile", _row("m/n", 2.0)))  # a write in another thread
    with pytest.raises(StopIteration) as stop:
        while True:
            op = flow.send(store.execute(op))
    assert stop.value.value is True and not fresh.known
    assert "c" not in registry.held()


def test_a_read_teaches_a_correction_written_around_nowline() -> None:
    """A row that is a correction the registry lacks is taken in; one no longer is, dropped."""
    registry = Registry([_info("was", _row("x/y", 1.0))])
    since = registry.version
    rows = [
        Record("raw", "Moved from u/v to w.", {R.DEPRECATES: ["u/v"], R.TIME: 1.0}),
        Record("was", "now a plain memory", {R.TIME: 1.0}),
        Record("mem", "a memory", None),
    ]
    observe(registry, None, rows, since)
    assert set(registry.held()) == {"raw"}
    registry.put(_info("other", _row("o/p", 1.0)))
    observe(registry, None, [Record("late", "Moved from q/r.", _row("q/r", 1.0)[1])], since)
    assert "late" not in registry.held()  # that read began before the registry changed


def test_a_write_marks_before_and_after_and_keeps_its_own_registry_caught_up() -> None:
    """With no other writer between, the writer's registry is caught up under its done mark."""
    store = ScriptedStore()
    store.mark = new_mark("done")
    fresh, _ = _loaded(store)
    token = run_sync(marking_flow(fresh, ["c"]), store)
    assert state_of(store.mark) == WRITING
    (entry,) = store.entries.values()
    assert entry.state == "writing" and entry.ids == {"c"} and token_of(store.mark) == entry.id
    run_sync(marked_flow(fresh, token, ["c"]), store)
    assert state_of(store.mark) == DONE and fresh.mark == store.mark and fresh.known
    assert store.entries[entry.id].state == "done" and token_of(store.mark) == entry.id
    assert fresh.applied is not None and fresh.applied.states == {entry.id: "done"}


def test_a_write_that_met_another_writers_mark_leaves_its_registry_to_catch_up() -> None:
    """Another writer's mark between the two means unknown: the next operation lists."""
    store = ScriptedStore()
    store.mark = new_mark("done")
    fresh, registry = _loaded(store)
    token = run_sync(marking_flow(fresh, ["c"]), store)
    other = Freshness(refresh_seconds=0)
    other_token = run_sync(marking_flow(other, ["d"]), store)  # another process writes
    store.records["d"] = _row("x/y", 2.0)
    run_sync(marked_flow(other, other_token, ["d"]), store)
    store.records["c"] = _row("a/b", 1.0)
    registry.put(_info("c", store.records["c"]))
    run_sync(marked_flow(fresh, token, ["c"]), store)
    assert fresh.mark != store.mark  # the next operation catches up, by the journal
    store.log.clear()
    fresh.refresh_seconds = 3600
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert set(registry.held()) == {"c", "d"} and fresh.listings == 1
    assert [op.ids for op in store.ops("Get")] == [["d"]]


def test_a_load_uses_a_snapshot_only_under_its_own_done_mark(tmp_path: Any) -> None:
    """Same mark: the snapshot, and no listing; another mark: a full listing, and a new snapshot."""
    from nowline._io import snapshot

    path = str(tmp_path / "c.snapshot.sqlite")
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    store.mark = new_mark("done")
    fresh = Freshness(refresh_seconds=1.0)
    registry = Registry()
    run_sync(load_flow(fresh, registry, None, path), store)
    snapshot.flush()
    assert snapshot.read(path) is not None and snapshot.read(path).mark == store.mark  # type: ignore[union-attr]
    store.log.clear()
    registry2 = Registry()
    run_sync(load_flow(Freshness(refresh_seconds=1.0), registry2, None, path), store)
    assert not store.ops("Get") and set(registry2.held()) == {"c"}
    store.records["d"] = _row("x/y", 2.0)
    store.mark = new_mark("done")
    registry3 = Registry()
    run_sync(load_flow(Freshness(refresh_seconds=1.0), registry3, None, path), store)
    assert set(registry3.held()) == {"c", "d"}


def test_no_snapshot_is_trusted_or_written_under_a_mark_that_is_not_done(tmp_path: Any) -> None:
    """Under a writing or unknown mark the load lists, and writes no snapshot."""
    from nowline._io import snapshot

    path = tmp_path / "c.snapshot.sqlite"
    for mark in (None, "foreign", new_mark("writing")):
        store = ScriptedStore({"c": _row("a/b", 1.0)})
        store.mark = mark
        run_sync(load_flow(Freshness(refresh_seconds=1.0), Registry(), None, str(path)), store)
        snapshot.flush()
        assert not path.exists()


def test_a_writer_saves_its_snapshot_under_its_own_done_mark_at_once(tmp_path: Any) -> None:
    """A process that wrote a correction saves what it knows without waiting for its exit."""
    from nowline._io import snapshot

    path = str(tmp_path / "c.snapshot.sqlite")
    store = ScriptedStore()
    store.mark = new_mark("done")
    fresh, registry = Freshness(refresh_seconds=1.0), Registry()
    run_sync(load_flow(fresh, registry, None, path), store)
    registry.put(_info("c", _row("a/b", 1.0)))  # what the write put in the registry
    token = run_sync(marking_flow(fresh, ["c"]), store)
    run_sync(marked_flow(fresh, token, ["c"], registry), store)
    snapshot.flush()
    saved = snapshot.read(path)
    assert saved is not None and saved.mark == store.mark and [i.id for i in saved.infos] == ["c"]


def test_a_process_that_starts_from_a_snapshot_lists_a_resync_interval_after_it_starts(
    tmp_path: Any,
) -> None:
    """A confirmed snapshot stands for a listing made as the process starts, whatever its age.

    So a new process reads no listing (not even from a snapshot listed long ago, or ahead of
    its clock); its resync comes a resync interval later, and finds what was written around
    nowline meanwhile.
    """
    from nowline._io import snapshot
    from tests.snapshot_files import read_state, write_state

    path = tmp_path / "c.snapshot.sqlite"
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    store.mark = new_mark("done")
    run_sync(load_flow(Freshness(refresh_seconds=0), Registry(), None, str(path)), store)
    snapshot.flush()
    store.records["raw"] = _row("x/y", 2.0)  # written around nowline: no new mark
    before = read_state(path)
    for listed in (0.0, 2e10):  # long ago; ahead of this clock
        write_state(path, {**before, "listed": listed})
        fresh, registry = Freshness(refresh_seconds=0), Registry()
        store.log.clear()
        run_sync(load_flow(fresh, registry, None, str(path)), store)
        run_sync(refresh_flow(fresh, registry, None), store)
        assert _reads(store) == [] and registry.get("raw") is None and fresh.listings == 0
        fresh.listed_at -= fresh.resync_interval()  # a resync interval later
        run_sync(refresh_flow(fresh, registry, None), store)
        assert _reads(store) == ["listing", "scan"] and registry.get("raw") is not None
        snapshot.flush()
    # The listing saved a snapshot of what it found: the next process starts from it.
    fresh, registry = Freshness(refresh_seconds=0), Registry()
    run_sync(load_flow(fresh, registry, None, str(path)), store)
    run_sync(refresh_flow(fresh, registry, None), store)
    assert "raw" in registry.held() and fresh.listings == 0


def test_a_process_that_starts_from_a_snapshot_counts_the_listing_cost_it_records(
    tmp_path: Any,
) -> None:
    """The bounds of a process that has not listed yet count what a listing cost its writer.

    Before, such a process reported ``refresh_seconds`` alone as its first bound, though a
    catch-up that must list (after a repair or a bulk write) takes a listing's time; and the
    cost passes on through every process that starts from a snapshot and saves one.
    """
    from nowline._io import snapshot
    from tests.snapshot_files import read_state, write_state

    path = str(tmp_path / "c.snapshot.sqlite")
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    store.mark = new_mark("done")
    writer = Freshness(refresh_seconds=1.0)
    run_sync(load_flow(writer, Registry(), None, path), store)
    snapshot.flush()
    assert read_state(path)["listing_cost"] == pytest.approx(writer.listing_cost)
    write_state(path, {**read_state(path), "listing_cost": 30.0})  # a big store's listing
    fresh = Freshness(refresh_seconds=1.0)
    run_sync(load_flow(fresh, Registry(), None, path), store)
    assert fresh.listings == 0
    # (the resync interval stretches with this process's own listings only)
    assert fresh.bounds() == pytest.approx((31.0, RESYNC_SECONDS + 30.0))
    assert snapshot.state_of(Registry(), fresh)["listing_cost"] == 30.0
    run_sync(refresh_flow(fresh, Registry(), None, force=True), store)  # it lists itself
    assert fresh.listings == 1 and fresh.bounds()[0] == pytest.approx(1.0 + fresh.listing_cost)


# ----------------------------------------------------------------------------- journal


def _write(store: ScriptedStore, cid: str | None, row: tuple[str, dict[str, Any]] | None) -> None:
    """Write one correction through the marks and the journal, as another process would.

    ``cid`` None writes a reset (a repair); ``row`` None deletes ``cid``.
    """
    writer = Freshness(refresh_seconds=0)
    changed = None if cid is None else [cid]
    token = run_sync(marking_flow(writer, changed), store)
    if cid is not None:
        if row is None:
            store.records.pop(cid, None)
        else:
            store.records[cid] = row
    run_sync(marked_flow(writer, token, changed), store)


def _reads(store: ScriptedStore) -> list[Any]:
    """Return what the logged reads of records asked for: a listing, a scan, or ids.

    A scan reads every record's metadata (the resync's, for corrections without the mark).
    """
    return [
        "listing"
        if op.where == MARKED
        else "scan"
        if op.where is None and op.ids is None
        else op.ids
        for op in store.ops("Get")
    ]


def test_a_catch_up_by_the_journal_reads_only_the_changed_corrections() -> None:
    """Additions, edits, retractions and deletions through nowline are read by id, not listed."""
    store = ScriptedStore({f"c{i}": _row(f"a/b{i}", 1.0) for i in range(50)})
    _write(store, "c0", _row("a/b0", 1.0))
    fresh, registry = _loaded(store, refresh_seconds=0)
    _write(store, "new", _row("p/q", 2.0))
    _write(store, "c1", ("Moved from a/b1 to z, said otherwise.", _row("a/b1", 1.0)[1]))
    _write(store, "c2", _row("a/b2", 1.0, **{R.RETRACTED: 3.0}))
    _write(store, "c3", None)
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    held = registry.held()
    assert "new" in held and "c3" not in held and held["c2"].retracted == 3.0
    assert held["c1"].document == "Moved from a/b1 to z, said otherwise."
    assert _reads(store) == [["c1", "c2", "c3", "new"]] and fresh.listings == 1


def test_an_entry_read_while_writing_is_read_again_once_done() -> None:
    """A write's records may land after a reader read its entry: its done mark brings it back."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    _write(store, "c", _row("a/b", 1.0))
    fresh, registry = _loaded(store, refresh_seconds=0)
    writer = Freshness(refresh_seconds=0)
    token = run_sync(marking_flow(writer, ["slow"]), store)
    assert run_sync(refresh_flow(fresh, registry, None), store) is False  # nothing landed yet
    assert run_sync(refresh_flow(fresh, registry, None), store) is False  # settles
    store.records["slow"] = _row("s/t", 2.0)
    run_sync(marked_flow(writer, token, ["slow"]), store)
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert "slow" in registry.held() and _reads(store) == [["slow"]]


def test_a_reset_entry_or_another_companion_lists_everything() -> None:
    """A repair's entry names no ids, and a companion made again lost entries: both list."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    _write(store, "c", _row("a/b", 1.0))
    fresh, registry = _loaded(store, refresh_seconds=0)
    store.records["raw"] = _row("r/s", 2.0)  # written around nowline, then repaired
    _write(store, None, None)
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert "raw" in registry.held() and _reads(store) == ["listing"]
    store.log.clear()
    store.entries.clear()  # the companion deleted by a plain client, then made again
    store.companion = "companion-2"
    store.records["lost"] = _row("l/m", 3.0)
    _write(store, "d", _row("d/e", 3.0))
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert {"lost", "d"} <= set(registry.held()) and _reads(store) == ["listing"]


def test_an_applied_entry_that_is_gone_unfolded_lists_everything() -> None:
    """A store restored from a backup lacks entries this process applied: it lists."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    _write(store, "c", _row("a/b", 1.0))
    backup = (dict(store.records), dict(store.entries), store.mark)
    fresh, registry = _loaded(store, refresh_seconds=0)
    _write(store, "later", _row("x/y", 2.0))
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    store.records, store.entries, store.mark = dict(backup[0]), dict(backup[1]), backup[2]
    _write(store, "c", _row("a/b", 1.0))  # a write after the restore changes the mark
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert "later" not in registry.held() and _reads(store)[0] == "listing"


def test_a_folded_journal_costs_a_reader_that_applied_it_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Done entries are folded into one that names its parts; it is read only where missed."""
    from nowline._io import journal

    monkeypatch.setattr(journal, "KEEP", 3)
    monkeypatch.setattr(journal, "wants_compaction", lambda token: False)  # folds: by hand
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    _write(store, "c", _row("a/b", 1.0))
    fresh, registry = _loaded(store, refresh_seconds=0)
    behind, registry2 = _loaded(store, refresh_seconds=0)
    for i in range(4):
        _write(store, f"n{i}", _row(f"n/{i}", 2.0))
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    run_sync(compact_flow(), store)
    (folded,) = store.entries.values()
    assert folded.ids == {"c", "n0", "n1", "n2", "n3"} and len(folded.parts) == 5
    _write(store, "n4", _row("n/4", 2.0))
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert _reads(store) == [["n4"]]  # the fold's parts were all applied here
    store.log.clear()
    assert run_sync(refresh_flow(behind, registry2, None), store) is True
    assert _reads(store) == [["c", "n0", "n1", "n2", "n3", "n4"]]
    assert set(registry2.held()) == set(registry.held())


def test_a_fold_beyond_the_limit_is_a_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fold of more ids than an entry may list names none: a reader that missed it lists."""
    from nowline._io import journal

    monkeypatch.setattr(journal, "KEEP", 1)
    monkeypatch.setattr(journal, "LIMIT", 2)
    monkeypatch.setattr(journal, "wants_compaction", lambda token: False)  # folds: by hand
    store = ScriptedStore()
    _write(store, "a", _row("a/a", 1.0))
    fresh, registry = _loaded(store, refresh_seconds=0)
    for cid in ("b", "c", "d"):
        _write(store, cid, _row(f"{cid}/{cid}", 1.0))
    run_sync(compact_flow(), store)
    (folded,) = store.entries.values()
    assert folded.ids is None
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert _reads(store) == ["listing"] and set(registry.held()) == {"a", "b", "c", "d"}


def test_a_snapshot_keeps_what_its_process_applied(tmp_path: Any) -> None:
    """A process that starts from a confirmed snapshot later catches up by the journal."""
    from nowline._io import snapshot

    path = str(tmp_path / "c.snapshot.sqlite")
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    _write(store, "c", _row("a/b", 1.0))
    run_sync(load_flow(Freshness(refresh_seconds=0), Registry(), None, path), store)
    snapshot.flush()
    fresh, registry = Freshness(refresh_seconds=0), Registry()
    run_sync(load_flow(fresh, registry, None, path), store)
    assert fresh.listings == 0 and fresh.applied is not None
    _write(store, "d", _row("d/e", 2.0))
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert _reads(store) == [["d"]] and set(registry.held()) == {"c", "d"}


def test_journal_entries_that_are_not_nowlines_are_not_read() -> None:
    """An entry of another shape makes the journal unknown; a record that is no entry is passed."""
    from nowline._io.journal import Entry, entry_meta, parse

    meta = entry_meta(Entry("e1", "done", frozenset({"c"}), frozenset({"p"})))
    journal = parse("x", ["e1"], [meta])
    assert journal is not None and journal.entries["e1"].ids == {"c"}
    for bad in (
        {"nowline_entry_state": "maybe"},
        {"nowline_entry_state": "done", "nowline_entry_ids": "[1]"},
        {"nowline_entry_state": "done", "nowline_entry_ids": "not json"},
        {"nowline_entry_state": "done", "nowline_entry_parts": "{}"},
    ):
        assert parse("x", ["e1"], [bad]) is None
    for foreign in ({"x": 1}, None):  # a plain client's record: not an entry
        assert parse("x", ["e1", "r"], [meta, foreign]) == journal


def test_a_whole_write_between_a_writers_first_read_and_its_mark_is_caught() -> None:
    """Writer B's write falls inside writer A's, unseen by the mark: A's journal read finds it."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    _write(store, "c", _row("a/b", 1.0))
    fresh, registry = _loaded(store, refresh_seconds=3600)
    flow = marking_flow(fresh, ["a"])
    first = store.execute(next(flow))  # A reads the mark ...
    _write(store, "b", _row("x/y", 2.0))  # ... B writes, whole ...
    op = flow.send(first)  # ... then A writes its entry and its writing mark
    with pytest.raises(StopIteration) as stop:
        while True:
            op = flow.send(store.execute(op))
    store.records["a"] = _row("p/q", 3.0)
    registry.put(_info("a", store.records["a"]))
    run_sync(marked_flow(fresh, stop.value.value, ["a"], registry), store)
    assert fresh.mark != store.mark  # not caught up: B's entry is not applied
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert set(registry.held()) == {"a", "b", "c"} and _reads(store) == [["b"]]


def test_repair_deletes_the_entries_a_dead_writer_left_writing() -> None:
    """A writer that died mid-write leaves its entry writing; repair's reset replaces it."""
    from nowline._io.flows import repair_flow
    from tests.core.test_flows import Subject

    store = ScriptedStore({"c": _row("a/b", 1.0)})
    _write(store, "c", _row("a/b", 1.0))
    run_sync(marking_flow(Freshness(refresh_seconds=0), ["dead"]), store)  # and it died
    (left,) = [e.id for e in store.entries.values() if e.state == "writing"]
    run_sync(repair_flow(Subject(store)._core), store)
    assert left not in store.entries
    assert [e.ids for e in store.entries.values() if e.state == "writing"] == []
    assert any(e.ids is None for e in store.entries.values())  # the repair's reset
