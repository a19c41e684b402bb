"""A multi-process checker with injected faults (Jepsen and simulation testing, applied here).

Several real processes share one store, a ``chroma run`` server on a loopback port:

* long-lived wrappers (``checker_worker serve``), sync (``HttpClient``) and async
  (``AsyncHttpClient``), each with its own scope key, URL spelling, snapshot folder
  (``NOWLINE_CACHE_DIR``) and clock (``NOWLINE_CLOCK_OFFSET``);
* short-lived ``nowline`` commands (``check``, ``corrections``, ``stats``, ``recall``, all
  ``--json``), one process each;
* this process, as a plain chromadb client that writes, edits and deletes records (memories
  and corrections) around nowline.

A *program* is a seeded, replayable list of steps (JSON): writes through nowline (remember,
correct with scopes and anchors, retract, delete, edit, repair), raw writes, edits and
deletes, the ``nowline`` commands, and faults (a worker killed with SIGKILL after its K-th
Chroma write, a worker restarted with another clock, scope key, URL spelling or snapshot
folder, a snapshot damaged, replaced by another collection's, put back from a backup or its listing
dated an hour ahead, the store backed up and later restored while newer snapshots remain, the
generation mark deleted or rewritten by a plain client, the server restarted).

After every step the checker reads every record with a plain client and computes, with the
independent reference (:mod:`tests.reliability.reference`, the scope rule :data:`TRAVELS`),
what every process must show. Scope leaks are checked at once, before the bound; the rest once
the freshness bound (:data:`BOUND`) has passed: every process's ``recall()`` (the direct and
the newest correction ids beneath each record, and its role), ``check()`` (correction and newest
ids per probe text and scope), ``corrections()`` (ids, status) and ``stats()``.

``stats()`` counts stored roles (README "Roles"), and stored links of records written around
nowline, or by a process killed mid-write, lag until ``repair()``. So the stored links (and the
stats) are compared with the reference only while the program has made no such write since its
last ``repair()``; otherwise ``stats()`` must equal the stored roles as a plain read counts them.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chromadb
import pytest

from tests.conftest import ChromaServer, FakeEmbedding
from tests.reliability.procs import ROOT, Child
from tests.reliability.reference import (
    TRAVELS,
    Record,
    all_records,
    expected,
    expected_trips,
    stored_links,
)
from tests.snapshot_files import read_state, write_state

__all__ = [
    "BOUND",
    "REFRESH",
    "Failure",
    "Run",
    "generate",
    "minimize",
    "replay",
    "run_program",
]

REFRESH = 0.25
"""The ``refresh_seconds`` every worker is opened with."""

BOUND = REFRESH * 2 + 0.5
"""The least the checker waits after a step for every process to show what the store holds;
it waits longer where a worker states a longer bound (README, "Freshness")."""

RESYNC = 2.0
"""The resync interval of every process of a run (``NOWLINE_RESYNC_SECONDS``; 60 s by default),
short so that writes around nowline are checked within a step's wait."""

JOURNAL_KEEP = 3
"""The done entries a worker's journal holds before it folds them (nowline keeps 32): small,
so that folds happen within a program. Workers fold at every other write."""

COLLECTION = "mem"
SCOPE_KEY = "user_id"
USERS: tuple[Any, ...] = ("alice", "bob", None, 7)
"""Scope values of records (None: the key is absent). 7 is an int: its own typed token."""

THINGS = tuple(f"svc/{c}" for c in "abcdefg")
ANCHORS = ("team-red", "team-blue")
FILLER = 1100
"""Records a ``fill`` step adds (plain, naming nothing): the store then spans two scan pages."""

PROBES: tuple[tuple[str, dict[str, Any]], ...] = tuple(
    (text, {SCOPE_KEY: user})
    for text in (" ".join(THINGS), " ".join(THINGS + ANCHORS))
    for user in USERS
)
"""The texts ``check()`` runs on in every process, once per scope value."""


# --------------------------------------------------------------------------- programs

Step = list[Any]


@dataclass
class Program:
    """A replayable program: its seed, its workers at the start, and its steps."""

    seed: int
    workers: list[dict[str, Any]]
    steps: list[Step]
    strict: bool = False
    """The journal profile: no write around nowline, a resync of an hour, and the checker waits
    only the bound for changes made through nowline, so that a change the journal misses
    fails instead of being found by the resync listing."""
    observe: str = "all"
    """Which workers are asked what they show after a step: ``all``, or ``rotate`` (after
    step i only the i-th worker, in turn). A read verifies the corrections it shows, so a
    worker that is not asked carries what it knew into its next write, as a process that
    only writes would."""

    def to_json(self) -> str:
        """Return the program as one JSON line (what a failure prints)."""
        data = {"seed": self.seed, "workers": self.workers, "steps": self.steps}
        if self.observe != "all":
            data["observe"] = self.observe
        if self.strict:
            data["strict"] = True
        return json.dumps(data)

    @staticmethod
    def from_json(text: str) -> Program:
        """Read a program printed by :meth:`to_json`."""
        data = json.loads(text)
        return Program(
            data["seed"],
            data["workers"],
            data["steps"],
            strict=data.get("strict", False),
            observe=data.get("observe", "all"),
        )


