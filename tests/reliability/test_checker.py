"""The multi-process checker: its reference for the scope rule, a clean program, random programs.

The random programs run with fixed seeds and a small budget (``make test``); ``make
checker-long`` runs many more (``CHECKER_PROGRAMS`` programs of ``CHECKER_STEPS`` steps) and
minimizes each failure it finds. The minimal programs of the faults it found are replayed one
by one in ``tests/regressions/test_checker_faults.py``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.conftest import ChromaServer
from tests.reliability import checker
from tests.reliability.reference import TRAVELS, Record, expected, expected_trips

pytestmark = pytest.mark.server


def _correction(rid: str, old: str, key: str | None = None, **meta: object) -> Record:
    """Return a stored correction of ``old``, scoped by ``key`` when given."""
    stored = {"deprecates": [old], "nowline_time": float(len(rid)), **meta}
    if key is not None:
        stored["nowline_scope_key"] = key
    return Record(rid, f"Moved from {old} to svc/new.", stored)


def test_a_global_correction_reaches_every_scope() -> None:
    """A correction without a stored scope key supersedes memories of every user."""
    records = [
        _correction("c", "svc/a", user_id="alice"),
        Record("m1", "svc/a for bob", {"user_id": "bob"}),
        Record("m2", "svc/a for nobody", {}),
    ]
    got = expected(records, TRAVELS)
    assert got["m1"].by == got["m2"].by == ("c",)


def test_a_scoped_correction_reaches_its_own_typed_token_only() -> None:
    """A correction stored with user_id 1 reaches 1, not True, "1", or a memory without it."""
    records = [
        _correction("c", "svc/a", "user_id", user_id=1),
        Record("int", "svc/a", {"user_id": 1}),
        Record("bool", "svc/a", {"user_id": True}),
        Record("str", "svc/a", {"user_id": "1"}),
        Record("none", "svc/a", {}),
    ]
    got = expected(records, TRAVELS)
    assert [rid for rid in ("int", "bool", "str", "none") if got[rid].by] == ["int"]
    assert expected_trips(records, "use svc/a", {"user_id": 1}) == {("c", "c")}
    assert expected_trips(records, "use svc/a", {"user_id": "1"}) == set()


def test_a_scoped_correction_supersedes_only_corrections_of_its_key_and_token() -> None:
    """Alice's newer correction supersedes Alice's, never a global one nor Bob's."""
    records = [
        _correction("c", "svc/a", "user_id", user_id="alice"),
        _correction("cc", "svc/b", user_id="alice"),
        _correction("ccc", "svc/c", "user_id", user_id="bob"),
        Record("old1", "Moved from svc/x to svc/a.", {"deprecates": ["svc/x"], "nowline_time": 0.0,
               "nowline_scope_key": "user_id", "user_id": "alice"}),
    ]  # fmt: skip
    records += [
        _correction("cccc", "svc/new", "user_id", user_id="alice"),
    ]
    got = expected(records, TRAVELS)
    assert got["c"].by == ("cccc",)  # same key and token
    assert got["cc"].by == ()  # global: not superseded by a scoped one
    assert got["ccc"].by == ()  # Bob's
    assert got["old1"].by == ("c",)


def test_a_leak_is_reported_at_once(tmp_path: Path) -> None:
    """The comparison flags a scoped correction shown under another scope's memory."""
    run = checker.Run(server=None, work=tmp_path, program=checker.Program(0, [], []))  # type: ignore[arg-type]
    records = [
        _correction("c", "svc/a", "user_id", user_id="alice"),
        Record("m", "svc/a", {"user_id": "bob"}),
    ]
    run.compare_recall("w0", {"m": ["historical", ["c"], ["c"]]}, records, leak_only=True)
    assert [f.kind for f in run.failures] == ["scope leak (recall)"]


CLEAN = checker.Program(
    seed=0,
    workers=[
        {"name": "w0", "kind": "sync", "scope_key": "user_id", "host": "127.0.0.1",
         "cache": "A", "offset": 0},
        {"name": "w1", "kind": "async", "scope_key": "user_id", "host": "localhost",
         "cache": "B", "offset": 0},
    ],
    steps=[
        ["remember", "w0", "m0", "note on svc/a and svc/b", "alice"],
        ["remember", "w1", "m1", "note on svc/a and team-red", "bob"],
        ["correct", "w1", "c0", "Moved from svc/a to svc/b.", ["svc/a"], [], "alice", None],
        ["correct", "w0", "c1", "Moved from svc/b to svc/c for team-red.", ["svc/b"],
         ["team-red"], "alice", None],
        ["correct", "w0", "c2", "Moved from svc/b to svc/d.", ["svc/b"], [], "alice", 2],
        ["retract", "w1", "c1"],
        ["edit", "w1", "c0", "Moved from svc/a to svc/e.", ["svc/a"]],
        ["cli", "check", "A", "127.0.0.1", 0],
        ["repair", "w0"],
    ],
)  # fmt: skip
"""A program that holds on the current protocol: no deletion, no write around nowline, one
scope key, one clock; a worker killed after the second Chroma write of a correction."""


def test_a_clean_program_agrees_with_the_reference(server: ChromaServer, tmp_path: Path) -> None:
    """Every process shows what the store holds after each step of the clean program."""
    run = checker.run_program(server, tmp_path, CLEAN)
    assert not run.failures, "\n".join(map(str, run.failures)) + "\n" + "\n".join(run.log)
    assert any("killed" in line for line in run.log)  # the fault was injected


SEEDS = ((11, "mixed"), (12, "global"), (13, "journal"))
STEPS = 10


def test_random_programs_agree_with_the_reference(server: ChromaServer, tmp_path: Path) -> None:
    """Random programs with injected faults keep every process equal to the reference."""
    for seed, profile in SEEDS:
        program = checker.generate(seed, STEPS, profile=profile)
        run = checker.run_program(server, tmp_path / str(seed), program)
        assert not run.failures, (
            "\n".join(map(str, run.failures))
            + f"\nreplay with checker.replay(server, work, {program.to_json()!r})"
        )


@pytest.mark.skipif(
    not os.environ.get("CHECKER_PROGRAMS"), reason="the long run: make checker-long"
)
def test_long_run(server: ChromaServer, tmp_path: Path) -> None:
    """Many random programs (CHECKER_PROGRAMS x CHECKER_STEPS) find no failure."""
    programs = int(os.environ["CHECKER_PROGRAMS"])
    steps = int(os.environ.get("CHECKER_STEPS", "20"))
    out = Path(os.environ.get("CHECKER_OUT", "build/checker"))
    out.mkdir(parents=True, exist_ok=True)
    log = (out / "long-run.log").open("a")

    def report(line: str) -> None:
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    started = time.monotonic()
    report(f"long run: {programs} programs x {steps} steps")
    budget = float(os.environ.get("CHECKER_MINIMIZE_SECONDS", "150"))
    profiles = os.environ.get("CHECKER_PROFILES", ",".join(checker.PROFILES)).split(",")
    found = checker.long_run(
        server, tmp_path, programs, steps, minimize_budget=budget, report=report, profiles=profiles
    )
    minutes = (time.monotonic() - started) / 60
    report(f"done: {programs} programs x {steps} steps in {minutes:.1f} min")
    (out / "long-run.json").write_text(
        json.dumps({" / ".join(k): v for k, v in found.items()}, indent=1)
    )
    assert not found, f"{len(found)} kinds of failure; see {out / 'long-run.json'}"
