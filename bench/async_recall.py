"""recall() over a Chroma server: the sync collection in threads against the async one in tasks.

Run ``.venv/bin/python bench/async_recall.py`` (100k records: about 10 minutes on a shared
2-core machine, most of it building the store over HTTP) or ``--smoke`` (seconds). Writes
``async_recall.json`` and ``async_recall.md`` to ``--out``.

Setup. A ``chroma run`` server is started on a free loopback port with its data in a temporary
folder (or ``--url`` names a running one; a fresh database is created there). One cosine
collection holds ``--records`` (100,000) synthetic agent memories (``bench/_synth.py``) with
precomputed random unit embeddings (384 dimensions), written through the sync
``nowline.Collection`` in batches of 1,000, after ``--corrections`` (1,000) corrections of
rare identifiers (as in ``bench/core.py``) and the seed incident's correction of
``metalcraftai/ufo``, which links ``--reach`` (1,682) of the memories. Every wrapper embeds
with ``HashEmbedding`` (a cheap deterministic hash of words, ~0.1 ms a text) instead of the
model, so the numbers are nowline + Chroma + the I/O layer; a real model would add its
embedding time to every recall (it runs in a worker thread on the async side too).

Latency and throughput. For each of ``--callers`` (1, 8, 64) concurrent callers:

* sync: that many threads share one ``nowline.Collection`` (over ``chromadb.HttpClient``) and
  each calls ``recall(text, n_results=10)`` in turn;
* async: that many tasks on one event loop share one ``nowline.AsyncCollection`` (over
  ``chromadb.AsyncHttpClient``) and each awaits ``recall(text, n_results=10)`` in turn;
* both again with an HTTP pool of 8 connections, all kept alive
  (``chroma_http_max_connections`` and ``chroma_http_max_keepalive_connections``):
  chromadb's default pool (httpx's: 100 connections, 20 kept alive) closes and reopens
  connections when more than 20 calls are in flight, and httpcore's async pool spends
  quadratic time assigning queued requests (encode/httpcore#1035), on the event loop;
* floors: the same with bare chromadb collections (default pool), ``query(query_embeddings=
  [v], n_results=10)`` with the query's precomputed vector (no embedding, no nowline).

Each variant makes ``--calls`` (400) calls after a warm-up of 20 calls (4 with --smoke); half
run with the variants in one order and half in the reverse order, so drift from other jobs on
the machine hits all of them alike, and every variant asks the same queries. Nothing else runs
on the loop during these timed runs. Latency is per call (wall time around it, so with many
callers it includes queueing for a connection, the server and the GIL); throughput is calls
over the runs' wall time. The server shares the machine's 2 cores with the client, so beyond a
few callers both layers measure that machine, not a deployment; the comparison between
variants, taken at the same moment, is the point. The machine is shared with other jobs: the
load average at start is in the header.

Blocking. A separate pass of ``--calls``/2 async recalls per caller count and pool times every
step the event loop runs (every ``Handle._run``: a task step or a callback) in wall time and in
the loop thread's CPU time (``time.thread_time``). The CPU time is what the code of that step
cost the loop; the wall time adds waiting for the GIL (held by worker threads that embed and
scan) and for the operating system (the machine is shared), which is how long other tasks
waited. A 1 ms sleeper task records how late it wakes up (the lag any task sees). Then, per
operation, the same step timing (default pool), and a second pass that runs each step under
``cProfile`` (CPU timer) and lists the functions that own the time of the steps above
``--threshold-ms`` (5 ms). cProfile slows Python code down by a factor of about two to four, so
its times say where, not how long; the unprofiled table says how long. Operations: the first
awaited call of a new wrapper (which loads the 1,001 corrections), as many concurrent recalls
as the most callers (64), ``correct()`` of the seed string again (which links its 1,682
memories and the seed correction) and its ``retract()``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import pstats
import random
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C
import chromadb
from _synth import STALE, memories, random_embeddings
from chromadb.config import Settings
from core import CORRECTION_TEXT, correction_records, rare_identifiers

import nowline

SEED = 20240616
# The probe's change differs from the seed's (another new value): the same change again would
# be a repeat of the seed, which correct() answers without writing (DESIGN §6).
PROBE_TEXT = CORRECTION_TEXT.replace("ufo-ai/ufo", "ufo-probe/ufo")
NAME = "memories"
N_RESULTS = 10
WARM_UP = 20
SMOKE_WARM_UP = 4


# ------------------------------------------------------------------------------- store


def build(host: str, port: int, database: str, args: argparse.Namespace) -> dict[str, Any]:
    """Write the corrections and memories through the sync wrapper; return what was built."""
    client = chromadb.HttpClient(host=host, port=port, database=database)
    raw = C.new_collection(client, NAME)
    wrapped = nowline.wrap(raw, embedding_function=C.HashEmbedding())
    pairs = rare_identifiers(args.corrections, args.seed)
    fixes = correction_records(pairs)
    mems = memories(args.records, args.reach, 0, seed=args.seed)
    start = time.perf_counter()
    fix_emb = random_embeddings(len(fixes), seed=args.seed + 1)
    for i in range(0, len(fixes), args.batch):
        part = fixes[i : i + args.batch]
        wrapped.add(
            ids=[r[0] for r in part],
            documents=[r[1] for r in part],
            metadatas=[r[2] for r in part],
            embeddings=fix_emb[i : i + args.batch],
        )
    mem_emb = random_embeddings(len(mems), seed=args.seed + 2)
    for i in C.progress(range(0, len(mems), args.batch), desc="build", unit="batch"):
        part = mems[i : i + args.batch]
        wrapped.add(
            ids=[r[0] for r in part],
            documents=[r[1] for r in part],
            embeddings=mem_emb[i : i + args.batch],
        )
    report = wrapped.correct(CORRECTION_TEXT, deprecates=[STALE], id="seed-fix")
    return {
        "records": wrapped.count(),
        "memories": len(mems),
        "corrections": len(fixes) + 1,
        "seed_correction_reached": report.reached,
        "build_s": time.perf_counter() - start,
        "texts": [t for _, t in mems],
    }


def query_set(texts: Sequence[str], n: int, seed: int) -> tuple[list[str], np.ndarray]:
    """Return ``n`` query texts (memories' texts with a word changed) and their embeddings."""
    rng = random.Random(seed)
    chosen = [
        f"{t} {rng.choice(['today', 'again', 'status', 'owner'])}" for t in rng.sample(texts, n)
    ]
    emb = np.asarray(C.HashEmbedding()(chosen), dtype=np.float32)
    return chosen, emb


# ---------------------------------------------------------------------------- the loop


class LoopMeter:
    """Times every step of the running event loop (wall and loop-thread CPU); optional profile.

    Patches ``asyncio.events.Handle._run`` (every task step and callback goes through it)
    while active. With ``profile_over`` set, each step runs under a fresh ``cProfile`` with a
    CPU timer, and the per-function own times of steps whose CPU time exceeds it are kept.
    """

    def __init__(self, profile_over: float | None = None) -> None:
        """Start empty."""
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.profile_over = profile_over
        self.profiled: list[tuple[float, list[tuple[float, float, str]]]] = []
        self.gc_pauses: list[float] = []
        self._gc_start = 0.0
        self._orig: Any = None

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        """Record how long each garbage collection takes (it runs inside some step)."""
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            self.gc_pauses.append(time.perf_counter() - self._gc_start)

    def __enter__(self) -> LoopMeter:
        """Start timing steps."""
        meter = self
        self._orig = orig = asyncio.events.Handle._run

        def _run(handle: Any) -> None:
            prof = cProfile.Profile(time.thread_time) if meter.profile_over is not None else None
            wall0, cpu0 = time.perf_counter(), time.thread_time()
            if prof is not None:
                prof.enable()
            try:
                orig(handle)
            finally:
                if prof is not None:
                    prof.disable()
                cpu = time.thread_time() - cpu0
                meter.wall.append(time.perf_counter() - wall0)
                meter.cpu.append(cpu)
                if prof is not None and cpu > (meter.profile_over or 0.0):
                    meter.profiled.append((cpu, _functions(prof)))

        asyncio.events.Handle._run = _run  # type: ignore[method-assign]
        gc.callbacks.append(self._gc)
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop timing."""
        asyncio.events.Handle._run = self._orig  # type: ignore[method-assign]
        gc.callbacks.remove(self._gc)

    def summary(self) -> dict[str, Any]:
        """Return the step count, the longest steps and p99, in seconds."""
        if not self.cpu:
            return {"steps": 0}
        return {
            "steps": len(self.cpu),
            "max_cpu_s": max(self.cpu),
            "p99_cpu_s": float(np.percentile(self.cpu, 99)),
            "max_wall_s": max(self.wall),
            "p99_wall_s": float(np.percentile(self.wall, 99)),
            "steps_over_5ms_cpu": sum(1 for c in self.cpu if c > 0.005),
            "max_gc_pause_s": max(self.gc_pauses, default=0.0),
        }


def _functions(prof: cProfile.Profile) -> list[tuple[float, float, str]]:
    """Return (cumulative, own, name) of every function a profile saw, by cumulative time."""
    rows = []
    for (path, line, name), (_cc, _nc, own, cum, _callers) in pstats.Stats(prof).stats.items():  # type: ignore[attr-defined]
        short = "/".join(Path(path).parts[-2:]) if path != "~" else "builtin"
        rows.append((cum, own, f"{short}:{line}:{name}"))
    rows.sort(reverse=True)
    return rows


class LagProbe:
    """A task that sleeps 1 ms at a time and records how late it wakes up."""

    def __init__(self) -> None:
        """Start with no lag."""
        self.max_lag = 0.0
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        """Sleep and measure until cancelled."""
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            lag = time.perf_counter() - start - 0.001
            self.lags.append(lag)
            self.max_lag = max(self.max_lag, lag)

    def __enter__(self) -> LagProbe:
        """Start the sleeper on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop the sleeper."""
        if self._task is not None:
            self._task.cancel()


# ------------------------------------------------------------------------------- runs


def run_sync(call: Callable[[int], Any], calls: range, callers: int) -> tuple[list[float], float]:
    """Make the calls (one per index) from ``callers`` threads; return latencies and wall time."""
    counter = iter(calls)
    lock = threading.Lock()
    latencies: list[float] = []

    def worker() -> None:
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                return
            start = time.perf_counter()
            call(i)
            took = time.perf_counter() - start
            with lock:
                latencies.append(took)

    start = time.perf_counter()
    with ThreadPoolExecutor(callers) as pool:
        for future in [pool.submit(worker) for _ in range(callers)]:
            future.result()
    return latencies, time.perf_counter() - start


async def run_async(
    call: Callable[[int], Any], calls: range, callers: int
) -> tuple[list[float], float]:
    """Make the awaited calls (one per index) from ``callers`` tasks; return latencies, wall."""
    counter = iter(calls)
    latencies: list[float] = []

    async def worker() -> None:
        for i in counter:
            start = time.perf_counter()
            await call(i)
            latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(callers)))
    return latencies, time.perf_counter() - start


async def loop_pass(call: Callable[[int], Any], calls: range, callers: int) -> dict[str, Any]:
    """Make the calls with the loop's steps timed and a lag probe running; return the loop's."""
    with LoopMeter() as steps, LagProbe() as lag:
        await run_async(call, calls, callers)
    return {**steps.summary(), "max_lag_s": lag.max_lag}


def _stats(latencies: list[float], wall: float) -> dict[str, Any]:
    """Return latency percentiles and throughput."""
    return {
        **C.summarize(latencies),
        "wall_s": wall,
        "throughput_per_s": len(latencies) / wall if wall > 0 else 0.0,
    }


def abba(
    runners: dict[str, Callable[[range], tuple[list[float], float]]], calls: int, warm_up: int
) -> dict[str, dict[str, Any]]:
    """Run every runner on ``calls`` calls: half in order, half in reverse (drift hits all).

    Each runner first makes ``warm_up`` calls (untimed), then uses the call indexes
    ``[warm_up, warm_up + calls)``, so all of them ask the same queries.
    """
    names = list(runners)
    half = calls // 2
    parts: dict[str, list[tuple[list[float], float]]] = {name: [] for name in names}
    for name in names:
        runners[name](range(warm_up))
    for name in names:
        parts[name].append(runners[name](range(warm_up, warm_up + half)))
    for name in reversed(names):
        parts[name].append(runners[name](range(warm_up + half, warm_up + calls)))
    out = {}
    for name in names:
        latencies = [t for lat, _ in parts[name] for t in lat]
        out[name] = _stats(latencies, sum(wall for _, wall in parts[name]))
    return out


async def blocking_probe(
    host: str, port: int, database: str, queries: list[str], threshold: float, recalls: int
) -> dict[str, Any]:
    """Time (then profile) the loop's steps: the first call, ``recalls`` recalls, a correction."""
    out: dict[str, Any] = {}
    for mode in ("measured", "profiled"):
        profile_over = threshold if mode == "profiled" else None
        col = await _async_wrapped(host, port, database)
        ops: dict[str, Any] = {}
        with LoopMeter(profile_over) as meter:
            await col.count()  # not a nowline path: no load yet
            await col.check("first call")  # loads the corrections
        await asyncio.sleep(0)  # the step that leaves a meter runs on: end it here
        ops["first call (loads the corrections)"] = meter
        with LoopMeter(profile_over) as meter:
            await asyncio.gather(*(col.recall(q, n_results=N_RESULTS) for q in queries[:recalls]))
        await asyncio.sleep(0)
        ops[f"{recalls} concurrent recalls"] = meter
        with LoopMeter(profile_over) as meter:
            report = await col.correct(
                PROBE_TEXT, deprecates=[STALE], id=f"probe-{mode}", allow_absent=True
            )
        await asyncio.sleep(0)
        ops[f"correct() linking {report.reached:,} records"] = meter
        with LoopMeter(profile_over) as meter:
            await col.retract(f"probe-{mode}")
        await asyncio.sleep(0)
        ops["retract() of it"] = meter
        await col.delete(ids=[f"probe-{mode}"])
        if mode == "measured":
            out["measured"] = {name: m.summary() for name, m in ops.items()}
        else:
            out["profiled"] = {name: _attribution(m) for name, m in ops.items()}
    return out


def _attribution(meter: LoopMeter) -> dict[str, Any]:
    """Return where the profiled slow steps spent their time (own time per function)."""
    own: Counter[str] = Counter()
    for _cpu, rows in meter.profiled:
        for _cum, t, name in rows:
            own[name] += t
    longest = max(meter.profiled, default=None, key=lambda p: p[0])
    return {
        "slow_steps": len(meter.profiled),
        "slow_steps_cpu_s": sum(c for c, _ in meter.profiled),
        "top_own": [(name, t) for name, t in own.most_common(8)],
        "longest_step_cpu_s": longest[0] if longest else 0.0,
        "longest_step_path": [
            (name, cum)
            for cum, _t, name in (longest[1] if longest else [])
            if "nowline" in name or name.startswith(("plugin/", "matchers/"))
        ][:8],
    }


POOLS: dict[str, dict[str, int]] = {
    "default": {},
    "pool 8": {"chroma_http_max_connections": 8, "chroma_http_max_keepalive_connections": 8},
}
"""HTTP connection pools: chromadb's default (httpx: 100 connections, 20 kept alive), and 8."""


def _sync_wrapped(host: str, port: int, database: str, limits: dict[str, int]) -> Any:
    """Return the sync wrapper of the benchmark's collection over its own HttpClient."""
    settings = Settings(anonymized_telemetry=False, **limits)  # type: ignore[arg-type]
    client = chromadb.HttpClient(host=host, port=port, database=database, settings=settings)
    raw = client.get_collection(NAME, embedding_function=None)
    return nowline.wrap(raw, embedding_function=C.HashEmbedding())


async def _async_wrapped(
    host: str, port: int, database: str, limits: dict[str, int] | None = None
) -> Any:
    """Return the async wrapper of the benchmark's collection (its corrections not loaded)."""
    settings = Settings(anonymized_telemetry=False, **(limits or {}))  # type: ignore[arg-type]
    client = await chromadb.AsyncHttpClient(
        host=host, port=port, database=database, settings=settings
    )
    raw = await client.get_collection(NAME, embedding_function=None)
    return nowline.wrap(raw, embedding_function=C.HashEmbedding())


Runner = Callable[[range], tuple[list[float], float]]


def _runners(
    callers: int,
    sync: dict[str, Any],
    aio: dict[str, Any],
    texts: list[str],
    emb: np.ndarray,
    loop: asyncio.AbstractEventLoop,
) -> dict[str, Runner]:
    """Return the variants to time at ``callers`` callers: recall per layer and pool, floors."""

    def threads(call: Callable[[int], Any]) -> Runner:
        return lambda calls: run_sync(call, calls, callers)

    def tasks(call: Callable[[int], Any]) -> Runner:
        return lambda calls: loop.run_until_complete(run_async(call, calls, callers))

    def recall(col: Any) -> Callable[[int], Any]:
        return lambda i: col.recall(texts[i], n_results=N_RESULTS)

    def query(raw: Any) -> Callable[[int], Any]:
        return lambda i: raw.query(query_embeddings=[emb[i]], n_results=N_RESULTS)

    runners: dict[str, Runner] = {}
    for pool in POOLS:
        runners[f"sync {pool}"] = threads(recall(sync[pool]))
        runners[f"async {pool}"] = tasks(recall(aio[pool]))
    runners["floor sync"] = threads(query(sync["default"].raw))
    runners["floor async"] = tasks(query(aio["default"].raw))
    return runners


def measure(host: str, port: int, database: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run every variant at every caller count, then the loop passes and the probe."""
    warm_up = SMOKE_WARM_UP if args.smoke else WARM_UP
    texts, emb = query_set(args.texts, max(args.calls + warm_up, 64), args.seed + 3)
    loop = asyncio.new_event_loop()
    try:
        sync = {pool: _sync_wrapped(host, port, database, limits) for pool, limits in POOLS.items()}
        aio = {
            pool: loop.run_until_complete(_async_wrapped(host, port, database, limits))
            for pool, limits in POOLS.items()
        }
        results: list[dict[str, Any]] = []
        for callers in args.callers:
            runners = _runners(callers, sync, aio, texts, emb, loop)
            row: dict[str, Any] = {"callers": callers, **abba(runners, args.calls, warm_up)}
            row["loop"] = {
                pool: loop.run_until_complete(
                    loop_pass(
                        lambda i, col=aio[pool]: col.recall(texts[i], n_results=N_RESULTS),
                        range(warm_up, warm_up + args.calls // 2),
                        callers,
                    )
                )
                for pool in POOLS
            }
            print(
                f"{callers:>3} callers: recall p50 sync {C.fmt_s(row['sync default']['p50'])}, "
                f"async {C.fmt_s(row['async default']['p50'])}",
                file=sys.stderr,
            )
            results.append(row)
        probe = loop.run_until_complete(
            blocking_probe(host, port, database, texts, args.threshold_ms / 1000, max(args.callers))
        )
    finally:
        loop.close()
    return {"runs": results, "blocking": probe}


# ---------------------------------------------------------------------------- report


def markdown(data: dict[str, Any]) -> str:
    """Return the report."""
    cfg, store = data["config"], data["store"]
    out = [
        C.run_header(
            "recall() over a Chroma server: sync threads against async tasks",
            data["machine"],
            data["command"],
            data["seconds"],
        ),
        "Load average at the end: "
        + ", ".join(f"{x:.1f}" for x in data["machine"].get("load_average_at_end") or [])
        + " (the machine is shared with other jobs; the variants are interleaved, so they share "
        "its load).\n",
        f"{store['records']:,} records ({store['corrections']:,} corrections; the seed "
        f"correction links {store['seed_correction_reached']:,}), built over HTTP in "
        f"{store['build_s']:.0f} s. `recall(text, n_results={N_RESULTS})` with a cheap hash "
        f"embedding; {cfg['calls']} calls per variant and caller count, half in order and "
        "half in reverse order of the variants. Floor: bare chromadb "
        "`query(query_embeddings=...)` on the same server. Latency is per call; throughput is "
        "calls per second of the runs' wall time. The server runs on the same 2 cores.\n",
        "## chromadb's default HTTP pool (100 connections, 20 kept alive)\n",
    ]

    def ms(run: dict[str, Any], key: str) -> str:
        return C.fmt_s(run[key])

    rows = [
        [
            r["callers"],
            ms(r["sync default"], "p50"),
            ms(r["async default"], "p50"),
            ms(r["sync default"], "p95"),
            ms(r["async default"], "p95"),
            f"{r['sync default']['throughput_per_s']:.0f}",
            f"{r['async default']['throughput_per_s']:.0f}",
            f"{ms(r['floor sync'], 'p50')} / {ms(r['floor async'], 'p50')}",
            f"{r['floor sync']['throughput_per_s']:.0f} / "
            f"{r['floor async']['throughput_per_s']:.0f}",
        ]
        for r in data["runs"]
    ]
    out.append(
        C.md_table(
            [
                "callers",
                "p50 sync",
                "p50 async",
                "p95 sync",
                "p95 async",
                "calls/s sync",
                "calls/s async",
                "floor p50 sync / async",
                "floor calls/s sync / async",
            ],
            rows,
        )
    )
    out.append(
        "\n## A pool of 8 connections, all kept alive\n\n"
        "`Settings(chroma_http_max_connections=8, chroma_http_max_keepalive_connections=8)` "
        "on both clients: callers beyond 8 queue for a connection instead of opening one.\n"
    )
    out.append(
        C.md_table(
            [
                "callers",
                "p50 sync",
                "p50 async",
                "p95 sync",
                "p95 async",
                "calls/s sync",
                "calls/s async",
            ],
            [
                [
                    r["callers"],
                    ms(r["sync pool 8"], "p50"),
                    ms(r["async pool 8"], "p50"),
                    ms(r["sync pool 8"], "p95"),
                    ms(r["async pool 8"], "p95"),
                    f"{r['sync pool 8']['throughput_per_s']:.0f}",
                    f"{r['async pool 8']['throughput_per_s']:.0f}",
                ]
                for r in data["runs"]
            ],
        )
    )
    out.append(
        "\n## The event loop during async recalls\n\nA separate pass of "
        f"{cfg['calls'] // 2} calls per row with every loop step timed: CPU time of the loop "
        "thread (what the step's code cost) and wall time (adds waiting for the GIL and the "
        "OS); lag: how late a 1 ms sleeper woke up; the longest garbage collection (it runs inside "
        "a step, so it is part of that step's CPU time).\n"
    )
    loop_rows = []
    for r in data["runs"]:
        for pool, lp in r["loop"].items():
            loop_rows.append(
                [
                    r["callers"],
                    pool,
                    f"{lp['steps']:,}",
                    C.fmt_s(lp["max_cpu_s"]),
                    C.fmt_s(lp["p99_cpu_s"]),
                    lp["steps_over_5ms_cpu"],
                    C.fmt_s(lp["max_wall_s"]),
                    C.fmt_s(lp["max_lag_s"]),
                    C.fmt_s(lp["max_gc_pause_s"]),
                ]
            )
    out.append(
        C.md_table(
            [
                "callers",
                "pool",
                "steps",
                "max CPU",
                "p99 CPU",
                "steps > 5 ms CPU",
                "max wall",
                "max lag",
                "longest GC pause",
            ],
            loop_rows,
        )
    )
    block = data["blocking"]
    out.append("\n## Longest loop steps by operation (default pool, unprofiled)\n")
    out.append(
        C.md_table(
            ["operation", "steps", "max CPU", "p99 CPU", "max wall", "longest GC pause"],
            [
                [
                    name,
                    s["steps"],
                    C.fmt_s(s.get("max_cpu_s")),
                    C.fmt_s(s.get("p99_cpu_s")),
                    C.fmt_s(s.get("max_wall_s")),
                    C.fmt_s(s.get("max_gc_pause_s")),
                ]
                for name, s in block["measured"].items()
            ],
        )
    )
    out.append(
        f"\n## Where the steps over {cfg['threshold_ms']:g} ms CPU go (cProfile, CPU timer; "
        "inflated 2-4x, read as shares)\n"
    )
    for name, a in block["profiled"].items():
        out.append(
            f"\n**{name}**: {a['slow_steps']} slow steps, {C.fmt_s(a['slow_steps_cpu_s'])} in "
            f"all; longest {C.fmt_s(a['longest_step_cpu_s'])}.\n"
        )
        if a["longest_step_path"]:
            path = ", ".join(f"`{n}` {C.fmt_s(t)}" for n, t in a["longest_step_path"][:5])
            out.append(f"- longest step, nowline frames (cumulative): {path}")
        if a["top_own"]:
            own = ", ".join(f"`{n}` {C.fmt_s(t)}" for n, t in a["top_own"][:6])
            out.append(f"- own time in slow steps: {own}")
    return "\n".join(out)


# ------------------------------------------------------------------------------ main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    C.add_common_args(parser, seed=SEED)
    parser.add_argument("--url", default=None, help="a running Chroma server (default: start one)")
    parser.add_argument("--records", type=int, default=None, help="memories (100000)")
    parser.add_argument("--corrections", type=int, default=None, help="rare corrections (1000)")
    parser.add_argument("--reach", type=int, default=None, help="memories naming the seed (1682)")
    parser.add_argument("--batch", type=int, default=1000, help="records per add call (1000)")
    parser.add_argument("--calls", type=int, default=None, help="timed calls per run (400)")
    parser.add_argument(
        "--callers", default=None, help="comma-separated concurrent callers (1,8,64)"
    )
    parser.add_argument(
        "--threshold-ms", type=float, default=5.0, help="profile loop steps above this (5)"
    )
    args = parser.parse_args(argv)
    defaults = (
        {"records": 2000, "corrections": 20, "reach": 100, "calls": 20, "callers": "1,4"}
        if args.smoke
        else {
            "records": 100_000,
            "corrections": 1000,
            "reach": 1682,
            "calls": 400,
            "callers": "1,8,64",
        }
    )
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    args.callers = [int(c) for c in str(args.callers).split(",")]
    info = C.machine_info()
    start = time.perf_counter()
    database = f"bench{uuid.uuid4().hex[:12]}"
    with tempfile.TemporaryDirectory(prefix="nowline-async-", ignore_cleanup_errors=True) as tmp:
        server = C.chroma_server(Path(tmp)) if args.url is None else _nothing(C.split_url(args.url))
        with server as (host, port):
            admin = chromadb.AdminClient(chromadb.HttpClient(host=host, port=port)._system.settings)
            admin.create_database(database)
            store = build(host, port, database, args)
            args.texts = store.pop("texts")
            results = measure(host, port, database, args)
    config = {
        k: getattr(args, k)
        for k in (
            "records",
            "corrections",
            "reach",
            "batch",
            "calls",
            "callers",
            "threshold_ms",
            "seed",
            "smoke",
        )
    }
    config["server"] = "started by the benchmark" if args.url is None else args.url
    info["load_average_at_end"] = list(os.getloadavg())
    data = {
        "benchmark": "async_recall",
        "command": C.command_line(),
        "seconds": time.perf_counter() - start,
        "machine": info,
        "config": config,
        "store": store,
        **results,
    }
    C.write_report(args.out, "async_recall", data, markdown(data))
    return 0


@contextmanager
def _nothing(value: tuple[str, int]) -> Iterator[tuple[str, int]]:
    """Yield ``value`` (a server someone else runs)."""
    yield value


if __name__ == "__main__":
    raise SystemExit(main())
