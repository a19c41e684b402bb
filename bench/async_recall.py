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
* floors: the same with bare chromadb collections, ``query(query_embeddings=[v],
  n_results=10)`` with the query's precomputed vector (no embedding, no nowline).

Each run makes ``--calls`` (400) calls on distinct query texts after a warm-up of 20 calls,
and the order of the layers alternates between caller counts. Latency is per call (wall
time around it, so at 64 callers it includes queueing for the server and the GIL);
throughput is calls over the run's wall time. The server shares the machine's 2 cores with
the client, so beyond a few callers both layers measure that machine, not a deployment; the
comparison between the layers, taken at the same moment, is the point. The machine is shared
with other jobs: the load average at start is in the header.

Blocking. While the async runs go, every step the event loop runs (every ``Handle._run``:
a task step or a callback) is timed in wall time and in the loop thread's CPU time
(``time.thread_time``). The CPU time is what the code of that step cost the loop; the wall
time adds waiting for the GIL (held by worker threads that embed and scan) and for the
operating system (the machine is shared), which is how long other tasks waited. A 1 ms
sleeper task records how late it wakes up (the lag any task sees). The longest steps are then
attributed: a second, shorter pass runs each operation with ``cProfile`` (CPU timer) around
every loop step and lists the functions that own the time of the steps above
``--threshold-ms`` (5 ms). cProfile slows Python code down by a factor of about two to four,
so its times say where, not how long; the unprofiled table says how long. Operations
measured: the first awaited call of a new wrapper (which loads the 1,001 corrections),
concurrent recalls, and ``correct()`` of the seed correction (which links 1,682 records) and
its ``retract()``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
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
from core import CORRECTION_TEXT, correction_records, rare_identifiers

import nowline

SEED = 20240616
NAME = "memories"
N_RESULTS = 10
WARM_UP = 20


# ------------------------------------------------------------------------------ server


