"""The registry snapshot: a fast start that is never the authority.

A process that exits after changing corrections leaves a snapshot of its registry beside the
store. The next process starts from it, under the store's generation mark only, instead of
reading every correction back, and reads from it only what its texts can trip. These tests
change corrections after the snapshot, through another nowline process, through the raw
collection and by restoring the store from a copy, forge and damage the file, and check that a
new wrapper never shows the old state.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import chromadb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nowline
from nowline._io import freshness as _freshness
from nowline._io import snapshot as _snapshot
from nowline._rules.records import Scoped
from nowline._rules.registry import Registry
from tests.conftest import FakeEmbedding
from tests.snapshot_files import read_state, snapshot_file, write_state

WRITER = """
import os, sys
sys.path.insert(0, ".")
import chromadb, nowline
from tests.conftest import FakeEmbedding
scope = {"scope_key": os.environ["SCOPE"]} if os.environ.get("SCOPE") else {}
client = nowline.wrap(chromadb.PersistentClient(sys.argv[1]), **scope)
col = client.get_or_create_collection("mem", embedding_function=FakeEmbedding())
for step in sys.argv[2:]:
    verb, rid, *rest = step.split("|")
    if verb == "remember":
        col.remember(rest[0], id=rid)
    elif verb == "correct":
        col.correct(rest[0], deprecates=[rest[1]], id=rid)
    elif verb == "retract":
        col.retract(rid)
    elif verb == "edit":
        col.update(ids=[rid], documents=[rest[0]], metadatas=[{"deprecates": [rest[1]]}])
"""


def _nowline_process(path: str, *steps: str, scope_key: str | None = None) -> None:
    """Run nowline writes in another process, which exits (and leaves its snapshot)."""
    subprocess.run(
        [sys.executable, "-c", WRITER, path, *steps],
        check=True,
        capture_output=True,
        timeout=120,
        env={**os.environ, "SCOPE": scope_key or ""},
    )


def _snapshot_file(path: str) -> Path:
    """Return the one snapshot file of a store."""
    return snapshot_file(path)


def _full_reads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Return a list that records every full read of the corrections (a load without snapshot)."""
    full_reads: list[Any] = []
    original = _freshness.read_all

    def recording(
        where: Any = None,
        where_document: Any = None,
        include: Any = ("documents", "metadatas"),
        **kwargs: Any,
    ) -> Any:
        if where == {"nowline_correction": True} and "documents" in include:
            full_reads.append(where)
        return original(where, where_document, include, **kwargs)

    monkeypatch.setattr(_freshness, "read_all", recording)
    return full_reads


def _open(path: str, monkeypatch: pytest.MonkeyPatch) -> tuple[nowline.Collection, list[Any]]:
    """Wrap the store's collection, recording the full reads of corrections made at load."""
    full_reads = _full_reads(monkeypatch)
    raw = chromadb.PersistentClient(path=path).get_collection(
        "mem", embedding_function=FakeEmbedding()
    )
    return nowline.wrap(raw), full_reads


@pytest.fixture
def stored(store_path: str) -> str:
    """Return a store written by another process that left a snapshot of three corrections."""
    _nowline_process(
        store_path,
        "remember|m1|deploy acme/one now",
        "remember|m2|deploy acme/two now",
        "remember|m3|deploy acme/three now",
        "correct|c1|Moved from acme/one to acme/uno.|acme/one",
        "correct|c2|Moved from acme/two to acme/dos.|acme/two",
        "correct|c3|Moved from acme/three to acme/tres.|acme/three",
    )
    return store_path