def _spec(rng: random.Random, name: str, kind: str | None = None) -> dict[str, Any]:
    """Return a random worker: kind, scope key, URL spelling, snapshot folder, clock offset."""
    return {
        "name": name,
        "kind": kind or rng.choice(["sync", "async"]),
        "scope_key": rng.choice([SCOPE_KEY, None]),
        "host": rng.choice(["127.0.0.1", "localhost"]),
        "cache": rng.choice(["A", "B"]),
        "offset": rng.choice([0, 0, 0, 3600, -3600]),
    }


PROFILES = ("mixed", "scoped", "global", "journal")
"""Program profiles: scope keys at random; every wrapper scoped; no wrapper scoped; the journal.

On a store where no wrapper has a scope key, every correction is global under either rule,
so the freshness faults show without the scope rule in the way; the scoped profile opens
every wrapper with the key, as a deployment that always passes it would. The journal profile
(:attr:`Program.strict`) makes no write around nowline and waits only the bound for changes
made through nowline, with every other fault.
"""


def generate(seed: int, steps: int, faults: bool = True, profile: str = "mixed") -> Program:
    """Return a random program of ``steps`` steps (``faults=False``: nowline writes only)."""
    rng = random.Random(seed)
    workers = [_spec(rng, "w0", "sync"), _spec(rng, "w1", "async"), _spec(rng, "w2")]
    if not faults:
        for w in workers:
            w.update(host="127.0.0.1", cache="A", offset=0)
    keep = {"scoped": SCOPE_KEY, "global": None}
    for w in workers:
        if profile in keep:
            w["scope_key"] = keep[profile]
    names = [w["name"] for w in workers]
    ids = itertools.count()
    memories: list[str] = []
    corrections: list[str] = []
    backed_up = filled = False
    weights = {
        "remember": 4.0,
        "correct": 3.0,
        "retract": 1.0,
        "delete": 1.0,
        "edit": 1.0,
        "repair": 0.4,
        "cli": 1.2,
        "raw_add": 2.0,
        "raw_edit": 1.0,
        "raw_delete": 0.8,
        "restart": 0.6,
        "snap": 0.8,
        "backup": 0.25,
        "restore": 0.25,
        "fill": 0.3,
        "mark": 0.4,
        "journal": 0.4,
        "server_restart": 0.2,
    }
    strict = profile == "journal"
    if strict:
        for k in ("raw_add", "raw_edit", "raw_delete"):
            weights[k] = 0.0
    if not faults:
        for k in (
            "raw_add",
            "raw_edit",
            "raw_delete",
            "restart",
            "snap",
            "backup",
            "restore",
            "mark",
            "journal",
            "server_restart",
        ):
            weights[k] = 0.0
        weights["fill"] = 0.0
    kinds, w = zip(*weights.items(), strict=True)
    out: list[Step] = []

    def text_naming(k: int) -> str:
        named = rng.sample(THINGS, k)
        if rng.random() < 0.3:
            named.append(rng.choice(ANCHORS))
        return "note on " + " and ".join(named)

    def user() -> Any:
        return rng.choice(USERS)

    def correction() -> tuple[str, list[str], list[str]]:
        old, new = rng.sample(THINGS, 2)
        about = [rng.choice(ANCHORS)] if rng.random() < 0.2 else []
        tail = f" for {about[0]}" if about else ""
        return f"Moved from {old} to {new}{tail}.", [old], about

    def kill() -> int | None:
        return rng.randint(1, 4) if faults and rng.random() < 0.15 else None

    while len(out) < steps:
        op = rng.choices(kinds, w)[0]
        proc = rng.choice(names)
        if op == "remember":
            rid = f"m{next(ids)}"
            memories.append(rid)
            out.append(["remember", proc, rid, text_naming(rng.randint(1, 2)), user()])
        elif op == "correct":
            rid = f"c{next(ids)}"
            corrections.append(rid)
            text, dep, about = correction()
            out.append(["correct", proc, rid, text, dep, about, user(), kill()])
        elif op in ("retract", "edit", "raw_edit") and corrections:
            rid = rng.choice(corrections)
            if op == "retract":
                out.append(["retract", proc, rid])
            elif op == "edit":
                text, dep, _ = correction()
                out.append(["edit", proc, rid, text, dep])
            else:
                change = rng.choice(["text", "deprecates", "retract"])
                text, dep, _ = correction()
                out.append(["raw_edit", rid, change, text, dep])
        elif op in ("delete", "raw_delete") and (corrections or memories):
            pool = corrections if corrections and rng.random() < 0.7 else memories or corrections
            rid = rng.choice(pool)
            pool.remove(rid)
            if op == "delete":
                out.append(["delete", proc, rid, kill()])
            else:
                out.append(["raw_delete", rid])
        elif op == "repair":
            out.append(["repair", proc])
        elif op == "cli":
            cmd = rng.choice(["check", "corrections", "stats", "recall"])
            out.append(
                [
                    "cli",
                    cmd,
                    rng.choice("AB"),
                    rng.choice(["127.0.0.1", "localhost"]),
                    rng.randrange(len(PROBES)),
                ]
            )
        elif op == "raw_add":
            if rng.random() < 0.4:
                rid = f"c{next(ids)}"
                corrections.append(rid)
                text, dep, about = correction()
                out.append(["raw_add", rid, text, user(), dep, about])
            else:
                rid = f"m{next(ids)}"
                memories.append(rid)
                out.append(["raw_add", rid, text_naming(rng.randint(1, 2)), user(), [], []])
        elif op == "restart":
            spec = _spec(rng, proc)
            if profile in keep:
                spec["scope_key"] = keep[profile]
            out.append(["restart", proc, spec])
        elif op == "snap":
            how = rng.choice(["damage", "garbage", "replace", "stale", "future"])
            out.append(["snap", how, rng.choice("AB")])
        elif op == "backup":
            backed_up = True
            out.append(["backup"])
        elif op == "restore" and backed_up:
            out.append(["restore"])
        elif op == "fill" and not filled:
            filled = True
            out.append(["fill"])
        elif op == "mark":
            out.append(["mark", rng.choice(["delete", "rewrite"])])
        elif op == "journal":
            # Entries deleted around nowline are found by the resync only: not in strict.
            out.append(["journal", "garbage" if strict else rng.choice(["garbage", "delete"])])
        elif op == "server_restart":
            out.append(["server_restart"])
    return Program(seed, workers, out, strict=strict, observe="rotate" if seed % 2 else "all")


