"""The faults the multi-process checker finds, each as its minimal replayable program.

Every test replays one short program of ``tests/reliability/checker.py`` (real processes over a
``chroma run`` server) and asserts that every process agrees with the reference after every
step. Those marked ``fault`` failed on the earlier protocol (stamps, a rolling scan, a
snapshot's mark, a settled scope key) and pass on the listing-and-verify protocol; the numbers
are those of the third adversarial review.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ChromaServer
from tests.reliability import checker
from tests.reliability.checker import Program

pytestmark = pytest.mark.server


def _worker(
    name: str,
    scope_key: str | None = None,
    *,
    kind: str = "sync",
    host: str = "127.0.0.1",
    cache: str = "A",
    offset: int = 0,
) -> dict[str, Any]:
    """Return a worker of a program."""
    return {"name": name, "kind": kind, "scope_key": scope_key, "host": host, "cache": cache,
            "offset": offset}  # fmt: skip


def _fault(number: int, what: str) -> pytest.MarkDecorator:
    """Return the mark of a fault this program found in the earlier protocol (now fixed)."""
    return pytest.mark.fault(number, what)


def _holds(run: checker.Run) -> None:
    """Assert that every process agreed with the reference after every step."""
    assert not run.failures, "\n".join(map(str, run.failures)) + "\n" + "\n".join(run.log)


MOVE = ["Moved from svc/a to svc/b.", ["svc/a"], []]
"""A correction's text, deprecated strings and anchors."""


@_fault(
    1,
    "a wrapper opened on a store without corrections "
    "settles on no scope key and shows Alice's correction under Bob's memory",
)
def test_late_wrapper_keeps_scopes_apart(server: ChromaServer, tmp_path: Path) -> None:
    """A wrapper opened before any correction never shows Alice's correction for Bob."""
    program = Program(1, [_worker("w0", "user_id"), _worker("w1", cache="B")], [
        ["remember", "w0", "m0", "note on svc/a", "bob"],
        ["correct", "w0", "c0", *MOVE, "alice", None],
    ])  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


@_fault(
    2,
    "a snapshot written before any scoped correction "
    "passes its scope-key check vacuously; a later unscoped wrapper leaks scopes",
)
def test_snapshot_from_before_the_first_scoped_correction(
    server: ChromaServer, tmp_path: Path
) -> None:
    """A wrapper started from a snapshot written on an empty store keeps scopes apart."""
    program = Program(2, [_worker("w0", "user_id", cache="B")], [
        ["cli", "corrections", "A", "127.0.0.1", 0],  # writes the snapshot into folder A
        ["remember", "w0", "m0", "note on svc/a", "bob"],
        ["correct", "w0", "c0", *MOVE, "alice", None],
        ["restart", "w1", _worker("w1", cache="A")],
    ])  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


def test_wrapper_started_without_a_snapshot_adopts_the_scope_key(
    server: ChromaServer, tmp_path: Path
) -> None:
    """The control of fault 2: without the early snapshot the late wrapper keeps scopes apart."""
    program = Program(2, [_worker("w0", "user_id", cache="B")], [
        ["remember", "w0", "m0", "note on svc/a", "bob"],
        ["correct", "w0", "c0", *MOVE, "alice", None],
        ["restart", "w1", _worker("w1", cache="A")],
    ])  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


@_fault(3, "a correction deleted through nowline leaves no stamp; another process keeps listing it")
def test_deletion_through_nowline_is_seen_by_another_process(
    server: ChromaServer, tmp_path: Path
) -> None:
    """A correction one process deletes leaves another's corrections() and its next links.

    The other process reads nothing in between (``rotate``): a read would verify the
    correction by id and drop it, which is not the promise.
    """
    program = Program(3, [_worker("w0"), _worker("w1", kind="async", host="localhost")], [
        ["correct", "w0", "c0", *MOVE, None, None],
        ["delete", "w1", "c0", None],
        ["remember", "w0", "m0", "note on svc/a", None],
    ], observe="rotate")  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


@_fault(4, "a correction deleted by a plain chromadb client stays in corrections() without end")
def test_deletion_around_nowline_is_seen(server: ChromaServer, tmp_path: Path) -> None:
    """A correction a plain client deletes leaves corrections() within the bound."""  # rotate: as 3
    program = Program(4, [_worker("w0"), _worker("w1")], [
        ["correct", "w0", "c0", *MOVE, None, None],
        ["raw_delete", "c0"],
        ["remember", "w0", "m0", "note on svc/a", None],
    ], observe="rotate")  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


@_fault(
    5,
    "every short-lived process scans the same first "
    "1,000 records and never finds a plain-client correction past them",
)
def test_short_lived_processes_find_a_correction_past_the_first_scan_page(
    server: ChromaServer, tmp_path: Path
) -> None:
    """Three `nowline check` runs in a row find a plain-client correction at record 1,101.

    The store spans two pages of the rolling scan; the last run must see the correction
    whatever the first runs saw (a scan position that survives them is enough).
    """
    program = Program(5, [], [
        ["fill"],
        ["raw_add", "c0", MOVE[0], None, MOVE[1], []],
        ["cli", "check", "A", "127.0.0.1", 0],
        ["cli", "check", "A", "127.0.0.1", 0],
        ["cli", "check", "A", "127.0.0.1", 0],
    ])  # fmt: skip
    run = checker.run_program(server, tmp_path, program, stop=False)
    last = len(program.steps) - 1
    assert not [f for f in run.failures if f.step == last], "\n".join(map(str, run.failures))


