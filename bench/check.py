"""Benchmark: ``Collection.check()`` latency on a 10 kB text with many active corrections.

Caveats:
- The corrections are stored in an in-memory Chroma collection (written straight through
  chromadb, with nowline's keys), and ``wrap()`` reads them into its registry once; "registry
  load" is that read plus the first ``check()``, which builds the automata. The measurement is
  then the hot path of a guard: matching the text against every active correction, resolving
  chains, and reading back by id the corrections it trips (one Chroma ``get``: a correction
  deleted or retracted elsewhere is never reported). No other process writes the store, so
  the registry's refreshes find nothing.
- The corrections are synthetic (``org<i>/repo<i>`` slugs and ``user<i>@example.com``
  addresses); the text is English-like filler with a few stale and many near-miss names, so
  most automaton hits are rejected by the token boundaries, the realistic worst part.
- Latency is wall time per call on a shared 2-core machine: p50 is robust, p99 is noisy.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import chromadb
import numpy as np

import nowline

WORDS = ["the", "of", "and", "to", "in", "is", "for", "on", "that", "with", "as", "was", "by"]


def make_text(rng: random.Random, size: int, n: int) -> str:
    """Return about ``size`` characters of filler naming some stale and near-miss slugs."""
    parts: list[str] = []
    length = 0
    while length < size:
        r = rng.random()
        if r < 0.02:
            word = f"org{rng.randrange(n)}/repo{rng.randrange(n)}"  # mostly near misses
        elif r < 0.025:
            i = rng.randrange(n)
            word = f"org{i}/repo{i}-hosted"  # token boundary rejects it
        else:
            word = rng.choice(WORDS)
        parts.append(word)
        length += len(word) + 1
    i = rng.randrange(n)
    parts.insert(len(parts) // 2, f"https://github.com/org{i}/repo{i}.git")
    return " ".join(parts)[:size]


def measure(n: int, runs: int, rng: random.Random) -> dict[str, float]:
    """Return check() latency stats with ``n`` active corrections."""
    raw = chromadb.EphemeralClient().get_or_create_collection(f"check-{n}", embedding_function=None)
    # The corrections are stored as nowline stores them, written straight through chromadb
    # (through nowline, 100k corrections take minutes to write; their links are not needed).
    vectors = np.random.default_rng(n).standard_normal((n, 8)).astype(np.float32)
    for lo in range(0, n, 5000):
        hi = min(n, lo + 5000)
        raw.add(
            ids=[f"c{i}" for i in range(lo, hi)],
            embeddings=vectors[lo:hi],
            documents=[
                f"org{i}/repo{i} moved to neworg/repo{i}; mail user{i}@example.com"
                for i in range(lo, hi)
            ],
            metadatas=[
                {
                    "deprecates": [f"org{i}/repo{i}", f"user{i}@example.com"],
                    "nowline_correction": True,
                    "nowline_time": float(i),
                }
                for i in range(lo, hi)
            ],
        )
    start = time.perf_counter()
    col = nowline.wrap(raw, embedding_function=nowline.embedding_function())
    text = make_text(rng, 10_000, n)
    trips = col.check(text)  # builds the automaton
    load = time.perf_counter() - start
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        col.check(text)
        times.append(time.perf_counter() - t)
    clean = "the of and " * 900
    clean_times = []
    for _ in range(runs):
        t = time.perf_counter()
        col.check(clean)
        clean_times.append(time.perf_counter() - t)
    times.sort()
    return {
        "corrections": n,
        "text_chars": len(text),
        "trips": len(trips),
        "registry_load_s": load,
        "p50_ms": statistics.median(times) * 1000,
        "p99_ms": times[int(len(times) * 0.99) - 1] * 1000,
        "no_match_p50_ms": statistics.median(clean_times) * 1000,
    }


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and write check.json and check.md."""
    parser = argparse.ArgumentParser(description="check() latency with many corrections")
    parser.add_argument("--sizes", default="100,10000,100000", help="active corrections")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, seconds")
    parser.add_argument("--out", default="bench/results")
    args = parser.parse_args(argv)
    sizes = [100, 1000] if args.smoke else [int(s) for s in args.sizes.split(",")]
    runs = 20 if args.smoke else args.runs
    rng = random.Random(7)
    rows = [measure(n, runs, rng) for n in sizes]
    lines = [
        "| active corrections | trips | p50 check() | p99 | p50, no match | registry load |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['corrections']:,} | {r['trips']} | {r['p50_ms']:.3f} ms | {r['p99_ms']:.3f} ms"
            f" | {r['no_match_p50_ms']:.3f} ms | {r['registry_load_s']:.2f} s |"
        )
    table = "\n".join(lines)
    print(table)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"python": sys.version.split()[0], "machine": platform.machine(), "smoke": args.smoke}
    (out / "check.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    (out / "check.md").write_text(table + "\n")


if __name__ == "__main__":
    main()