# ---------------------------------------------------------------------------- failures


@dataclass(frozen=True)
class Failure:
    """One disagreement between a process and the reference, at a step."""

    step: int
    process: str
    kind: str
    detail: str
    cause: tuple[str, ...] = ()
    """The kinds of steps so far that touched the records the detail names (e.g. a
    ``raw_delete`` of the correction that a process still lists)."""

    def __str__(self) -> str:
        """Return the failure as a report line."""
        return f"step {self.step}, {self.process}, {self.kind}: {self.detail}"

    @property
    def signature(self) -> tuple[str, str, str]:
        """Return what tells failures apart: the kind, worker, cli or the store, and the cause."""
        who = self.process.split()[0]
        return self.kind, "worker" if who.startswith("w") else who, "+".join(self.cause)


def _diff(got: Mapping[str, Any], want: Mapping[str, Any], limit: int = 6) -> str:
    """Return up to ``limit`` entries where two maps differ."""
    keys = [k for k in sorted(set(got) | set(want), key=str) if got.get(k) != want.get(k)]
    parts = [f"{k}: got {got.get(k, '<absent>')!r}, want {want.get(k, '<absent>')!r}" for k in keys]
    more = f" (+{len(parts) - limit} more)" if len(parts) > limit else ""
    return "; ".join(parts[:limit]) + more


# ------------------------------------------------------------------------------ a run


def snapshot_files(cache: Path, collection_id: str) -> list[Path]:
    """Return the snapshot files of a collection in a cache folder (opaque files)."""
    if not cache.exists():
        return []
    return sorted(p for p in cache.rglob("*") if p.is_file() and collection_id in p.name)


