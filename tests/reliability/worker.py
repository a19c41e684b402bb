"""Subprocess entry points for the crash and concurrency tests.

Run as ``python -m tests.reliability.worker MODE ARGS`` from the repository root.

Each mode prints one line per event and flushes, so the parent test can follow it and kill it
at a chosen moment. The workloads are plain functions that the parent imports too, so that it
knows exactly which ids and texts a mode writes.

Modes:
    build PATH                       write the crash tests' template store (5,000 records).
    correct PATH [--batch N] [--pause-after K]
                                     write the big correction; announce every Chroma update.
    add PATH [--batch N] [--pause-after K]
                                     add the batch of 3,000 new records; announce every add.
    writer HOST PORT DB NAME ROUNDS  write memories and corrections over a Chroma server, then
                                     on "verify" recall everything and print it as JSON.
    correct-once HOST PORT DB        on "go", write the freshness test's correction.
    hold PATH                        take the writer lock of a local store, then wait.
    refused PATH                     try every write on a store another process holds.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import chromadb

import nowline
from tests.conftest import FakeEmbedding, snapshot
from tests.reliability.reference import recall_states

COLLECTION = "mem"
TEMPLATE_SIZE = 5000
MATCHING = 3000
OLD = "acme/app"
C0 = "Moved from legacy/app to acme/app."
C1 = "Moved from acme/app to acme-labs/app; do the work in acme-labs/app."
C1_ID = "c1"
C1_OBSERVED = "2025-06-01T00:00:00Z"
NEW_BATCH = 3000

_MATCH_FORMS = (
    "deploy acme/app build {i}",
    "ACME/App — PR #{i} passed review",
    "clone https://github.com/acme/app.git for task {i}",
    "(acme/app) ticket {i}; was legacy/app before",
    "Acme/APP/pull/{i} merged",
)
_MISS_FORMS = (
    "acme/app-hosted deploys {i}",
    "acme/apply form {i}",
    "xacme/app mirror {i}",
    "acme/application notes {i}",
    "legacy/app config {i}",
    "acme/app_v2 draft {i}",
)


def say(*parts: object) -> None:
    """Print one event line and flush it at once."""
    print(*parts, flush=True)


def template_records() -> tuple[list[str], list[str]]:
    """Return the template's memory ids and documents: 3,000 name acme/app, 2,000 do not."""
    ids, docs = [], []
    for i in range(TEMPLATE_SIZE):
        forms = _MATCH_FORMS if i < MATCHING else _MISS_FORMS
        ids.append(f"r{i:05d}")
        docs.append(forms[i % len(forms)].format(i=i))
    return ids, docs


def new_batch() -> tuple[list[str], list[str]]:
    """Return the ids and documents of the batch added by the ``add`` mode."""
    ids = [f"n{i:05d}" for i in range(NEW_BATCH)]
    docs = [(_MATCH_FORMS if i % 2 else _MISS_FORMS)[i % 5].format(i=i) for i in range(NEW_BATCH)]
    return ids, docs


def open_local(path: str, **options: Any) -> nowline.Collection:
    """Open the template collection of a local store, wrapped."""
    raw = chromadb.PersistentClient(path=path).get_collection(COLLECTION)
    return nowline.wrap(raw, **options)


def write_correction(col: nowline.Collection) -> nowline.CorrectionReport:
    """Write the big correction (the same call in crashed and clean runs)."""
    return col.correct(C1, deprecates=[OLD], id=C1_ID, observed_at=C1_OBSERVED, max_reach=None)


def add_batch(col: nowline.Collection, step: int = 250) -> None:
    """Add the new batch in calls of ``step`` records (the same calls in crashed and clean runs).

    A call larger than the store's max batch size is refused, as chromadb refuses it, so a
    caller with many records writes them in several calls.
    """
    ids, docs = new_batch()
    for i in range(0, len(ids), step):
        chunk = ids[i : i + step]
        col.add(ids=chunk, documents=docs[i : i + step], metadatas=[{"batch": "new"}] * len(chunk))