@_fault(
    6,
    "after a restore from a backup the newer snapshot's "
    "retraction is trusted; check() misses a correction active in the store",
)
def test_restore_with_newer_snapshots(server: ChromaServer, tmp_path: Path) -> None:
    """After the store is restored from a backup, check() trips its active correction."""
    program = Program(6, [], [
        ["fill"],  # the correction lands past the first page of the rolling scan
        ["restart", "w0", _worker("w0")],
        ["correct", "w0", "c0", *MOVE, None, None],
        ["backup"],
        ["retract", "w0", "c0"],
        ["cli", "check", "A", "127.0.0.1", 2],
        ["restart", "w0", _worker("w0", cache="B")],
        ["restore"],
        ["cli", "check", "A", "127.0.0.1", 2],
    ])  # fmt: skip
    run = checker.run_program(server, tmp_path, program, stop=False)
    assert not [f for f in run.failures if f.process.startswith("cli")], "\n".join(
        map(str, run.failures)
    )


@_fault(
    7,
    "a snapshot whose mark and file time lie an hour "
    "ahead is clamped to now; a new process misses a correction written before",
)
def test_snapshot_from_a_clock_an_hour_ahead(server: ChromaServer, tmp_path: Path) -> None:
    """A process started from a snapshot written by a clock an hour ahead sees recent changes."""
    program = Program(7, [_worker("w0")], [
        ["fill"],  # the correction lands past the first page of the rolling scan
        ["restart", "w1", _worker("w1", cache="B", offset=3600)],  # writes B's snapshot
        ["restart", "w1", _worker("w1", cache="A")],
        ["snap", "future", "B"],
        ["correct", "w0", "c0", *MOVE, None, None],
        ["remember", "w0", "m0", "note on svc/c", None],
        ["remember", "w0", "m1", "note on svc/d", None],
        ["cli", "check", "B", "127.0.0.1", 2],
    ])  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


# The scope rule (DESIGN §7, "the scope travels with the correction"): the earlier code decided
# a correction's scope from the store's key instead.


def _rule(what: str) -> pytest.MarkDecorator:
    """Return the mark of a part of the scope rule (DESIGN §7) the earlier code lacked."""
    return pytest.mark.fault(1, f"scope rule (DESIGN §7): {what}")


@_rule("a correction written around nowline carries no scope key and applies in every scope")
def test_correction_written_around_nowline_is_global(server: ChromaServer, tmp_path: Path) -> None:
    """A plain client's correction trips for every scope, whatever the reader's scope key."""
    program = Program(9, [_worker("w0", "user_id")], [
        ["remember", "w0", "m0", "note on svc/a", "alice"],
        ["raw_add", "c0", MOVE[0], "bob", MOVE[1], []],
    ])  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


@_rule("a wrapper without scope_key adopts the key of the store's corrections for its own")
def test_wrapper_without_scope_key_writes_global_corrections(
    server: ChromaServer, tmp_path: Path
) -> None:
    """A correction written by a wrapper without scope_key stores no scope key."""
    program = Program(10, [_worker("w0", "user_id")], [
        ["correct", "w0", "c0", *MOVE, "alice", None],
        ["restart", "w1", _worker("w1", cache="B")],
        ["correct", "w1", "c1", "Moved from svc/c to svc/d.", ["svc/c"], [], "bob", None],
    ])  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


@_rule("an edit through a wrapper with another scope key rewrites the correction's scope key")
def test_edit_keeps_the_scope_of_the_correction(server: ChromaServer, tmp_path: Path) -> None:
    """A correction edited through a scoped wrapper keeps the scope it was written with.

    Found by the long run (seed 1011): the unscoped writer, which still holds the correction
    as global, then shows it under Bob's memory and stores Bob's next memory linked to it.
    """
    program = Program(11, [_worker("w0"), _worker("w1", "user_id", cache="B")], [
        ["correct", "w0", "c0", *MOVE, 7, None],
        ["edit", "w1", "c0", "Moved from svc/a to svc/e.", ["svc/a"]],
        ["remember", "w0", "m1", "note on svc/a", "bob"],
    ], observe="rotate")  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))


def test_stats_count_a_link_to_a_correction_deleted_around_nowline_as_current(
    server: ChromaServer, tmp_path: Path
) -> None:
    """The long run of 2026-12-04 (seed 1004): the checker's own expectation was wrong.

    While links lag (a write around nowline since the last repair), ``stats()`` counts a
    stored historical record whose only link names a correction deleted around nowline as
    current, as its docstring says; the checker counted the stored role. It now counts alike.
    """
    program = Program(4, [_worker("w0"), _worker("w1", kind="async", cache="B")], [
        ["correct", "w0", "c0", *MOVE, None, None],
        ["remember", "w1", "m1", "note on svc/a", None],
        ["raw_add", "m2", "note on svc/c", None, [], []],
        ["raw_delete", "c0"],
    ])  # fmt: skip
    _holds(checker.run_program(server, tmp_path, program))
