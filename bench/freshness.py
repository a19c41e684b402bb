"""Freshness: how soon another process sees a change made through nowline, and what it costs.

nowline promises (docs/reliability.md) that a change of a correction made through nowline is
seen by every other process within ``refresh_seconds`` (plus the catch-up), whatever the
number of corrections.
This script measures it as deployed: two processes over one ``chroma run`` server.

Setup, per size N: a local store with N active corrections (written as nowline writes them:
in bulk through plain chromadb, marked, each deprecating ``org<i>/repo<i>``) and N memories is
served by ``chroma run`` on a free loopback port. A *reader* process wraps the collection
(``nowline.wrap`` over ``chromadb.HttpClient``, default ``refresh_seconds=1``) and answers
commands; this process is the *writer*, another wrapper of the same collection.

Each round:

* **addition**: the reader starts calling ``check()`` of a probe text every 20 ms; the writer
  calls ``correct()`` with a new correction that the probe names; the reader reports the time
  its first ``check()`` tripped it;
* **edit**: the writer then changes that correction's text with ``update()``; the reader
  reports the time its ``check()`` first showed the new text.

The reader starts from the snapshot the writer saved (confirmed by the store's mark), as a new
process finds one: its registry is deferred to the snapshot, and a catch-up takes the changed
corrections in beside it.

*seen after* is the reader's time of seeing minus the time the writer's call returned (both
``time.time()`` on one machine). *catch-up* is the duration of the reader's ``check()`` that
saw the change: it read the mark, found it changed, read the change journal and then the
changed corrections by id. *check* is the median of the reader's other calls. The bound a
process reports (``freshness_bounds``, first value) is ``refresh_seconds`` plus its last
listing's duration. Load is printed beside.

    python bench/freshness.py [--sizes 1000 10000 100000] [--rounds 3] [--out bench/results]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C
import chromadb

import nowline
from nowline._io import snapshot as _snapshot

SEED = 20261204
BATCH = 5000
NAME = "bench"
POLL = 0.02
WAIT = 600.0  # seconds a reader waits for a change before it reports a miss

READER = """
import json, sys, time
import chromadb, nowline
sys.path.insert(0, sys.argv[3])
import _common as C
host, port = sys.argv[1], int(sys.argv[2])
started = time.perf_counter()
raw = chromadb.HttpClient(host=host, port=port).get_collection("bench", embedding_function=None)
col = nowline.wrap(raw, embedding_function=C.HashEmbedding(dim=3))
col.check("warm up")
print(json.dumps({"ready": time.perf_counter() - started}), flush=True)
for line in sys.stdin:
    probe, want, limit = json.loads(line)
    print(json.dumps({"waiting": True}), flush=True)
    calls, deadline = [], time.time() + limit
    while time.time() < deadline:
        began = time.perf_counter()
        trips = col.check(probe)
        took = time.perf_counter() - began
        if any(want in t.newest.document for t in trips):
            seen = time.time()
            print(json.dumps({"seen": seen, "op_s": took, "calls": calls,
                              "bound_s": col.freshness_bounds[0]}), flush=True)
            break
        calls.append(took)
        time.sleep(0.02)
    else:
        print(json.dumps({"seen": None, "calls": calls}), flush=True)