def build(path: str) -> None:
    """Write the template store: a chain start c0 and 5,000 memories."""
    client = chromadb.PersistentClient(path=path)
    col = nowline.wrap(client.create_collection(COLLECTION, embedding_function=FakeEmbedding()))
    col.correct(C0, deprecates=["legacy/app"], id="c0", observed_at="2024-01-01T00:00:00Z")
    ids, docs = template_records()
    for i in range(0, len(ids), 1000):
        col.add(ids=ids[i : i + 1000], documents=docs[i : i + 1000])
    say("built", col.count())


def instrument(op: str, pause_after: int | None) -> None:
    """Announce every Chroma ``op`` write of the local store; after call ``pause_after`` block.

    The hook sits on the local store's API (``RustBindingsAPI._update`` / ``_add``), where
    every write of a collection arrives. Blocking there lets the parent kill the process
    between two Chroma writes at a known point; without a pause the parent kills it while
    writes are under way.
    """
    from chromadb.api.rust import RustBindingsAPI

    original: Callable[..., Any] = getattr(RustBindingsAPI, f"_{op}")
    calls = 0

    @functools.wraps(original)
    def announced(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        say(f"{op}-start", calls)
        result = original(self, *args, **kwargs)
        say(f"{op}-done", calls)
        if pause_after is not None and calls >= pause_after:
            sys.stdin.readline()
        return result

    setattr(RustBindingsAPI, f"_{op}", announced)


def small_batches(size: int) -> None:
    """Make the local store report a small max batch size, so nowline writes in many batches."""
    from chromadb.api.rust import RustBindingsAPI

    RustBindingsAPI.get_max_batch_size = lambda self: size  # type: ignore[method-assign]


def crash_mode(mode: str, path: str, batch: int | None, pause_after: int | None) -> None:
    """Run ``correct`` or ``add`` on a local store, instrumented."""
    if batch:
        small_batches(batch)
    col = open_local(path)
    instrument("update" if mode == "correct" else "add", pause_after)
    say("ready")
    if mode == "correct":
        report = write_correction(col)
        say("finished", report.reached)
    else:
        add_batch(col)
        say("finished", col.count())


def http_collection(host: str, port: int, db: str, **options: Any) -> nowline.Collection:
    """Open the shared collection of a server database, wrapped."""
    client = chromadb.HttpClient(host=host, port=port, database=db)
    return nowline.wrap(client.get_collection(COLLECTION), **options)


def writer(host: str, port: int, db: str, name: str, rounds: int) -> None:
    """Write memories and corrections that race with the other writer, then recall all.

    Round r of writer A stores a memory naming B's strings of rounds r and r+1 (one may be
    corrected at that very moment), corrects its own string of round r, and now and then
    corrects the other writer's newest text (a chain across processes), retracts an old
    correction of its own, edits a memory and deletes one.
    """
    other = "b" if name == "a" else "a"
    col = http_collection(host, port, db, refresh_seconds=0.2)
    say("ready")
    sys.stdin.readline()
    for r in range(rounds):
        col.remember(
            f"{name} round {r}: call svc/{other}-{r} and svc/{other}-{r + 1} from svc/{name}-{r}",
            id=f"{name}-m{r}",
        )
        col.correct(
            f"svc/{name}-{r} moved to svc/{name}-{r}-v2.",
            deprecates=[f"svc/{name}-{r}"],
            id=f"{name}-c{r}",
        )
        if r % 3 == 2:
            col.correct(
                f"svc/{other}-{r - 1}-v2 is now svc/{other}-{r - 1}-v3.",
                deprecates=[f"svc/{other}-{r - 1}-v2"],
                id=f"{name}-x{r}",
                allow_absent=False,
            )
        if r % 4 == 3:
            col.retract(f"{name}-c{r - 2}")
        if r % 5 == 4:
            col.update(ids=[f"{name}-m{r - 1}"], documents=[f"{name} edited: uses svc/{other}-{r}"])
            col.delete(ids=[f"{name}-m{r - 3}"])
    say("done")
    sys.stdin.readline()  # both writers are done
    time.sleep(0.3)  # > refresh_seconds: the bound for read-time checks
    states = {rid: [role, list(now)] for rid, (role, _, now) in recall_states(col).items()}
    say("states", json.dumps(states))


def correct_once(host: str, port: int, db: str) -> None:
    """On "go", write the freshness test's correction; report when it returned."""
    col = http_collection(host, port, db)
    say("ready")
    sys.stdin.readline()
    col.correct("zeta/old moved to zeta/new.", deprecates=["zeta/old"], id="cz")
    say("done")
    sys.stdin.readline()


def hold(path: str) -> None:
    """Write a small store (taking its writer lock), then wait for a line on stdin.

    It holds five memories, the correction c0, and one record written around nowline, so
    that a repair() would have a link to write.
    """
    client = chromadb.PersistentClient(path=path)
    col = nowline.wrap(client.create_collection(COLLECTION, embedding_function=FakeEmbedding()))
    ids, docs = template_records()
    col.add(ids=ids[:5], documents=docs[:5])
    col.correct(C0, deprecates=["legacy/app"], id="c0")
    col.raw.add(ids=["raw"], documents=["raw note about legacy/app"])
    say("ready")
    sys.stdin.readline()
    say("bye", col.count())


def refused(path: str) -> None:
    """Try every write on a store that another process holds; report the outcomes as JSON.

    "same" says whether the records were unchanged after the writes nowline must refuse;
    "same_after_all" says it again after the delete of a memory and modify().
    """
    col = open_local(path, refresh_seconds=0)
    before = snapshot(col)
    refused_writes: dict[str, Callable[[], object]] = {
        "remember": lambda: col.remember("x", id="x"),
        "correct": lambda: col.correct("acme/app moved to acme/web.", deprecates=[OLD]),
        "add": lambda: col.add(ids=["y"], documents=["y"]),
        "upsert": lambda: col.upsert(ids=["r00000"], documents=["changed"]),
        "update": lambda: col.update(ids=["r00001"], documents=["changed"]),
        "delete-correction": lambda: col.delete(ids=["c0"]),
        "retract": lambda: col.retract("c0"),
        "repair": lambda: col.repair(),
    }
    more_writes: dict[str, Callable[[], object]] = {
        "delete-memory": lambda: col.delete(ids=["r00002"]),
        "modify": lambda: col.modify(metadata={"touched": True}),
    }

    def attempt(writes: dict[str, Callable[[], object]]) -> dict[str, str]:
        outcomes = {}
        for name, write in writes.items():
            try:
                write()
                outcomes[name] = "written"
            except nowline.StoreBusy as exc:
                outcomes[name] = "busy" if "chroma run" in str(exc) else f"busy: {exc}"
            except Exception as exc:
                outcomes[name] = f"{type(exc).__name__}: {exc}"
        return outcomes

    outcomes = attempt(refused_writes)
    reads = {
        "check": [t.correction.id for t in col.check("clone legacy/app")],
        "recall": {h.id: h.role for h in col.recall("legacy/app", n_results=8).hits},
    }
    same = snapshot(col) == before
    outcomes.update(attempt(more_writes))
    result = {"outcomes": outcomes, "reads": reads, "same": same}
    result["same_after_all"] = snapshot(col) == before
    say("result", json.dumps(result))


def main(argv: list[str]) -> None:
    """Parse the mode and run it."""
    parser = argparse.ArgumentParser(prog="python -m tests.reliability.worker")
    parser.add_argument("mode")
    parser.add_argument("args", nargs="*")
    parser.add_argument("--batch", type=int)
    parser.add_argument("--pause-after", type=int)
    ns = parser.parse_args(argv)
    a = ns.args
    if ns.mode == "build":
        build(a[0])
    elif ns.mode in ("correct", "add"):
        crash_mode(ns.mode, a[0], ns.batch, ns.pause_after)
    elif ns.mode == "writer":
        writer(a[0], int(a[1]), a[2], a[3], int(a[4]))
    elif ns.mode == "correct-once":
        correct_once(a[0], int(a[1]), a[2])
    elif ns.mode == "hold":
        hold(a[0])
    elif ns.mode == "refused":
        refused(a[0])
    else:
        parser.error(f"unknown mode {ns.mode!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