def _free_port() -> int:
    """Return a loopback TCP port that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def chroma_server(folder: Path) -> Iterator[tuple[str, int]]:
    """Run ``chroma run`` on a free loopback port with its data in ``folder``; yield host, port."""
    beside = Path(sys.executable).parent / "chroma"
    cli = str(beside) if beside.exists() else shutil.which("chroma")
    if cli is None:
        raise SystemExit("the chroma CLI is missing; it comes with chromadb")
    port = _free_port()
    log = open(folder / "server.log", "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [cli, "run", "--path", str(folder / "data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"chroma run did not start; see {folder / 'server.log'}")
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1
                ) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def _split_url(url: str) -> tuple[str, int]:
    """Return (host, port) of ``http://host:port``."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname or parts.port is None:
        raise SystemExit(f"--url must look like http://localhost:8000, not {url!r}")
    return parts.hostname, parts.port


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
        self._orig: Any = None

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
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop timing."""
        asyncio.events.Handle._run = self._orig  # type: ignore[method-assign]

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


def run_sync(call: Callable[[int], Any], calls: int, callers: int) -> dict[str, Any]:
    """Make ``calls`` calls from ``callers`` threads; return latencies and throughput."""
    for i in range(WARM_UP):
        call(i)
    counter = iter(range(calls))
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
    return _stats(latencies, time.perf_counter() - start)


async def run_async(
    call: Callable[[int], Any], calls: int, callers: int, meter: bool
) -> dict[str, Any]:
    """Make ``calls`` awaited calls from ``callers`` tasks; also time the loop if ``meter``."""
    for i in range(WARM_UP):
        await call(i)
    counter = iter(range(calls))
    latencies: list[float] = []

    async def worker() -> None:
        for i in counter:
            start = time.perf_counter()
            await call(i)
            latencies.append(time.perf_counter() - start)

    with LoopMeter() as steps, LagProbe() as lag:
        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(callers)))
        wall = time.perf_counter() - start
    out = _stats(latencies, wall)
    if meter:
        out["loop"] = {**steps.summary(), "max_lag_s": lag.max_lag}
    return out


def _stats(latencies: list[float], wall: float) -> dict[str, Any]:
    """Return latency percentiles and throughput."""
    return {
        **C.summarize(latencies),
        "wall_s": wall,
        "throughput_per_s": len(latencies) / wall if wall > 0 else 0.0,
    }


async def blocking_probe(
    host: str, port: int, database: str, queries: list[str], threshold: float
) -> dict[str, Any]:
    """Time (then profile) the loop's steps during the first call, recalls and a correction."""
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
            await asyncio.gather(*(col.recall(q, n_results=N_RESULTS) for q in queries[:64]))
        await asyncio.sleep(0)
        ops["64 concurrent recalls"] = meter
        with LoopMeter(profile_over) as meter:
            report = await col.correct(
                CORRECTION_TEXT, deprecates=[STALE], id=f"probe-{mode}", allow_absent=True
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


async def _async_wrapped(host: str, port: int, database: str) -> Any:
    """Return the async wrapper of the benchmark's collection (its corrections not loaded)."""
    client = await chromadb.AsyncHttpClient(host=host, port=port, database=database)
    raw = await client.get_collection(NAME, embedding_function=None)
    return nowline.wrap(raw, embedding_function=C.HashEmbedding())


def measure(host: str, port: int, database: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run every layer at every caller count; return the results."""
    texts, emb = query_set(args.texts, args.calls + WARM_UP, args.seed + 3)
    sync_client = chromadb.HttpClient(host=host, port=port, database=database)
    sync_raw = sync_client.get_collection(NAME, embedding_function=None)
    sync_col = nowline.wrap(sync_raw, embedding_function=C.HashEmbedding())
    sync_col.count()
    results: list[dict[str, Any]] = []
    loop = asyncio.new_event_loop()
    try:
        col = loop.run_until_complete(_async_wrapped(host, port, database))
        async_raw = col.raw
        for k, callers in enumerate(args.callers):
            row: dict[str, Any] = {"callers": callers}
            order = ("sync", "async") if k % 2 == 0 else ("async", "sync")
            for layer in order:
                if layer == "sync":
                    row["sync"] = run_sync(
                        lambda i: sync_col.recall(texts[i], n_results=N_RESULTS),
                        args.calls,
                        callers,
                    )
                    row["sync_floor"] = run_sync(
                        lambda i: sync_raw.query(query_embeddings=[emb[i]], n_results=N_RESULTS),
                        args.calls,
                        callers,
                    )
                else:
                    row["async"] = loop.run_until_complete(
                        run_async(
                            lambda i: col.recall(texts[i], n_results=N_RESULTS),
                            args.calls,
                            callers,
                            meter=True,
                        )
                    )
                    row["async_floor"] = loop.run_until_complete(
                        run_async(
                            lambda i: async_raw.query(
                                query_embeddings=[emb[i]], n_results=N_RESULTS
                            ),
                            args.calls,
                            callers,
                            meter=False,
                        )
                    )
            print(
                f"{callers:>3} callers: recall p50 sync {C.fmt_s(row['sync']['p50'])}, "
                f"async {C.fmt_s(row['async']['p50'])}",
                file=sys.stderr,
            )
            results.append(row)
        probe = loop.run_until_complete(
            blocking_probe(host, port, database, texts, args.threshold_ms / 1000)
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
        f"{store['records']:,} records ({store['corrections']:,} corrections; the seed "
        f"correction links {store['seed_correction_reached']:,}), built over HTTP in "
        f"{store['build_s']:.0f} s. `recall(text, n_results={N_RESULTS})` with a cheap hash "
        f"embedding; {cfg['calls']} calls per run. Floor: bare chromadb "
        "`query(query_embeddings=...)`, same server. Latency is per call, throughput is calls "
        "per second of the run.\n",
    ]
    rows = []
    for r in data["runs"]:
        rows.append(
            [
                r["callers"],
                C.fmt_s(r["sync"]["p50"]),
                C.fmt_s(r["async"]["p50"]),
                C.fmt_s(r["sync"]["p95"]),
                C.fmt_s(r["async"]["p95"]),
                f"{r['sync']['throughput_per_s']:.0f}",
                f"{r['async']['throughput_per_s']:.0f}",
                f"{C.fmt_s(r['sync_floor']['p50'])} / {C.fmt_s(r['async_floor']['p50'])}",
                f"{r['sync_floor']['throughput_per_s']:.0f} / "
                f"{r['async_floor']['throughput_per_s']:.0f}",
            ]
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
                "floor p50 sync / async",
                "floor calls/s sync / async",
            ],
            rows,
        )
    )
    out.append(
        "\n## The event loop during the async runs\n\nPer loop step: CPU time of the loop "
        "thread (what the step's code cost) and wall time (adds waiting for the GIL and the "
        "OS); lag: how late a 1 ms sleeper woke up.\n"
    )
    loop_rows = []
    for r in data["runs"]:
        lp = r["async"]["loop"]
        loop_rows.append(
            [
                r["callers"],
                f"{lp['steps']:,}",
                C.fmt_s(lp["max_cpu_s"]),
                C.fmt_s(lp["p99_cpu_s"]),
                lp["steps_over_5ms_cpu"],
                C.fmt_s(lp["max_wall_s"]),
                C.fmt_s(lp["max_lag_s"]),
            ]
        )
    out.append(
        C.md_table(
            ["callers", "steps", "max CPU", "p99 CPU", "steps > 5 ms CPU", "max wall", "max lag"],
            loop_rows,
        )
    )
    block = data["blocking"]
    out.append("\n## Longest loop steps by operation (unprofiled)\n")
    out.append(
        C.md_table(
            ["operation", "steps", "max CPU", "p99 CPU", "max wall"],
            [
                [
                    name,
                    s["steps"],
                    C.fmt_s(s.get("max_cpu_s")),
                    C.fmt_s(s.get("p99_cpu_s")),
                    C.fmt_s(s.get("max_wall_s")),
                ]
                for name, s in block["measured"].items()
            ],
        )
    )
    out.append(
        f"\n## Where the steps over {cfg['threshold_ms']} ms CPU go (cProfile, CPU timer; "
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
        {"records": 2000, "corrections": 20, "reach": 100, "calls": 40, "callers": "1,8"}
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
    with tempfile.TemporaryDirectory(prefix="nowline-async-") as tmp:
        server = chroma_server(Path(tmp)) if args.url is None else _nothing(_split_url(args.url))
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
