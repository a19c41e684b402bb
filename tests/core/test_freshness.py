"""Registry freshness (``nowline._io.freshness``): when a process reads the corrections again.

The interval and change-log rules are checked on plain :class:`Freshness` values; the flows
(verify, list, refresh, load) run against the scripted store of ``test_flows.py``, so each
test says exactly what the store holds, what the registry held, and what was read.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from nowline._io.execute import run_sync
from nowline._io.freshness import (
    LISTING_SHARE,
    MARKED,
    MAX_INTERVAL,
    Freshness,
    list_flow,
    load_flow,
    refresh_flow,
    verify_flow,
)
from nowline._rules import records as R
from nowline._rules.records import CorrectionInfo, Record
from nowline._rules.registry import Registry
from tests.core.test_flows import ScriptedStore


def _fresh(refresh_seconds: float = 3600.0, key: tuple[object, str] | None = None) -> Freshness:
    """Return a wrapper's freshness on a collection of its own (unless ``key`` is shared)."""
    return Freshness(key=key or (object(), str(uuid.uuid4())), refresh_seconds=refresh_seconds)


def _row(deprecates: str, t: float, **extra: Any) -> tuple[str, dict[str, Any]]:
    """Return a stored, marked correction of ``deprecates`` (document, metadata)."""
    meta = {R.DEPRECATES: [deprecates], R.TIME: t, R.CORRECTION: True, **extra}
    return f"Moved from {deprecates} to elsewhere.", meta


def _info(cid: str, row: tuple[str, dict[str, Any]]) -> CorrectionInfo:
    """Return the correction a stored row is, as the registry would hold it."""
    info = R.correction_info(Record(cid, *row))
    assert info is not None
    return info


# --------------------------------------------------------------------------- intervals


def test_a_listing_waits_its_refresh_interval_stretched_by_its_cost() -> None:
    """The interval is ``refresh_seconds``, or the cost over the listing share, capped."""
    fresh = _fresh(refresh_seconds=1.0)
    assert fresh.interval(0.0) == 1.0
    assert fresh.interval(0.5) == pytest.approx(0.5 / LISTING_SHARE)
    assert fresh.interval(1e6) == MAX_INTERVAL


def test_refresh_seconds_zero_lists_at_every_read_whatever_it_costs() -> None:
    """``refresh_seconds=0`` means no wait at all."""
    assert _fresh(refresh_seconds=0).interval(100.0) == 0.0


def test_the_bounds_are_each_listings_interval_plus_its_cost() -> None:
    """Additions and deletions: the sooner listing; other edits: the full listing."""
    fresh = _fresh(refresh_seconds=1.0)
    fresh.members_cost, fresh.full_cost = 0.2, 1.0
    members, full = fresh.bounds()
    assert members == pytest.approx(0.2 / LISTING_SHARE + 0.2)
    assert full == pytest.approx(1.0 / LISTING_SHARE + 1.0)


# -------------------------------------------------------------------------- change log


def test_a_change_here_is_told_to_the_other_wrappers_of_the_collection() -> None:
    """Another wrapper of the same collection learns the ids; the changer is caught up."""
    key: tuple[object, str] = (object(), "c")
    mine, other = _fresh(key=key), _fresh(key=key)
    mine.changed_here(["c1", "c2"])
    generation, ids = other.changed_elsewhere()
    assert ids == ["c1", "c2"]
    assert mine.changed_elsewhere() == (generation, [])
    other.seen = generation
    assert other.changed_elsewhere() == (generation, [])


def test_no_change_and_other_collections_tell_nothing() -> None:
    """An empty change is not logged, and another collection's log is separate."""
    key: tuple[object, str] = (object(), "c")
    mine, other, elsewhere = _fresh(key=key), _fresh(key=key), _fresh()
    mine.changed_here([])
    assert other.changed_elsewhere() == (0, [])
    elsewhere.changed_here(["x"])
    assert other.changed_elsewhere() == (0, [])


def test_a_wrapper_joins_the_log_where_it_stands() -> None:
    """A wrapper made after a change does not hear of it (it loads the store anyway)."""
    key: tuple[object, str] = (object(), "c")
    _fresh(key=key).changed_here(["old"])
    late = _fresh(key=key)
    assert late.changed_elsewhere()[1] == []


def test_more_changes_than_the_log_keeps_ask_for_a_full_listing() -> None:
    """Past the log's length the ids are unknown: None tells the caller to list everything."""
    key: tuple[object, str] = (object(), "c")
    mine, other = _fresh(key=key), _fresh(key=key)
    for i in range(1001):
        mine.changed_here([f"c{i}"])
    assert other.changed_elsewhere() == (1001, None)