def test_a_new_process_starts_from_the_snapshot(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snapshot holds every correction; a new wrapper reads none of them back."""
    state = read_state(_snapshot_file(stored))
    assert sorted(state["corrections"]["id"]) == ["c1", "c2", "c3"]
    col, full_reads = _open(stored, monkeypatch)
    assert full_reads == []
    assert [t.correction.id for t in col.check("deploy acme/two")] == ["c2"]
    registry = col._core.registry
    # only what the text can trip: the corrections filed under its runs ("acme" is the
    # longest run of acme/one and acme/two, "three" of acme/three)
    assert registry.deferred and set(registry._infos) == {"c1", "c2"}
    assert col.hits(["m3"])[0].role == "historical"
    assert registry.deferred and set(registry._infos) == {"c1", "c2", "c3"}
    assert [i.id for i in registry.infos()] == ["c1", "c2", "c3"]  # every one: read whole
    assert not registry.deferred and full_reads == []


def test_changes_by_another_nowline_process_after_the_snapshot_are_seen(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A retraction and an edit made after the snapshot was written show at the first read.

    They moved the generation mark, so the older snapshot is not used: the load lists.
    """
    snapshot = _snapshot_file(stored)
    old = snapshot.read_bytes()
    _nowline_process(stored, "retract|c1", "edit|c2|Moved from acme/deux to acme/dos.|acme/deux")
    snapshot.write_bytes(old)  # as if the later process had left no newer snapshot
    col, full_reads = _open(stored, monkeypatch)
    assert len(full_reads) == 1
    assert col.check("deploy acme/one") == []
    assert col.check("deploy acme/two") == []
    assert [t.correction.id for t in col.check("deploy acme/deux")] == ["c2"]
    assert col.hits(["m1"])[0].role == "current" and col.hits(["c1"])[0].role == "retracted"


def test_changes_around_nowline_after_the_snapshot_are_seen_by_the_resync(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Raw deletes, edits and adds of corrections after the snapshot: the resync finds them.

    A plain client moves no mark, so a new process starts from the snapshot; its first
    operation lists once the snapshot's listing is a resync interval old (here at once),
    and the resync's scan of every record's metadata finds a raw correction without
    nowline's mark (a read that returns it took it in before; the listing never did).
    """
    raw = chromadb.PersistentClient(path=stored).get_collection("mem", embedding_function=None)
    raw.delete(ids=["c1"])
    raw.update(
        ids=["c2"],
        documents=["Moved from acme/deux to acme/dos."],
        metadatas=[{"deprecates": ["acme/deux"]}],
    )
    raw.add(
        ids=["c4"],
        documents=["Moved from acme/four to acme/cuatro."],
        metadatas=[{"deprecates": ["acme/four"]}],
        embeddings=FakeEmbedding()(["Moved from acme/four to acme/cuatro."]),
    )
    monkeypatch.setenv("NOWLINE_RESYNC_SECONDS", "0")
    col, full_reads = _open(stored, monkeypatch)
    assert full_reads == []  # the snapshot, under the same mark
    assert col.check("deploy acme/one") == []  # the resync lists: deleted
    assert full_reads  # (at an interval of 0 s a loaded machine may list twice within one call)
    assert col.check("deploy acme/two") == []  # edited: the old string no longer applies
    assert [t.correction.id for t in col.check("deploy acme/deux")] == ["c2"]
    assert [t.correction.id for t in col.check("deploy acme/four")] == ["c4"]  # unmarked
    assert col.hits(["m1"])[0].role == "current"
    assert [c.id for c in col.hits(["m3"])[0].now] == ["c3"]


def test_changes_around_nowline_reach_every_process_after_repair(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within the resync interval a raw deletion is not seen; repair() moves the mark."""
    raw = chromadb.PersistentClient(path=stored).get_collection("mem", embedding_function=None)
    raw.delete(ids=["c1"])
    col, _ = _open(stored, monkeypatch)
    assert [t.correction.id for t in col.check("deploy acme/one")] == ["c1"]
    fixer = nowline.wrap(raw, embedding_function=FakeEmbedding(), refresh_seconds=0)
    fixer.repair()
    assert fixer.check("deploy acme/one") == []


@pytest.mark.parametrize("damage", ["truncated", "other-version", "not-sqlite"])
def test_a_damaged_or_foreign_snapshot_is_not_read(
    stored: str, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """A snapshot that cannot be read or is of another version is ignored: a full read runs."""
    snapshot = _snapshot_file(stored)
    data = snapshot.read_bytes()
    if damage == "truncated":
        snapshot.write_bytes(data[: len(data) // 2])
    elif damage == "other-version":
        write_state(snapshot, {**read_state(snapshot), "nowline": "0.0.0"})
    else:
        snapshot.write_bytes(b"\x00 not sqlite" * 100)
    col, full_reads = _open(stored, monkeypatch)
    assert len(full_reads) == 1
    assert [t.correction.id for t in col.check("deploy acme/one")] == ["c1"]


def test_a_read_only_store_still_opens(stored: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the snapshot cannot be written, the store opens all the same (only slower)."""
    os.remove(_snapshot_file(stored))
    monkeypatch.setattr("nowline._io.snapshot.os.replace", _refuse)
    col, full_reads = _open(stored, monkeypatch)
    assert len(full_reads) == 1 and [t.correction.id for t in col.check("acme/three")] == ["c3"]
    _snapshot.flush()  # the snapshot is written in the background
    assert list(Path(stored, "nowline").glob("*.tmp")) == []  # the half-made file is removed


def _refuse(*args: Any) -> None:
    """Stand in for a file system that refuses writes."""
    raise PermissionError("read-only")


def test_a_text_edit_around_nowline_shows_the_new_text(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A raw edit of a correction's text alone (its metadata unchanged) shows the new text.

    The resync's listing reads the corrections' texts as well as their metadata.
    """
    raw = chromadb.PersistentClient(path=stored).get_collection("mem", embedding_function=None)
    raw.update(ids=["c2"], documents=["Moved from acme/two to acme/zwei (fixed typo)."])
    monkeypatch.setenv("NOWLINE_RESYNC_SECONDS", "0")
    col, _ = _open(stored, monkeypatch)
    (trip,) = col.check("deploy acme/two")
    assert trip.correction.id == "c2"
    assert trip.correction.document == "Moved from acme/two to acme/zwei (fixed typo)."
    (hit,) = col.hits(["m2"])
    assert [c.document for c in hit.now] == ["Moved from acme/two to acme/zwei (fixed typo)."]


def test_without_threads_the_automata_are_built_inline(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full load hands the automata's build to a thread; where none can start, it runs inline.

    (A load from a snapshot builds nothing: it reads only what a text can trip.)
    """
    import threading

    os.remove(_snapshot_file(stored))

    started: list[str] = []

    def refuse(self: threading.Thread) -> None:
        started.append(self.name)
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    col, _ = _open(stored, monkeypatch)
    assert started == ["nowline-background"]
    assert [t.correction.id for t in col.check("deploy acme/two")] == ["c2"]


def test_a_snapshot_newer_than_a_restored_store_is_not_the_authority(
    stored: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A store restored from an earlier copy, with a newer snapshot left beside it.

    The snapshot holds c1 as retracted and c2 as deleted, and names c5, written after the
    copy; the restored store holds c1 and c2 active and no c5. The store decides: c1 and c2
    trip at once, c5 never shows.
    """
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(stored, copy)
    _nowline_process(
        stored, "retract|c1", "correct|c5|Moved from acme/five to acme/cinco.|acme/five"
    )
    raw = chromadb.PersistentClient(path=stored).get_collection("mem", embedding_function=None)
    nowline.wrap(raw).delete(ids=["c2"])
    _snapshot.flush()  # the snapshot under the newer mark is written in the background
    newer = _snapshot_file(stored).read_bytes()
    del raw
    chromadb.api.client.SharedSystemClient.clear_system_cache()  # as a new process would
    _freshness._shared.clear()  # nor does it share the registry this process held
    shutil.rmtree(stored)
    shutil.copytree(copy, stored)
    _snapshot_file(stored).write_bytes(newer)
    col, full_reads = _open(stored, monkeypatch)
    assert len(full_reads) == 1  # the restored store's mark is not the newer snapshot's
    assert [t.correction.id for t in col.check("deploy acme/one")] == ["c1"]
    assert [t.correction.id for t in col.check("deploy acme/two")] == ["c2"]
    assert col.check("deploy acme/five") == []
    assert sorted(c.id for c in col.corrections()) == ["c1", "c2", "c3"]


@pytest.mark.parametrize("forgery", ["left out", "retracted"])
def test_a_snapshot_edited_by_hand_is_dropped_at_the_next_mark(
    stored: str, monkeypatch: pytest.MonkeyPatch, forgery: str
) -> None:
    """A snapshot that hides a live correction holds until the process lists: the resync.

    A snapshot is as trustworthy as the folder it lives in (beside a local store: the store's
    own folder); one edited by hand under the store's mark is believed until the process
    lists. A change through nowline elsewhere is read by id through the journal (which does
    not list), so the forgery outlives the mark; the resync listing ends it.
    """
    path = _snapshot_file(stored)
    state = read_state(path)
    columns = state["corrections"]
    row = columns["id"].index("c1")
    if forgery == "left out":
        for column in columns.values():
            column.pop(row)
    else:
        columns["retracted"][row] = time.time()
    state["active"] -= 1
    write_state(path, state)
    col, _ = _open(stored, monkeypatch)
    assert col.hits(["m1"])[0].role == "current"  # the forgery, under the store's mark
    _nowline_process(stored, "correct|c9|Moved from acme/nine to acme/nueve.|acme/nine")
    col._core.fresh.read_at = float("-inf")  # refresh_seconds has passed
    assert col.check("deploy acme/nine")[0].correction.id == "c9"  # by the journal
    assert col.hits(["m1"])[0].role == "current"
    col._core.fresh.listed_at = float("-inf")  # the resync is due
    (hit,) = col.hits(["m1"])
    assert hit.role == "historical" and [c.id for c in hit.now] == ["c1"]


def test_a_snapshot_of_another_mark_never_crosses_a_scope(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot that says team a's correction applies everywhere, under an older mark.

    Any change through nowline since moved the mark: the snapshot is not used, and team b
    never sees team a's correction.
    """
    _nowline_process(
        store_path,
        "remember|m1|deploy acme/one now",
        "correct|c1|Moved from acme/one to acme/uno.|acme/one",
        scope_key="team",
    )
    path = _snapshot_file(store_path)
    state = read_state(path)
    assert state["corrections"]["scope"] == [["team", ["missing"]]]
    state["corrections"]["scope"] = [None]
    _nowline_process(store_path, "remember|m2|another memory", scope_key="team")
    _nowline_process(
        store_path, "correct|c2|Moved from acme/two to acme/dos.|acme/two", scope_key="team"
    )
    write_state(path, state)
    col, full_reads = _open(store_path, monkeypatch)
    assert len(full_reads) == 1
    assert col.check("deploy acme/one", metadata={"team": "b"}) == []
    assert [t.correction.id for t in col.check("deploy acme/one", metadata={"team": None})] == [
        "c1"
    ]


def test_a_snapshot_row_changed_under_an_old_mark_never_shows_a_false_trip(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot whose strings were changed, under the mark before the last change: unused."""
    path = _snapshot_file(stored)
    state = read_state(path)
    columns = state["corrections"]
    columns["deprecates"][columns["id"].index("c2")] = ["eggs"]
    _nowline_process(stored, "retract|c3")
    write_state(path, state)
    col, full_reads = _open(stored, monkeypatch)
    assert len(full_reads) == 1  # the snapshot was not used
    assert col.check("a cat ate my eggs") == []
    assert [t.correction.id for t in col.check("deploy acme/two")] == ["c2"]


FORGERIES: dict[str, Any] = {
    "a str for a list of strings": ("deprecates", 1, "acme"),
    "a number for a string": ("deprecates", 1, [7]),
    "no deprecated string": ("deprecates", 1, []),
    "an id that is no string": ("id", 0, None),
    "a time that is a string": ("time", 2, "yesterday"),
    "a bool for a time": ("written", 2, True),
    "a retraction that is a list": ("retracted", 0, [1.0]),
    "an unhashable scope": ("scope", 0, ["str", {"a": 1}]),
    "a scope that is no token": ("scope", 0, "team-a"),
    "a short column": ("about", None, None),
    "a mark that is no bool": ("marked", 0, 1),
    "a blank phrase": ("deprecates", 1, ["  "]),
    "a phrase with space around it": ("deprecates", 1, [" acme/two"]),
    "an empty anchor": ("about", 0, [""]),
    "another collection's snapshot": ("collection", None, "other-collection"),
    "a mark that is no string": ("mark", None, 5),
    "a listing time that is a string": ("listed", None, "now"),
    "a listing cost that is negative": ("listing_cost", None, -1.0),
    "a listing cost that is a string": ("listing_cost", None, "1"),
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_a_snapshot_of_the_wrong_shape_is_not_read(
    stored: str, monkeypatch: pytest.MonkeyPatch, forgery: str
) -> None:
    """A value of the wrong type anywhere in the corrections: the whole snapshot is ignored.

    Nothing of it reaches the registry (a non-string phrase would fail the automaton's build,
    an unhashable scope every comparison); the store's corrections are read in full instead.
    """
    path = _snapshot_file(stored)
    state = read_state(path)
    column, row, value = FORGERIES[forgery]
    if column not in state["corrections"]:
        state[column] = value
    elif row is None:
        state["corrections"][column].pop()
    else:
        state["corrections"][column][row] = value
    write_state(path, state)
    col, full_reads = _open(stored, monkeypatch)
    damaged: list[str] = []

    def tripped(text: str) -> list[str]:
        try:
            return [t.correction.id for t in col.check(text)]
        except nowline.SnapshotDamaged:  # a row of it was read: the next operation lists
            damaged.append(text)
            return [t.correction.id for t in col.check(text)]

    assert tripped("a cat ate my eggs") == []
    assert [tripped(f"deploy acme/{n}") for n in ("one", "two", "three")] == [
        ["c1"],
        ["c2"],
        ["c3"],
    ]
    try:
        every = sorted(c.id for c in col.corrections())
    except nowline.SnapshotDamaged:
        damaged.append("every")
        every = sorted(c.id for c in col.corrections())
    assert every == ["c1", "c2", "c3"]
    assert len(full_reads) + len(damaged) >= 1 and len(damaged) <= 1  # refused at once, or once
    _snapshot.flush()  # the new snapshot is written in the background
    assert sorted(read_state(path)["corrections"]["id"]) == ["c1", "c2", "c3"]


@pytest.mark.parametrize("verb", ["check", "recall", "correct"])
def test_an_operation_that_meets_a_damaged_row_runs_again_from_the_store(
    stored: str, monkeypatch: pytest.MonkeyPatch, verb: str
) -> None:
    """A row of the wrong shape, filed where a text finds it: the caller never sees it.

    The operation that reads it meets ``SnapshotDamaged`` before writing anything, and runs
    once more with the corrections read from the store (a one-shot process, such as the
    hook's full path, would otherwise fail on every run while the file stays damaged).
    """
    path = _snapshot_file(stored)
    state = read_state(path)
    columns = state["corrections"]
    columns["time"][columns["id"].index("c2")] = "yesterday"
    write_state(path, state)
    col, full_reads = _open(stored, monkeypatch)
    assert full_reads == [] and col._core.registry.deferred  # the row is not read at start
    if verb == "check":
        assert [t.correction.id for t in col.check("deploy acme/two")] == ["c2"]
    elif verb == "recall":
        (hit,) = [h for h in col.recall("deploy acme/two now", n_results=3).hits if h.id == "m2"]
        assert [c.id for c in hit.now] == ["c2"]
    else:
        col.correct("Moved from acme/two to acme/zwei.", deprecates=["acme/two"], id="c9")
        assert [c.id for c in col.hits(["m2"])[0].now] == ["c9"]
    assert len(full_reads) == 1 and not col._core.registry.lost


def test_loading_pauses_the_garbage_collector_and_restores_it(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No collection starts while corrections are loaded; the collector is on again after.

    A full collection walks every object of the process, and a load of 100k corrections used to
    start several (see ``nowline.matchers._gcpause``).
    """
    import gc

    collections: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    original = _snapshot._infos
    during: list[int] = []

    def reading(columns: Any) -> Any:
        assert not gc.isenabled()  # reading the snapshot whole runs inside the pause
        result = original(columns)
        during.append(len(collections))  # collections started by the end of the read
        return result

    monkeypatch.setattr(_snapshot, "_infos", reading)
    gc.callbacks.append(seen)
    try:
        with _gcpause_paused():
            collections.clear()
            bulky = [[i] for i in range(50_000)]  # unpaused, this starts about 70 collections
            during.append(len(collections))
        collections.clear()
        assert _snapshot.read(str(_snapshot_file(stored))) is not None
        assert during == [0, 0]
        assert gc.isenabled()
        more = [[i] for i in range(50_000)]
        assert collections  # the collector runs again
    finally:
        gc.callbacks.remove(seen)
    assert gc.isenabled()
    del bulky, more
    monkeypatch.setattr(_snapshot, "_infos", original)
    col, _ = _open(stored, monkeypatch)
    assert [t.correction.id for t in col.check("deploy acme/two")] == ["c2"]
    assert gc.isenabled()


def _gcpause_paused() -> Any:
    """Return nowline's collector pause (a context manager)."""
    from nowline.matchers._gcpause import paused

    return paused()


def test_a_collector_turned_off_by_the_process_stays_off(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The collector is turned on again only where nowline found it on."""
    import gc

    gc.disable()
    try:
        col, _ = _open(stored, monkeypatch)
        assert [t.correction.id for t in col.check("deploy acme/two")] == ["c2"]
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_pauses_end_with_the_last() -> None:
    """Two threads inside the pause: the collector stays off until both have left."""
    import gc
    import threading

    inside, leave = threading.Event(), threading.Event()

    def other() -> None:
        with _gcpause_paused():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    assert gc.isenabled()
    with _gcpause_paused():
        thread.start()
        assert inside.wait(10)
    assert not gc.isenabled()  # the other thread is still inside
    leave.set()
    thread.join(10)
    assert gc.isenabled()


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
_GOOD = {
    "format": _snapshot.FORMAT,
    "nowline": nowline.__version__,
    "collection": "c",
    "scope_key": "team",
    "mark": "nowline-done:" + "0" * 32,
    "listed": 1.0,
    "listing_cost": 0.5,
    "applied": None,
    "scope_keys": {"team": 2},
    "active": 1,
    "corrections": {
        "id": ["c1", "c2"],
        "document": ["Moved from a/b.", "Moved from c/d."],
        "deprecates": [["a/b"], ["c/d", "C/D"]],
        "about": [[], ["repo"]],
        "time": [1.0, 2],
        "written": [1.0, 2.0],
        "scope": [["team", ["str", "x"]], ["team", ["list", ["x", 1, True]]]],
        "retracted": [None, 3.0],
        "marked": [True, False],
        "source": [None, "github"],
        "source_url": [None, "https://github.com/c/d"],
        "replaced_by": [[], ["c/e"]],
    },
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    where=st.sampled_from(
        [(None, k) for k in _GOOD if k != "corrections"]
        + [("corrections", k) for k in _GOOD["corrections"]]
    ),
    index=st.integers(0, 2),
    value=_JSON,
)
def test_any_damage_to_a_snapshot_reads_as_none_or_as_well_formed_corrections(
    tmp_path_factory: pytest.TempPathFactory, where: tuple[str | None, str], index: int, value: Any
) -> None:
    """Any one value of a snapshot replaced by any JSON: the read never raises.

    What it returns is either nothing or corrections the registry can hold (strings where
    strings belong, numbers for times, hashable scopes, a finite mark, an offset Chroma takes).
    """
    state = json.loads(json.dumps(_GOOD))
    outer, key = where
    if outer is None:
        state[key] = value
    else:
        column = state[outer][key]
        if index < len(column):
            column[index] = value
        else:
            state[outer][key] = value  # the whole column
    path = tmp_path_factory.mktemp("snap") / "c.snapshot.sqlite"
    write_state(path, state)
    saved = _snapshot.read(str(path))
    if saved is None:
        return
    assert isinstance(saved.mark, str) and isinstance(saved.listed, float)
    for info in saved.infos:
        assert isinstance(info.id, str) and isinstance(info.document, str)
        assert info.deprecates and all(isinstance(p, str) for p in info.deprecates)
        assert all(isinstance(p, str) for p in info.about)
        assert isinstance(info.time, float) and isinstance(info.written, float)
        assert info.retracted is None or isinstance(info.retracted, float)
        assert isinstance(info.marked, bool)
        assert all(v is None or isinstance(v, str) for v in (info.source, info.source_url))
        hash(info)
    Registry(saved.infos).direct("a/b c/d repo", record_id="m", scope=Scoped(None), order=None)


def _in_fork(child: Any) -> str:
    """Run ``child()`` in a forked child; return the text it returned (the child exits at once)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.write(write, child().encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as fh:
        report = fh.read()
    os.waitpid(pid, 0)
    return report


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_during_a_pause_collects_again() -> None:
    """Fork while another thread is inside the pause: the child's collector is on again.

    The thread that held the pause does not exist in the child; pausing works there afresh.
    """
    import gc
    import threading

    inside, leave = threading.Event(), threading.Event()

    def other() -> None:
        with _gcpause_paused():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    assert inside.wait(10)

    def child() -> str:
        on_after_fork = gc.isenabled()
        with _gcpause_paused():
            off_inside = not gc.isenabled()
        return f"{on_after_fork} {off_inside} {gc.isenabled()}"

    try:
        report = _in_fork(child)
    finally:
        leave.set()
        thread.join(10)
    assert report == "True True True"
    assert gc.isenabled()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_fork_reads_the_snapshot_whole_first(
    stored: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that forks while its registry is deferred reads it whole first.

    The child (a pre-forking server's worker) must not share the parent's SQLite connection;
    it starts with every correction, and answers as the parent does.
    """
    col, full_reads = _open(stored, monkeypatch)
    assert [t.correction.id for t in col.check("deploy acme/two")] == ["c2"]
    assert col._core.registry.deferred

    def child() -> str:
        got = [t.correction.id for t in col.check("deploy acme/three")]
        return f"{col._core.registry.deferred} {got}"

    assert _in_fork(child) == "False ['c3']"
    assert not col._core.registry.deferred and full_reads == []


def test_the_pause_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """NOWLINE_GC_PAUSE=0 leaves the collector alone (for processes that manage it)."""
    import gc

    monkeypatch.setenv("NOWLINE_GC_PAUSE", "0")
    with _gcpause_paused():
        assert gc.isenabled()
        gc.disable()  # the process's own choice, made meanwhile
    assert not gc.isenabled()
    gc.enable()
    monkeypatch.setenv("NOWLINE_GC_PAUSE", "1")
    with _gcpause_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


SERVER_WRITER = """
import sys
sys.path.insert(0, ".")
import chromadb, nowline
from tests.conftest import FakeEmbedding
http = chromadb.HttpClient(host=sys.argv[1], port=int(sys.argv[2]))
client = nowline.wrap(http, scope_key="team")
col = client.get_or_create_collection(sys.argv[3], embedding_function=FakeEmbedding())
col.remember("deploy acme/one now", id="m1", metadata={"team": "a"})
col.correct("Moved from acme/one to acme/uno.", deprecates=["acme/one"], id="c1",
            metadata={"team": "a"})
"""


def test_over_a_server_the_snapshot_lives_in_the_cache_and_is_checked(
    chroma_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's snapshot is kept in NOWLINE_CACHE_DIR; a new wrapper starts from it.

    Another process writes a scoped store over HTTP and exits; a new wrapper starts from the
    snapshot (no full read) and applies the correction in its own scope only.
    """
    monkeypatch.setenv("NOWLINE_CACHE_DIR", str(tmp_path))
    name = f"snap-{os.getpid()}-{time.monotonic_ns()}"
    host, port = chroma_server.host, str(chroma_server.port)
    subprocess.run(
        [sys.executable, "-c", SERVER_WRITER, host, port, name],
        check=True,
        capture_output=True,
        timeout=120,
        env={**os.environ, "NOWLINE_CACHE_DIR": str(tmp_path)},
    )
    assert len(list(tmp_path.glob("*/*.snapshot.sqlite"))) == 1
    full_reads = _full_reads(monkeypatch)

    def reopen() -> Any:
        raw = chromadb.HttpClient(host=host, port=int(port)).get_collection(
            name, embedding_function=FakeEmbedding()
        )
        return nowline.wrap(raw)

    col = reopen()
    assert full_reads == []
    assert [t.correction.id for t in col.check("deploy acme/one", metadata={"team": "a"})] == ["c1"]
    assert col.check("deploy acme/one", metadata={"team": "b"}) == []
    assert col.check("deploy acme/one", metadata={"team": None}) == []


def test_stored_links_to_corrections_that_do_not_exist_are_never_read(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record written around nowline whose links name 1,000 made-up corrections.

    A read shows the corrections the registry holds; a link to one it does not hold asks
    Chroma for nothing, and the record reads as current.
    """
    raw = chromadb.PersistentClient(path=store_path).get_or_create_collection(
        "mem", embedding_function=FakeEmbedding()
    )
    ghosts = [f"ghost-{i}" for i in range(1000)]
    raw.add(
        ids=["m1"],
        documents=["deploy acme/one now"],
        metadatas=[{"nowline_by": ghosts, "nowline_role": "historical"}],
    )
    asked: list[str] = []
    original = _freshness.read_by_ids

    def recording(ids: Any, *args: Any, **kwargs: Any) -> Any:
        ids = list(ids)
        asked.extend(ids)
        return original(ids, *args, **kwargs)

    monkeypatch.setattr(_freshness, "read_by_ids", recording)
    col = nowline.wrap(raw)
    for _ in range(2):
        (hit,) = col.hits(["m1"])
        assert hit.role == "current" and hit.now == []
    assert not set(ghosts) & set(asked)


def test_a_small_registry_is_saved_before_the_write_returns(tmp_path: Path) -> None:
    """Below BACKGROUND_FROM corrections the snapshot is on disk when ``correct`` returns.

    A caller may then remove the store at once (a temporary folder in a test or a benchmark)
    with no thread of nowline writing into it afterwards: removing it raises nothing, and the
    folder stays gone.
    """
    for round_ in range(5):
        store = tmp_path / f"s{round_}"
        client = nowline.wrap(chromadb.PersistentClient(str(store)))
        col = client.get_or_create_collection("mem", embedding_function=FakeEmbedding())
        col.remember("We deploy from github.com/acme/app.", id="m1")
        col.correct("acme/app moved to acme/core.", deprecates=["acme/app"], id="c1")
        assert list((store / "nowline").glob("*.snapshot.sqlite")), "saved before returning"
        del col, client
        import shutil

        shutil.rmtree(store)  # raises if anything is written into it meanwhile
        time.sleep(0.05)
        assert not store.exists()


def test_snapshots_saved_while_one_is_written_are_coalesced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A burst of saves of a large registry writes the first state and the newest, not each."""
    import threading

    written: list[str] = []
    going = threading.Event()
    path = str(tmp_path / "nowline" / "c0ffee.snapshot.sqlite")

    def slow_write(to: str, state: dict[str, Any]) -> None:
        going.wait(5)
        if to == path:  # a writer an earlier test left running writes its own path
            written.append(state["mark"])

    _snapshot.flush()  # an earlier test's writer would write through the patched function
    monkeypatch.setattr(_snapshot, "write", slow_write)
    monkeypatch.setattr(_snapshot, "BACKGROUND_FROM", 1)
    try:
        for n in range(20):
            _snapshot.save_meanwhile(path, {"mark": f"m{n}", "infos": ["c1"]})
        going.set()
        _snapshot.flush()
        assert written == ["m0", "m19"]
    finally:
        going.set()
        _snapshot.flush()  # no writer of this test outlives its patch


def test_the_background_writer_rests_between_writes_until_flushed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a write it rests (a share of a core at most); a flush writes what waits at once."""
    written: list[str] = []
    path = str(tmp_path / "nowline" / "c0ffee.snapshot.sqlite")

    def timed_write(to: str, state: dict[str, Any]) -> None:
        time.sleep(0.05)
        if to == path:  # a writer an earlier test left running writes its own path
            written.append(state["mark"])

    _snapshot.flush()  # an earlier test's writer would write through the patched function
    monkeypatch.setattr(_snapshot, "write", timed_write)
    monkeypatch.setattr(_snapshot, "BACKGROUND_FROM", 1)
    monkeypatch.setattr(_snapshot, "SPACING", 1000.0)
    try:
        _snapshot.save_meanwhile(path, {"mark": "m0", "infos": ["c1"]})
        time.sleep(0.3)
        _snapshot.save_meanwhile(path, {"mark": "m1", "infos": ["c1"]})
        time.sleep(0.3)
        assert written == ["m0"]  # resting: m1 waits
        _snapshot.flush()  # without ending the rest (10 s here) its join would give up first
        assert written == ["m0", "m1"]
    finally:
        _snapshot.flush()  # no writer of this test outlives its patch


def test_a_snapshot_never_brings_a_removed_store_back(tmp_path: Path) -> None:
    """A write that comes after its store was removed leaves no folder behind."""
    store = tmp_path / "gone"
    path = str(store / "nowline" / "c0ffee.snapshot.sqlite")
    _snapshot.write(path, {"format": _snapshot.FORMAT, "infos": []})
    assert not store.exists()


def test_repair_writes_a_mark_only_where_something_changed(stored: str) -> None:
    """A repair with nothing to change leaves the mark; an edit around nowline moves it."""
    from nowline._io import mark as _mark

    raw = chromadb.PersistentClient(path=stored).get_collection("mem", embedding_function=None)
    path = _mark.file_path(stored, raw.id)
    col = nowline.wrap(raw, embedding_function=FakeEmbedding())
    col.repair()  # settles whatever the fixture left
    before = _mark.read_file(path)
    assert _mark.state_of(before) == _mark.DONE
    assert col.repair().updated == 0
    assert _mark.read_file(path) == before, "nothing changed: no mark, no writer lock needed"
    text = "acme/one is gone; use acme/uno."
    raw.update(ids=["c1"], documents=[text], embeddings=FakeEmbedding()([text]))  # no link moves
    # (its new values, stored for the old text, are stored again for the new one)
    assert col.repair().updated == 1
    assert col.repair().updated == 0
    after = _mark.read_file(path)
    assert after != before and _mark.state_of(after) == _mark.DONE
    marks = _mark.SyncMarks(raw, stored)
    marks.write(_mark.new_mark("writing"))  # as a writer that died mid-write left it
    col.repair()
    assert _mark.state_of(marks.read()) == _mark.DONE
    assert _mark.read_file(path) == marks.read()
