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
    load_flow,
    marked_flow,
    marking_flow,
    observe,
    refresh_flow,
    shared,
)
from nowline._io.mark import DONE, UNKNOWN, WRITING, new_mark, state_of
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
    fresh.listing_cost = 20.0
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


def test_a_changed_mark_catches_up_with_every_kind_of_edit() -> None:
    """Additions, deletions, retractions and an edit of a correction's text are all taken in."""
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
    store.mark = new_mark("writing")  # a writer died after its first mark
    assert run_sync(refresh_flow(fresh, registry, None), store) is False
    store.records["late"] = _row("l/m", 2.0)  # its records landed after that catch-up
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert "late" in registry.held() and fresh.settled
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is False
    assert [type(op).__name__ for op in store.log] == ["ReadMark"]


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
    op = next(flow)
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
    token = run_sync(marking_flow(fresh), store)
    assert state_of(store.mark) == WRITING
    run_sync(marked_flow(fresh, token), store)
    assert state_of(store.mark) == DONE and fresh.mark == store.mark and fresh.known


def test_a_write_that_met_another_writers_mark_leaves_its_registry_to_catch_up() -> None:
    """Another writer's mark between the two means unknown: the next operation lists."""
    store = ScriptedStore()
    store.mark = new_mark("done")
    fresh, _ = _loaded(store)
    token = run_sync(marking_flow(fresh), store)
    store.mark = new_mark("done")  # another process wrote meanwhile
    run_sync(marked_flow(fresh, token), store)
    assert not fresh.known


def test_a_load_uses_a_snapshot_only_under_its_own_done_mark(tmp_path: Any) -> None:
    """Same mark: the snapshot, and no listing; another mark: a full listing, and a new snapshot."""
    from nowline._io import snapshot

    path = str(tmp_path / "c.registry.json")
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

    path = tmp_path / "c.registry.json"
    for mark in (None, "foreign", new_mark("writing")):
        store = ScriptedStore({"c": _row("a/b", 1.0)})
        store.mark = mark
        run_sync(load_flow(Freshness(refresh_seconds=1.0), Registry(), None, str(path)), store)
        snapshot.flush()
        assert not path.exists()


def test_a_writer_saves_its_snapshot_under_its_own_done_mark_at_once(tmp_path: Any) -> None:
    """A process that wrote a correction saves what it knows without waiting for its exit."""
    from nowline._io import snapshot

    path = str(tmp_path / "c.registry.json")
    store = ScriptedStore()
    store.mark = new_mark("done")
    fresh, registry = Freshness(refresh_seconds=1.0), Registry()
    run_sync(load_flow(fresh, registry, None, path), store)
    registry.put(_info("c", _row("a/b", 1.0)))  # what the write put in the registry
    token = run_sync(marking_flow(fresh), store)
    run_sync(marked_flow(fresh, token, registry), store)
    snapshot.flush()
    saved = snapshot.read(path)
    assert saved is not None and saved.mark == store.mark and [i.id for i in saved.infos] == ["c"]


def test_a_snapshot_older_than_the_resync_interval_is_listed_again(tmp_path: Any) -> None:
    """A confirmed snapshot stands for its listing: once that is a resync interval old, list."""
    import orjson

    from nowline._io import snapshot

    path = tmp_path / "c.registry.json"
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    store.mark = new_mark("done")
    run_sync(load_flow(Freshness(refresh_seconds=3600), Registry(), None, str(path)), store)
    snapshot.flush()
    store.records["raw"] = _row("x/y", 2.0)  # written around nowline: no new mark
    for listed in (0.0, 2e10):  # long ago; ahead of this clock
        state = orjson.loads(path.read_bytes())
        state["listed"] = listed
        path.write_bytes(orjson.dumps(state))
        fresh, registry = Freshness(refresh_seconds=3600), Registry()
        run_sync(load_flow(fresh, registry, None, str(path)), store)
        run_sync(refresh_flow(fresh, registry, None), store)
        assert "raw" in registry.held() and fresh.listings == 1
        snapshot.flush()
    # The listing saved a snapshot of what it found: the next process starts from it.
    fresh, registry = Freshness(refresh_seconds=3600), Registry()
    run_sync(load_flow(fresh, registry, None, str(path)), store)
    run_sync(refresh_flow(fresh, registry, None), store)
    assert "raw" in registry.held() and fresh.listings == 0