# ------------------------------------------------------------------------------ flows


def test_verify_drops_a_deleted_correction_and_takes_in_an_edited_one() -> None:
    """Corrections about to be used are read by id; the registry then holds what the store does."""
    edited = _row("a/b", 2.0, **{R.RETRACTED: 9.0})
    store = ScriptedStore({"edited": edited})
    registry = Registry([_info("edited", _row("a/b", 2.0)), _info("gone", _row("x/y", 1.0))])
    assert run_sync(verify_flow(registry, None, ["gone", "edited", "gone"]), store)
    assert set(registry.held()) == {"edited"}
    assert registry.held()["edited"].retracted == 9.0
    assert [op.ids for op in store.ops("Get")] == [["edited", "gone"]]


def test_verify_of_nothing_reads_nothing() -> None:
    """No ids: no read, and nothing changed."""
    store = ScriptedStore()
    assert run_sync(verify_flow(Registry(), None, []), store) is False
    assert store.log == []


def test_a_membership_listing_finds_additions_and_deletions() -> None:
    """Listed ids the registry lacks are read; held marked ones no longer listed are dropped.

    A correction the registry found in a read, never marked, is not listed and is kept.
    """
    unmarked = ("Moved from u/v to w.", {R.DEPRECATES: ["u/v"], R.TIME: 1.0})
    store = ScriptedStore({"held": _row("a/b", 1.0), "new": _row("c/d", 2.0), "raw": unmarked})
    registry = Registry(
        [_info("held", _row("a/b", 1.0)), _info("gone", _row("x/y", 1.0)), _info("raw", unmarked)]
    )
    fresh = _fresh()
    assert run_sync(list_flow(fresh, registry, None, False), store)
    assert set(registry.held()) == {"held", "new", "raw"}
    assert store.ops("Get")[0].where == MARKED
    assert fresh.last_members > float("-inf") and fresh.last_full == float("-inf")


def test_only_a_full_listing_sees_an_edit_of_a_held_correction() -> None:
    """A retraction elsewhere changes metadata, not membership: the full listing finds it."""
    store = ScriptedStore({"c": _row("a/b", 1.0, **{R.RETRACTED: 5.0})})
    registry = Registry([_info("c", _row("a/b", 1.0))])
    fresh = _fresh()
    assert run_sync(list_flow(fresh, registry, None, False), store) is False
    assert registry.held()["c"].retracted is None
    assert run_sync(list_flow(fresh, registry, None, True), store) is True
    assert registry.held()["c"].retracted == 5.0
    assert fresh.last_full > float("-inf")


def test_a_refresh_lists_only_when_an_interval_has_passed_or_it_is_forced() -> None:
    """Right after a full listing a refresh reads nothing; ``force`` lists in full again."""
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    registry = Registry()
    fresh = _fresh(refresh_seconds=3600)
    assert run_sync(refresh_flow(fresh, registry, None), store) is True  # never listed yet
    assert set(registry.held()) == {"c"}
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is False
    assert store.log == []
    store.records["d"] = _row("x/y", 2.0)
    assert run_sync(refresh_flow(fresh, registry, None, force=True), store) is True
    assert set(registry.held()) == {"c", "d"}


def test_a_refresh_reads_what_the_other_wrappers_changed_by_id() -> None:
    """Corrections another wrapper of this process changed are read by id at the next refresh."""
    key: tuple[object, str] = (object(), "c")
    store = ScriptedStore({"c": _row("a/b", 1.0)})
    registry = Registry()
    fresh = _fresh(key=key)
    run_sync(refresh_flow(fresh, registry, None), store)
    store.records["d"] = _row("x/y", 2.0)
    _fresh(key=key).changed_here(["d"])
    store.log.clear()
    assert run_sync(refresh_flow(fresh, registry, None), store) is True
    assert set(registry.held()) == {"c", "d"}
    assert [op.ids for op in store.ops("Get")] == [["d"]]
    assert fresh.changed_elsewhere()[1] == []


def test_a_load_without_a_snapshot_reads_every_marked_correction() -> None:
    """The load lists the marked corrections in full; plain memories and unmarked ones wait."""
    unmarked = ("Moved from u/v to w.", {R.DEPRECATES: ["u/v"], R.TIME: 1.0})
    store = ScriptedStore(
        {"c": _row("a/b", 1.0), "m": ("deploy from a/b", {R.TIME: 1.0}), "raw": unmarked}
    )
    registry = Registry([_info("stale", _row("q/r", 1.0))])
    fresh = _fresh()
    run_sync(load_flow(fresh, registry, None), store)
    assert set(registry.held()) == {"c"}
    assert fresh.last_full == fresh.last_members > float("-inf")
