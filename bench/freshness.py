"""Freshness bounds: what the listings of the corrections cost, and the bounds they give.

A wrapper learns of corrections changed elsewhere by listing the store's corrections: their
ids (a membership listing: additions and deletions) and their metadata (a full listing: every
other change). Each waits ``refresh_seconds`` (1 s by default) or ten times its own duration,
whichever is longer, and at most 60 s; the bound is that interval plus the listing's duration.
This script builds local stores with N active corrections (written as nowline writes them, in
bulk through plain chromadb to save time), opens each with nowline, and times both listings as
a reading process runs them (median of 5). Caveats: one machine, a local PersistentClient
(a server adds a round trip per page); the numbers move with the machine's load, so the
script prints the load average beside them.

    python bench/freshness.py [--sizes 1000 10000 100000] [--out bench/results]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import chromadb

import nowline
from nowline._io import freshness as _freshness
from nowline._io.execute import run_sync

BATCH = 5000


def build(path: str, n: int) -> None:
    """Write ``n`` marked corrections and as many memories into a new local store."""
    client = chromadb.PersistentClient(path=path)
    col = client.create_collection("bench", embedding_function=None)
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


def measure(path: str, runs: int = 5) -> dict[str, float]:
    """Return the median seconds of a membership and of a full listing, and the bounds."""
    raw = chromadb.PersistentClient(path=path).get_collection("bench", embedding_function=None)
    col = nowline.wrap(raw)
    core = col._core
    out: dict[str, list[float]] = {"members": [], "full": []}
    for _ in range(runs):
        for kind in ("members", "full"):
            start = time.perf_counter()
            flow = _freshness.list_flow(
                core.fresh, core.registry, core.legacy_key, full=kind == "full"
            )
            run_sync(flow, col._store)
            out[kind].append(time.perf_counter() - start)
    members, full = statistics.median(out["members"]), statistics.median(out["full"])
    core.fresh.members_cost, core.fresh.full_cost = members, full
    bound_members, bound_full = core.fresh.bounds()
    return {
        "members_s": members,
        "full_s": full,
        "bound_additions_s": bound_members,
        "bound_edits_s": bound_full,
    }


def main() -> None:
    """Build each size, measure, print a table and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--out", default="bench/results")
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
            build(tmp, n)
            row = {"corrections": n, **measure(tmp), "load": os.getloadavg()[0]}
        rows.append(row)
        print(
            f"{n:>8,} corrections: membership {row['members_s']:.3f} s, full "
            f"{row['full_s']:.3f} s; bounds {row['bound_additions_s']:.1f} s (additions, "
            f"deletions), {row['bound_edits_s']:.1f} s (other edits); load {row['load']:.1f}"
        )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "freshness.json").write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    lines = [
        "| corrections | membership listing | full listing | bound: additions, deletions "
        "| bound: other edits | load |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {r['corrections']:,} | {r['members_s']:.3f} s | {r['full_s']:.3f} s "
        f"| {r['bound_additions_s']:.1f} s | {r['bound_edits_s']:.1f} s | {r['load']:.1f} |"
        for r in rows
    ]
    (out / "freshness.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