"""


def build(path: Path, n: int) -> None:
    """Write ``n`` marked corrections and as many memories into a new local store."""
    client = C.new_client(path)
    col = client.create_collection(NAME, embedding_function=None)
    for start in range(0, n, BATCH):
        ids = range(start, min(n, start + BATCH))
        col.add(
            ids=[f"c{i}" for i in ids],
            embeddings=[[float(i % 7), 1.0, 0.5] for i in ids],
            documents=[f"Moved from org{i}/repo{i} to new{i}/repo{i}." for i in ids],
            metadatas=[
                {
                    "deprecates": [f"org{i}/repo{i}"],
                    "nowline_correction": True,
                    "nowline_time": 1.7e9 + i,
                    "nowline_role": "transition",
                }
                for i in ids
            ],
        )
        col.add(
            ids=[f"m{i}" for i in ids],
            embeddings=[[float(i % 5), 0.5, 1.0] for i in ids],
            documents=[f"deploy org{i}/repo{i} today" for i in ids],
        )


class Reader:
    """The reader process: a nowline wrapper over the server that waits for changes."""

    def __init__(self, host: str, port: int) -> None:
        """Start the reader and wait until it has caught up once."""
        bench = str(Path(__file__).resolve().parent)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", READER, host, str(port), bench],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.ready_s = float(self._line()["ready"])

    def _line(self) -> dict[str, Any]:
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            raise RuntimeError("the reader process ended")
        return dict(json.loads(line))

    def wait_for(self, probe: str, want: str) -> None:
        """Start waiting for ``probe`` to trip a correction whose newest text has ``want``."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps([probe, want, WAIT]) + "\n")
        self.proc.stdin.flush()
        self._line()  # it is polling now

    def seen(self) -> dict[str, Any]:
        """Return what the reader reports once it saw the change (or gave up)."""
        return self._line()

    def close(self) -> None:
        """End the reader."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)


def measure(folder: Path, n: int, rounds: int) -> dict[str, Any]:
    """Build a store of ``n`` corrections, serve it, and time the rounds."""
    build(folder / "data", n)
    os.environ["NOWLINE_CACHE_DIR"] = str(folder / "cache")  # the snapshots (the reader's too)
    with C.chroma_server(folder) as (host, port):
        raw = chromadb.HttpClient(host=host, port=port).get_collection(
            NAME, embedding_function=None
        )
        writer = nowline.wrap(raw, embedding_function=C.HashEmbedding(dim=3))
        writer.check("warm up")
        # As deployed, a new process finds the snapshot the last one saved, under the mark
        # of the last write through nowline. The store was built around nowline (no mark):
        # one write through nowline, then wait for the writer's snapshot (saved in the
        # background from 2,000 corrections), so the reader starts from it, confirmed by the
        # mark, and catches up with its registry deferred.
        writer.correct("Moved from warmup/app to warmup/app2.", deprecates=["warmup/app"])
        _snapshot.flush()
        reader = Reader(host, port)
        samples: list[dict[str, Any]] = []
        try:
            for r in range(rounds):
                slug = f"fresh{r}/app"
                probe = f"git clone {slug}"
                reader.wait_for(probe, f"to moved{r}/app")
                cid = f"fresh-{r}"
                writer.correct(f"Moved from {slug} to moved{r}/app.", deprecates=[slug], id=cid)
                returned = time.time()
                added = reader.seen()
                reader.wait_for(probe, f"to renamed{r}/app")
                writer.update(ids=[cid], documents=[f"Moved from {slug} to renamed{r}/app."])
                edited_at = time.time()
                edited = reader.seen()
                for kind, got, at in (("addition", added, returned), ("edit", edited, edited_at)):
                    samples.append(
                        {
                            "round": r,
                            "kind": kind,
                            "seen_after_s": None if got["seen"] is None else got["seen"] - at,
                            "catch_up_s": got.get("op_s"),
                            "check_s": statistics.median(got["calls"]) if got["calls"] else None,
                            "bound_s": got.get("bound_s"),
                        }
                    )
        finally:
            reader.close()
    return {"corrections": n, "reader_start_s": reader.ready_s, "samples": samples}


def _median(values: list[float | None]) -> float | None:
    """Return the median of the values that are not None."""
    kept = [v for v in values if v is not None]
    return statistics.median(kept) if kept else None


def markdown(data: dict[str, Any]) -> str:
    """Return the report."""
    lines = [
        C.run_header(
            "Freshness across processes", data["machine"], data["command"], data["seconds"]
        ),
        "Two processes over one `chroma run` server (see `bench/freshness.py`): a writer changes "
        "a correction through nowline, a reader (`refresh_seconds=1`, the default) calls "
        f"`check()` every {POLL * 1000:.0f} ms until it sees the change. Medians of "
        f"{data['config']['rounds']} rounds; the worst in brackets.",
        "",
        "| corrections | change | seen after | catch-up (the check that saw it) "
        "| a check otherwise | bound the reader reports | reader start |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for size in data["sizes"]:
        for kind in ("addition", "edit"):
            rows = [s for s in size["samples"] if s["kind"] == kind]
            seen = [s["seen_after_s"] for s in rows]
            missed = sum(v is None for v in seen)
            worst = max((v for v in seen if v is not None), default=None)
            lines.append(
                f"| {size['corrections']:,} | {kind} | {C.fmt_s(_median(seen))} "
                f"({C.fmt_s(worst)}){f', {missed} missed' if missed else ''} "
                f"| {C.fmt_s(_median([s['catch_up_s'] for s in rows]))} "
                f"| {C.fmt_s(_median([s['check_s'] for s in rows]))} "
                f"| {C.fmt_s(_median([s['bound_s'] for s in rows]))} "
                f"| {C.fmt_s(size['reader_start_s'])} |"
            )
    lines += [
        "",
        "*seen after*: from the writer's call returning to the reader's first `check()` that "
        "showed the change. *reader start*: the reader's `get_collection`, `wrap` and first "
        "`check()`. The promise ([Freshness](../reliability.md#freshness)) is "
        "`refresh_seconds` plus one catch-up; "
        "a catch-up reads the change journal and the changed corrections by id. The bound the "
        "reader reports is `refresh_seconds` plus its last listing (none here: it started "
        "from the writer's snapshot), the bound for a catch-up that has to list. *reader "
        "start*: from that snapshot, with its registry deferred.",
    ]
    return "\n".join(lines)


def main() -> None:
    """Measure each size, print a table and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    C.add_common_args(parser, seed=SEED)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.smoke:
        args.sizes, args.rounds = [50], 1
    began = time.perf_counter()
    info = C.machine_info()
    sizes = []
    for n in args.sizes:
        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
            sizes.append(measure(Path(tmp), n, args.rounds))
    data = {
        "machine": info,
        "command": C.command_line(),
        "seconds": time.perf_counter() - began,
        "config": {"sizes": args.sizes, "rounds": args.rounds, "poll_s": POLL},
        "sizes": sizes,
    }
    C.write_report(args.out, "freshness", data, markdown(data))


if __name__ == "__main__":
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    main()