@dataclass
class Run:
    """One program's run: the store, its processes, and what has been found."""

    server: ChromaServer
    work: Path
    program: Program
    database: str = ""
    failures: list[Failure] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    workers: dict[str, Child] = field(default_factory=dict)
    specs: dict[str, dict[str, Any]] = field(default_factory=dict)
    links_exact: bool = True
    backup: tuple[Path, Path, bool] | None = None
    step_index: int = -1
    raw: Any = None
    other_id: str = ""

    # ------------------------------------------------------------------ set-up

    def url(self, host: str) -> str:
        """Return the server's URL with this host spelling."""
        return f"http://{host}:{self.server.port}"

    def cache(self, name: str) -> Path:
        """Return a snapshot folder of this run (A or B)."""
        return self.work / f"cache-{name}"

    def env(self, spec: Mapping[str, Any]) -> dict[str, str]:
        """Return the environment of a process: its snapshot folder and its clock."""
        return {
            "NOWLINE_CACHE_DIR": str(self.cache(spec["cache"])),
            "NOWLINE_CLOCK_OFFSET": str(spec.get("offset", 0)),
            "NOWLINE_RESYNC_SECONDS": str(3600.0 if self.program.strict else RESYNC),
            "CHECKER_JOURNAL_KEEP": str(JOURNAL_KEEP),
        }

    def open(self) -> None:
        """Create the store's collections and start the workers."""
        self.database = self.server.new_database()
        client = chromadb.HttpClient(
            host="127.0.0.1", port=self.server.port, database=self.database
        )
        self.raw = client.create_collection(COLLECTION, embedding_function=FakeEmbedding())
        other = client.create_collection("other", embedding_function=FakeEmbedding())
        other.add(
            ids=["x0"],
            documents=["Moved from svc/a to svc/z."],
            metadatas=[{"deprecates": ["svc/a"], "nowline_correction": True}],
        )
        self.other_id = str(other.id)
        self.start([dict(s) for s in self.program.workers])

    def start(self, specs: Sequence[dict[str, Any]]) -> None:
        """Start workers (in parallel) and open the collection in each."""
        children = {}
        for spec in specs:
            args = (
                "serve",
                self.url(spec["host"]),
                self.database,
                spec["kind"],
                spec["scope_key"] or "-",
            )
            children[spec["name"]] = Child(
                *args, module="tests.reliability.checker_worker", env=self.env(spec)
            )
            self.specs[spec["name"]] = dict(spec)
        for name, child in children.items():
            child.expect("ready")
            self.workers[name] = child
        for child in children.values():
            child.send(json.dumps({"op": "open", "refresh": REFRESH}))
        for name, child in children.items():
            self.answer(name, child.expect("R ", timeout=60))

    def stop_worker(self, name: str, graceful: bool = True) -> None:
        """End a worker: close its stdin (it saves its snapshot at exit) or kill it."""
        child = self.workers.pop(name, None)
        if child is None:
            return
        if graceful:
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.finish(timeout=30)
        child.__exit__(None, None, None)

    def close(self) -> None:
        """Stop every worker."""
        for name in list(self.workers):
            self.stop_worker(name, graceful=False)

    # ------------------------------------------------------------------ commands

    def answer(self, name: str, line: str) -> Any:
        """Return a worker's result; an unexpected exception is a failure."""
        result = json.loads(line[2:])
        if "error" in result and not result["nowline"]:
            self.fail(name, "raised", f"{result['error']}: {result['message']}\n{result['trace']}")
        return result

    def command(self, name: str, command: dict[str, Any]) -> Any:
        """Send one command to a worker and return its answer; None if it paused (killed)."""
        child = self.workers[name]
        child.send(json.dumps(command))
        line = child.expect(("R ", "P "), timeout=120)
        if line.startswith("P "):
            self.stop_worker(name, graceful=False)
            self.links_exact = False  # its write stopped half-way: links lag until repair
            self.log.append(f"  {name} killed mid-write")
            return None
        return self.answer(name, line)

    def fail(self, process: str, kind: str, detail: str) -> None:
        """Record a failure at the current step (at most three per kind and process class)."""
        named = set(re.findall(r"\b[cm]\d+\b", detail))
        cause = sorted({
            step[0]
            for step in self.program.steps[: self.step_index + 1]
            if {str(x) for x in step[1:3]} & named and step[0] not in ("remember", "cli")
        })  # fmt: skip
        failure = Failure(self.step_index, process, kind, detail, tuple(cause))
        if sum(f.signature == failure.signature for f in self.failures) < 3:
            self.failures.append(failure)

    # ------------------------------------------------------------------ steps

    def step(self, step: Step) -> None:
        """Run one step; a worker killed by it is started again, with the same spec."""
        op = step[0]
        if op in ("remember", "correct", "retract", "delete", "edit", "repair"):
            self.nowline_step(step)
        elif op.startswith("raw_") or op == "fill":
            self.raw_step(step)
        elif op == "cli":
            self.cli_step(*step[1:])
        elif op == "restart":
            name, spec = step[1], step[2]
            self.stop_worker(name)
            self.start([spec])
        elif op == "snap":
            self.snap_step(step[1], step[2])
        elif op == "backup":
            self.backup_step()
        elif op == "restore":
            self.restore_step()
        elif op == "mark":
            self.mark_step(step[1])
        elif op == "journal":
            self.journal_step(step[1])
        elif op == "server_restart":
            port = self.server.port
            self.server.stop()
            time.sleep(1.0)
            self.server.start(port)
        else:
            raise ValueError(f"unknown step {step!r}")
        for name, spec in self.specs.items():
            if name not in self.workers:  # killed: a new process of the same kind takes over
                self.start([spec])

    def nowline_step(self, step: Step) -> None:
        """Send a nowline write to its worker."""
        op, name = step[0], step[1]
        if op == "remember":
            _, _, rid, text, user = step
            command = {"op": op, "id": rid, "text": text, **_user(user)}
        elif op == "correct":
            _, _, rid, text, dep, about, user, kill = step
            command = {
                "op": op,
                "id": rid,
                "text": text,
                "deprecates": dep,
                "about": about,
                "kill_after": kill,
                **_user(user),
            }
        elif op in ("retract",):
            command = {"op": op, "id": step[2]}
        elif op == "delete":
            command = {"op": op, "id": step[2], "kill_after": step[3]}
        elif op == "edit":
            command = {"op": op, "id": step[2], "text": step[3], "deprecates": step[4]}
        else:
            command = {"op": "repair"}
        before = self.stored_scope_key(step[2]) if op == "edit" else None
        result = self.command(name, command)
        if op == "edit" and result is not None and "ok" in result:
            after = self.stored_scope_key(step[2])
            if after != before:
                self.fail(name, "scope written", f"editing {step[2]} changed its scope key "
                          f"from {before!r} to {after!r}")  # fmt: skip
        if op == "repair" and result is not None and "ok" in result:
            self.links_exact = True
        if op == "correct" and result is not None and "ok" in result:
            # DESIGN §7: the scope travels with the correction, from the wrapper that wrote it.
            stored = self.stored_scope_key(command["id"])
            if stored != self.specs[name]["scope_key"]:
                self.fail(
                    name,
                    "scope written",
                    f"{command['id']} stores scope key {stored!r}; "
                    f"its wrapper has {self.specs[name]['scope_key']!r}",
                )

    def stored_scope_key(self, rid: str) -> Any:
        """Return the scope key a record stores (None when it has none or is gone)."""
        got = self.raw.get(ids=[rid], include=["metadatas"])["metadatas"]
        return (got[0] or {}).get("nowline_scope_key") if got else None

    def raw_step(self, step: Step) -> None:
        """Write, edit or delete around nowline, with this process's plain client."""
        op = step[0]
        if op == "fill":
            for start in range(0, FILLER, 500):
                ids = [f"f{i}" for i in range(start, min(FILLER, start + 500))]
                self.raw.add(ids=ids, documents=[f"filler {i}" for i in ids])
            return
        self.links_exact = False
        if op == "raw_add":
            _, rid, text, user, dep, about = step
            meta: dict[str, Any] = {}
            if user is not None:
                meta[SCOPE_KEY] = user
            if dep:
                # A plain client's correction is listed by every process once it carries
                # nowline's mark (README, "Freshness", 4); without it, it waits for a read
                # that returns it or for repair(), which this reference does not model.
                meta["deprecates"] = dep
                meta["nowline_correction"] = True
            if about:
                meta["about"] = about
            with contextlib.suppress(ValueError):
                self.raw.add(ids=[rid], documents=[text], metadatas=[meta] if meta else None)
        elif op == "raw_delete":
            self.raw.delete(ids=[step[1]])
        else:
            _, rid, change, text, dep = step
            if not self.raw.get(ids=[rid], include=[])["ids"]:
                return
            if change == "text":
                self.raw.update(ids=[rid], documents=[text])
            elif change == "deprecates":
                self.raw.update(ids=[rid], metadatas=[{"deprecates": dep}])
            else:
                self.raw.update(ids=[rid], metadatas=[{"nowline_retracted": time.time()}])

    def cli_step(self, cmd: str, cache: str, host: str, probe: int) -> None:
        """Run one ``nowline`` command as its own process and compare its output."""
        text, meta = PROBES[probe]
        args = ["--url", self.url(host), "--database", self.database, "-c", COLLECTION]
        if cmd == "check":
            args = ["check", *args, text, "--metadata", json.dumps(meta), "--json"]
        elif cmd == "recall":
            n = max(1, self.raw.count())
            args = ["recall", *args, "memory", "-k", str(n), "--json"]
        else:
            args = [cmd, *args, "--json"]
        env = {**os.environ, **self.env({"cache": cache}), "HF_HUB_OFFLINE": "1"}
        done = subprocess.run(
            [sys.executable, "-m", "tests.reliability.checker_worker", "cli", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            check=False,
        )
        process = f"cli {cmd} (cache {cache}, {host})"
        if done.returncode not in ((0, 1) if cmd == "check" else (0,)):
            self.fail(process, "exit", f"exit {done.returncode}: {done.stderr[-1500:]}")
            return
        try:
            out = json.loads(done.stdout)
        except json.JSONDecodeError:
            self.fail(process, "output", done.stdout[-500:] + done.stderr[-1000:])
            return
        records = self.records()
        if cmd == "check":
            got = sorted([t["correction"]["id"], t["newest"]["id"]] for t in out)
            self.compare_trips(process, [got], [PROBES[probe]], records, leak_only=False)
        elif cmd == "recall":
            states = {
                h["id"]: [
                    h["role"],
                    sorted(c["id"] for c in h["direct"]),
                    [c["id"] for c in h["now"]],
                ]
                for h in out["hits"]
            }
            self.compare_recall(process, states, records, leak_only=False, partial=True)
        elif cmd == "corrections":
            got = sorted([c["id"], c["status"]] for c in out)
            self.compare_corrections(process, got, records)
        else:
            roles = {**out["roles"], "records": out["records"]}
            self.compare_stats(process, roles, records)
            want = Counter(r.retracted for r in records if r.is_correction)
            got_counts = (out["corrections"]["active"], out["corrections"]["retracted"])
            if got_counts != (want[False], want[True]):
                self.fail(
                    process,
                    "stats corrections",
                    f"got {got_counts}, want {(want[False], want[True])}",
                )

    def snap_step(self, how: str, cache: str) -> None:
        """Damage, replace, put back or post-date the snapshots of a snapshot folder."""
        files = snapshot_files(self.cache(cache), str(self.raw.id))
        if how == "replace":
            others = [p for c in "AB" for p in snapshot_files(self.cache(c), self.other_id)]
            if not others:
                others = self.other_snapshot(cache)
            for path in files:
                shutil.copyfile(others[0], path) if others else None
        elif how == "stale":
            if self.backup is None:
                return
            saved = self.backup[1] / f"cache-{cache}"
            for path in snapshot_files(saved, str(self.raw.id)):
                target = self.cache(cache) / path.relative_to(saved)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
        for path in files:
            if how == "damage":
                data = path.read_bytes()
                path.write_bytes(data[: len(data) // 2])
            elif how == "garbage":
                path.write_bytes(random.Random(self.step_index).randbytes(200))
            elif how == "future":  # its listing dated an hour ahead of this clock
                with contextlib.suppress(sqlite3.Error, KeyError, ValueError, OSError):
                    state = read_state(path)
                    write_state(path, {**state, "listed": float(state["listed"]) + 3600})

    def other_snapshot(self, cache: str) -> list[Path]:
        """Write the other collection's snapshot into a folder (a wrapper opened here)."""
        import nowline

        before = os.environ.get("NOWLINE_CACHE_DIR")
        os.environ["NOWLINE_CACHE_DIR"] = str(self.cache(cache))
        try:
            client = chromadb.HttpClient(
                host="127.0.0.1", port=self.server.port, database=self.database
            )
            nowline.wrap(client.get_collection("other", embedding_function=FakeEmbedding()))
        finally:
            if before is None:
                del os.environ["NOWLINE_CACHE_DIR"]
            else:
                os.environ["NOWLINE_CACHE_DIR"] = before
        return snapshot_files(self.cache(cache), self.other_id)

    def mark_step(self, how: str) -> None:
        """Delete the collection's generation mark, or rewrite it, with a plain client."""
        from nowline._io.mark import MARK_KEY, companion_name

        client = chromadb.HttpClient(
            host="127.0.0.1", port=self.server.port, database=self.database
        )
        name = companion_name(self.raw.id)
        with contextlib.suppress(Exception):  # no mark written yet
            if how == "delete":
                client.delete_collection(name)
            else:
                client.get_collection(name).modify(metadata={MARK_KEY: f"raw {self.step_index}"})

    def journal_step(self, how: str) -> None:
        """Add a record of another shape to the journal, or delete its entries, plainly."""
        from nowline._io.mark import companion_name

        client = chromadb.HttpClient(
            host="127.0.0.1", port=self.server.port, database=self.database
        )
        with contextlib.suppress(Exception):  # no companion made yet
            companion = client.get_collection(companion_name(self.raw.id))
            if how == "garbage":
                companion.upsert(
                    ids=[f"raw-{self.step_index}"], embeddings=[[0.0]], metadatas=[{"x": 1}]
                )
            else:
                companion.delete(ids=companion.get(include=[])["ids"])

    def backup_step(self) -> None:
        """Stop the server, copy its folder and the snapshot folders, start it again."""
        k = len(list(self.work.glob("backup-*")))
        target = self.work / f"backup-{k}"
        self.server.stop()
        shutil.copytree(self.server.path, target / "data")
        for name in "AB":
            if self.cache(name).exists():
                shutil.copytree(self.cache(name), target / f"cache-{name}")
        self.server.start(self.server.port)
        self.backup = (target / "data", target, self.links_exact)

    def restore_step(self) -> None:
        """Stop the server, put the backed-up folder back, start it on the same port."""
        if self.backup is None:
            return
        self.server.stop()
        shutil.rmtree(self.server.path)
        shutil.copytree(self.backup[0], self.server.path)
        self.server.start(self.server.port)
        self.links_exact = self.backup[2]

    # ------------------------------------------------------------------ checking

    def records(self) -> list[Record]:
        """Return every record of the store, as a plain client reads it."""
        return all_records(self.raw)

    def observe(self, leak_only: bool) -> None:
        """Ask every worker what it shows and compare it with the reference."""
        records = self.records()
        asked = dict(self.workers)
        if self.program.observe == "rotate" and self.step_index >= 0:
            names = sorted(self.specs)
            turn = names[self.step_index % len(names)] if names else None
            asked = {k: v for k, v in asked.items() if k == turn}
        for child in asked.values():
            child.send(
                json.dumps(
                    {
                        "op": "observe",
                        "probes": [list(p) for p in PROBES],
                        "strict": self.program.strict,
                    }
                )
            )
        for name, child in asked.items():
            result = self.answer(name, child.expect("R ", timeout=120))
            if "ok" not in result:
                self.fail(name, "observe", str(result))
                continue
            seen = result["ok"]
            self.compare_recall(name, seen["recall"], records, leak_only)
            self.compare_trips(name, seen["trips"], PROBES, records, leak_only)
            if leak_only:
                continue
            self.compare_corrections(name, seen["corrections"], records)
            self.compare_stats(name, seen["stats"], records)
        self.compare_links(records, leak_only)

    def compare_recall(
        self,
        process: str,
        got: Any,
        records: list[Record],
        leak_only: bool,
        partial: bool = False,
    ) -> None:
        """Compare recall() states with the reference; any scope leak fails."""
        if isinstance(got, dict) and "error" in got and len(got) == 1:
            self.fail(process, "recall raised", got["error"])
            return
        by_id = {r.id: r for r in records}
        for rid, (_, direct, now) in got.items():
            for cid in {*direct, *now}:
                if cid in by_id and rid in by_id and not by_id[cid].reaches(by_id[rid]):
                    self.fail(
                        process,
                        "scope leak (recall)",
                        f"{cid} shown under {rid}: "
                        f"{dict(by_id[cid].metadata)} / {dict(by_id[rid].metadata)}",
                    )
        if leak_only:
            return
        want = {
            rid: [e.role, list(e.by), list(e.now)] for rid, e in expected(records, TRAVELS).items()
        }
        if partial:
            want = {k: v for k, v in want.items() if k in got}
        if got != want:
            self.fail(process, "recall", _diff(got, want))

    def compare_trips(
        self,
        process: str,
        got: Sequence[Any],
        probes: Sequence[tuple[str, dict[str, Any]]],
        records: list[Record],
        leak_only: bool,
    ) -> None:
        """Compare check() trips per probe with the reference; any scope leak fails."""
        by_id = {r.id: r for r in records}
        for (text, meta), trips in zip(probes, got, strict=True):
            if isinstance(trips, dict):
                self.fail(process, "check raised", f"{meta}: {trips['error']}")
                continue
            probe = Record("probe", text, meta)
            for pair in trips:
                for cid in pair:
                    if cid in by_id and not by_id[cid].reaches(probe):
                        self.fail(
                            process,
                            "scope leak (check)",
                            f"{cid} trips for {meta}: {dict(by_id[cid].metadata)}",
                        )
            if leak_only:
                continue
            want = sorted([c, n] for c, n in expected_trips(records, text, meta))
            if sorted(trips) != want:
                self.fail(
                    process,
                    "check",
                    f"{meta} (anchors {'team-red' in text}): got {sorted(trips)}, want {want}",
                )

    def compare_corrections(self, process: str, got: Any, records: list[Record]) -> None:
        """Compare corrections() (ids, status) with the store's corrections."""
        if isinstance(got, dict):
            self.fail(process, "corrections raised", got["error"])
            return
        want = sorted(
            [r.id, "retracted" if r.retracted else "active"] for r in records if r.is_correction
        )
        if got != want:
            self.fail(process, "corrections", _diff(dict(got), dict(want)))

    def compare_stats(self, process: str, got: Any, records: list[Record]) -> None:
        """Compare stats() with the reference's roles (or the stored roles while links lag).

        While links lag, ``stats()`` counts a stored historical record whose every link names a
        correction that is gone or retracted as current (as its docstring says), and so does
        this.
        """
        if "error" in got:
            self.fail(process, "stats raised", got["error"])
            return
        if self.links_exact:
            roles = Counter(e.role for e in expected(records, TRAVELS).values())
        else:
            # The stored roles, as stats() counts them: a stored historical record whose
            # every link names a correction that is gone or retracted counts as current.
            active = {r.id for r in records if r.is_correction and not r.retracted}
            roles = Counter(
                "current"
                if role == "historical"
                and not any(c in active for c in r.metadata.get("nowline_by") or ())
                else role
                for r in records
                for role in [r.metadata.get("nowline_role") or "current"]
            )
        want = {k: roles.get(k, 0) for k in ("current", "historical", "transition", "retracted")}
        want["records"] = len(records)
        if got != want:
            self.fail(process, "stats", _diff(got, want))

    def compare_links(self, records: list[Record], leak_only: bool) -> None:
        """Check the stored links: never across scopes; equal to the reference when exact."""
        by_id = {r.id: r for r in records}
        for r in records:
            for cid in r.metadata.get("nowline_by") or ():
                if cid in by_id and not by_id[cid].reaches(r):
                    self.fail("store", "scope leak (stored link)", f"{r.id} linked to {cid}")
        if leak_only or not self.links_exact:
            return
        want = {rid: (e.by, e.stored_role) for rid, e in expected(records, TRAVELS).items()}
        got = stored_links(records)
        if got != want:
            self.fail("store", "stored links", _diff(got, want))

    def wait_bound(self, since: float) -> None:
        """Wait until every worker's stated bound has passed since ``since``, reading meanwhile.

        The bound is the one nowline states (README, "Freshness"): each worker reports the
        bounds it last measured (``freshness_bounds``), and the longest is waited out, with
        the workers reading ("a wrapper that keeps reading") and reporting again meanwhile.
        """
        bound = BOUND
        while since + bound - time.monotonic() > 0:
            for name, child in list(self.workers.items()):
                child.send(json.dumps({"op": "bounds"}))
                answer = self.answer(name, child.expect("R ", timeout=120))
                stated = answer.get("ok") or [0.0]
                bound = max(bound, (stated[0] if self.program.strict else max(stated)) + 0.2)
            for child in self.workers.values():
                child.send(json.dumps({"op": "tick"}))
            for name, child in list(self.workers.items()):
                self.answer(name, child.expect("R ", timeout=120))
            time.sleep(min(REFRESH, max(0.0, since + bound - time.monotonic())))


def _user(user: Any) -> dict[str, Any]:
    """Return the ``user`` field of a worker command (absent: no scope value)."""
    return {} if user is None else {"user": user}


_QUIET = ("cli", "snap", "backup")


def run_program(
    server: ChromaServer,
    work: Path,
    program: Program,
    stop: bool | Callable[[Failure], bool] = True,
) -> Run:
    """Run a program; return the run with its failures.

    It ends at the first failing step (``stop=True``), at the first failure ``stop`` accepts
    (a predicate), or runs to the end (``stop=False``).
    """
    work.mkdir(parents=True, exist_ok=True)
    run = Run(server, work, program)

    def done() -> bool:
        if callable(stop):
            return any(map(stop, run.failures))
        return stop and bool(run.failures)

    try:
        run.open()
        run.step_index = -1
        run.observe(leak_only=False)
        for i, step in enumerate(program.steps):
            run.step_index = i
            run.log.append(f"{i}: {json.dumps(step)}")
            run.step(step)
            ended = time.monotonic()
            if done():
                break
            if step[0] not in _QUIET:
                # A scope leak fails at once, within the bound; not in the journal profile,
                # whose reads there (recall returns every correction) would teach what a
                # catch-up by the journal must find on its own.
                if program.observe == "all" and not program.strict:
                    run.observe(leak_only=True)
                    if done():
                        break
                run.wait_bound(ended)
            run.observe(leak_only=False)
            if done():
                break
    except pytest.fail.Exception as exc:  # a worker died or stopped answering
        run.fail("harness", "process", str(exc)[-2000:])
    finally:
        run.close()
    return run


def replay(server: ChromaServer, work: Path, program_json: str) -> Run:
    """Run a program printed by a failure (the minimal list a report gives)."""
    return run_program(server, work, Program.from_json(program_json))


def minimize(
    server: ChromaServer,
    work: Path,
    program: Program,
    failing: Failure,
    budget: float = 300.0,
    same: Callable[[Failure, Failure], bool] | None = None,
) -> Program:
    """Return a shorter program that still fails the same way (greedy, within ``budget`` s).

    The steps after the failing one are dropped; then chunks of steps, halving in size, are
    removed while the failure (its kind, and the process kind) remains.
    """
    same = same or (lambda a, b: a.signature == b.signature)
    deadline = time.monotonic() + budget
    best = Program(
        program.seed,
        program.workers,
        program.steps[: failing.step + 1],
        strict=program.strict,
        observe=program.observe,
    )
    runs = itertools.count()

    def fails(candidate: Program) -> bool:
        def like(f: Failure) -> bool:
            return same(f, failing)

        run = run_program(server, work / f"min-{next(runs)}", candidate, stop=like)
        return any(map(like, run.failures))

    chunk = max(1, len(best.steps) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        while i < len(best.steps) and time.monotonic() < deadline:
            trial = Program(
                best.seed,
                best.workers,
                best.steps[:i] + best.steps[i + chunk :],
                strict=best.strict,
                observe=best.observe,
            )
            if trial.steps and fails(trial):
                best = trial
            else:
                i += chunk
        chunk //= 2
    return best


def long_run(
    server: ChromaServer,
    work: Path,
    programs: int,
    steps: int,
    first_seed: int = 1000,
    minimize_budget: float = 240.0,
    report: Callable[[str], None] = print,
    profiles: Sequence[str] = PROFILES,
) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Run many programs; minimize the first program of each new failure signature.

    Returns ``{signature: {"program": minimal JSON, "failure": str, "seed": ...}}`` and reports
    progress through ``report``.
    """
    found: dict[tuple[str, str, str], dict[str, Any]] = {}
    started = time.monotonic()
    for n in range(programs):
        seed = first_seed + n
        profile = profiles[seed % len(profiles)]
        program = generate(seed, steps, profile=profile)
        run = run_program(server, work / f"p{seed}", program, stop=False)
        new = [f for f in run.failures if f.signature not in found]
        report(
            f"program {n + 1}/{programs} seed {seed} ({profile}): {len(run.failures)} "
            f"failures, new {sorted({f.signature for f in new})}, "
            f"{(time.monotonic() - started) / 60:.1f} min"
        )
        for failure in new:
            if failure.signature in found:
                continue
            small = minimize(
                server, work / f"min-{seed}-{len(found)}", program, failure, budget=minimize_budget
            )
            found[failure.signature] = {
                "seed": seed,
                "profile": profile,
                "failure": str(failure),
                "program": small.to_json(),
            }
            report(f"  {failure.signature}: {failure}\n  minimal: {small.to_json()}")
    return found
