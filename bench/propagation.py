"""Propagation, retraction and repair in one large store, against Chroma's own floor.

See the README's "Performance and benchmarks" (issue 15 §2). ``bench/core.py`` measures
everything side by side with a bare collection, which means building two stores; at 1M records
that takes an hour or more on a 2-core machine. This script builds one store (the memories are
written with plain chromadb, with the one key nowline would add to them, so building costs
Chroma's insert alone) and measures only the
write paths whose cost grows with the store or with a correction's reach:

* ``correct()`` of a correction reaching ``--reach-share`` of the store (1.682%: 16,820 of 1M,
  as ``core.py``), and of one reaching a fixed 1,682 records (the seed incident's count,
  DESIGN §9's "~1,700"), each ``--repeats`` times, phases timed per Chroma operation (``find``:
  the ``$regex`` candidate read and the matcher; ``persist``: the metadata updates that store
  the links; ``write``: the correction record), each followed by ``retract()`` (timed) and a
  delete of the correction record, so every run starts from the same store;
* Chroma's floor for each: the same candidate read with plain chromadb (the first page with
  the filter, the other ids in one pass, their rows by id: the fastest way found to read them)
  plus a metadata update of the same rows with two keys of the same shape as nowline's (then
  removed again, untimed);
* ``repair()`` of the whole store, and the process's peak RSS.

Correctness: after every ``correct()`` the stored links must name exactly the memories that
name the string, and no near miss (``metalcraftai/ufo-hosted``).

Run ``.venv/bin/python bench/propagation.py --size 1000000 --store DIR`` (``--store`` keeps the
built store for the next run) or ``--smoke``. Writes ``propagation.json`` and
``propagation.md`` to ``--out``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C
from _synth import STALE, random_embeddings
from core import (
    CORRECTION_TEXT,
    REACH_SHARE,
    SIBLING_PER_STALE,
    correction_records,
    memory_records,
    rare_identifiers,
)

import nowline

SEED = 20240611
NAME = "memories"
FIXED = "oldmirror/ufo-archive"
FIXED_TEXT = f"UFO archive — {FIXED} was retired; use ufo-ai/ufo-archive."
FIXED_REACH = 1682
TARGETS = {100_000: 0.5, 1_000_000: 3.0}


def build(path: Path, n: int, seed: int, corrections: int) -> dict[str, Any]:
    """Write the store: ``corrections`` rare corrections through nowline, memories raw."""
    client = C.new_client(path)
    raw = C.new_collection(client, NAME)
    col = nowline.wrap(raw, embedding_function=C.HashEmbedding())
    fixes = correction_records(rare_identifiers(corrections, seed))
    emb = random_embeddings(len(fixes), seed=seed + 2)
    start = time.perf_counter()
    for lo in range(0, len(fixes), 1000):
        part = fixes[lo : lo + 1000]
        col.add(
            ids=[r[0] for r in part],
            documents=[r[1] for r in part],
            metadatas=[r[2] for r in part],
            embeddings=emb[lo : lo + 1000],
        )
    corrections_s = time.perf_counter() - start
    reach = round(n * REACH_SHARE)
    mems = memory_records(n, reach, round(reach * SIBLING_PER_STALE), (), seed)
    rng = random.Random(seed + 7)
    others = [i for i, (rid, _t, _m) in enumerate(mems) if rid.startswith("other-")]
    for i in rng.sample(others, FIXED_REACH):
        rid, text, meta = mems[i]
        mems[i] = (rid, f"{text} Old mirror: {FIXED}.", meta)
    start = time.perf_counter()
    step = 5000
    for lo in C.progress(range(0, n, step), desc=f"memories {n:,}", unit="batch"):
        part = mems[lo : lo + step]
        now = time.time()
        raw.add(
            ids=[r[0] for r in part],
            documents=[r[1] for r in part],
            # the one key nowline adds to a plain memory it writes: its time
            metadatas=[{**r[2], "nowline_time": now} for r in part],
            embeddings=random_embeddings(len(part), seed=seed + 3 + lo),
        )
    return {
        "records": raw.count(),
        "corrections_s": corrections_s,
        "memories_s": time.perf_counter() - start,
    }


def expected(raw: Any, string: str) -> set[str]:
    """Return the memories that name ``string``: they contain it, and are no near miss."""
    rows = C.paged_get(raw, where_document={"$contains": string})
    return {rid for rid, _doc, _m in rows if rid.startswith(("stale-", "other-"))}


def floor(raw: Any, string: str, ids: Sequence[str]) -> dict[str, Any]:
    """Time Chroma's own read of the candidates and an update of the reached rows."""
    from nowline._rules.prefilter import candidate_regex

    where_document: Any = {"$regex": candidate_regex([string])}
    start = time.perf_counter()
    rows = len(C.paged_get(raw, where_document=where_document))
    read_s = time.perf_counter() - start
    ids = list(ids)
    start = time.perf_counter()
    C.update_in_batches(raw, ids, [{"floor_by": ["x"], "floor_role": "h"}] * len(ids))
    update_s = time.perf_counter() - start
    C.update_in_batches(raw, ids, [{"floor_by": None, "floor_role": None}] * len(ids))
    return {"read_s": read_s, "update_s": update_s, "read_rows": rows, "updated": len(ids)}


def measure(col: Any, text: str, string: str, stale: set[str], repeats: int) -> dict[str, Any]:
    """Correct, check the links, retract and delete ``repeats`` times; time each part."""
    floors = [floor(col.raw, string, sorted(stale)) for _ in range(repeats)]
    runs = []
    for r in range(repeats):
        phases: dict[str, float] = {}
        C.instrument(col, phases)
        start = time.perf_counter()
        report = col.correct(text, deprecates=[string], id=f"fix-{string}-{r}")
        wall = time.perf_counter() - start
        C.uninstrument(col)
        linked = set(C.paged_ids(col.raw, where={"nowline_by": {"$contains": report.id}}))
        start = time.perf_counter()
        col.retract(report.id)
        retract_s = time.perf_counter() - start
        col.delete(ids=[report.id])
        runs.append(
            {
                "reached": report.reached,
                "wall_s": wall,
                "report_seconds": report.seconds,
                "phases_s": phases,
                "propagation_s": phases.get("find", 0.0) + phases.get("persist", 0.0),
                "linked_equals_stale": linked == stale,
                "sibling_linked": sum(1 for i in linked if i.startswith("sibling-")),
                "retract_s": retract_s,
            }
        )
    med = lambda key: float(np.median([x[key] for x in runs]))  # noqa: E731
    return {
        "reach": len(stale),
        "runs": runs,
        "floor_runs": floors,
        "correct_s": med("report_seconds"),
        "propagation_s": med("propagation_s"),
        "retract_s": med("retract_s"),
        "floor_s": float(np.median([f["read_s"] + f["update_s"] for f in floors])),
        "correct": all(x["linked_equals_stale"] and x["sibling_linked"] == 0 for x in runs),
    }


def markdown(data: dict[str, Any]) -> str:
    """Return the report."""
    n = data["config"]["size"]
    target = TARGETS.get(n)
    rows = []
    for name, case in data["cases"].items():
        phases = {
            k: float(np.median([r["phases_s"].get(k, 0.0) for r in case["runs"]]))
            for k in ("find", "persist", "write", "read")
        }
        rows.append(
            [
                name,
                f"{case['reach']:,}",
                f"**{C.fmt_s(case['correct_s'])}**",
                C.fmt_s(phases["find"]),
                C.fmt_s(phases["persist"]),
                C.fmt_s(phases["write"] + phases["read"]),
                C.fmt_s(case["floor_s"]),
                f"{case['propagation_s'] / case['floor_s']:.2f}x",
                f"{1000 * case['correct_s'] / case['reach']:.3f}",
                C.fmt_s(case["retract_s"]),
                "yes" if case["correct"] else "**no**",
            ]
        )
    b = data["build"]
    return (
        C.run_header("Propagation in one store", data["machine"], data["command"], data["seconds"])
        + f"\n{b['records']:,} records ({data['config']['corrections']:,} active corrections "
        "written through nowline, the memories with plain chromadb); medians of "
        f"{data['config']['repeats']} runs; `correct()` is `CorrectionReport.seconds`. "
        "Chroma's floor: the same candidate read plus an update of the reached rows, with "
        "plain chromadb.\n\n"
        + C.md_table(
            [
                "correction",
                "reached",
                "correct()",
                "find (read + match)",
                "persist (link updates)",
                "other (record, reads)",
                "Chroma floor",
                "find + persist / floor",
                "ms per reached record",
                "retract()",
                "links exact",
            ],
            rows,
        )
        + f"\n\n`repair()` of the whole store: {C.fmt_s(data['repair']['wall_s'])} "
        f"({data['repair']['records']:,} records, {data['repair']['updated']} changed). "
        f"Peak RSS of the process: {data['peak_rss_mb']:,.0f} MB. "
        + (
            f"The project's target at this size: under {target:g} s for a correction of about "
            "1,700 records: "
            f"{'met' if data['cases']['fixed 1,682']['correct_s'] < target else 'not met'}"
            f" ({C.fmt_s(data['cases']['fixed 1,682']['correct_s'])}); at 1.68% of the store: "
            f"{'met' if data['cases']['1.68% of the store']['correct_s'] < target else 'not met'}."
            if target
            else ""
        )
        + f"\n\nBuilding the store: corrections {C.fmt_s(b['corrections_s'])}, memories "
        f"{C.fmt_s(b['memories_s'])} (plain chromadb, batches of 5,000).\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Build (or reuse) the store, measure, write the report."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    C.add_common_args(parser, seed=SEED)
    parser.add_argument("--size", type=int, default=None, help="memories (1000000)")
    parser.add_argument("--corrections", type=int, default=None, help="active corrections (1000)")
    parser.add_argument("--repeats", type=int, default=None, help="runs per correction (3)")
    parser.add_argument("--store", type=Path, default=None, help="keep the built store here")
    args = parser.parse_args(argv)
    defaults = (
        {"size": 2000, "corrections": 50, "repeats": 1}
        if args.smoke
        else {"size": 1_000_000, "corrections": 1000, "repeats": 3}
    )
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.smoke:
        global FIXED_REACH
        FIXED_REACH = 40
    info = C.machine_info()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(
        prefix="nowline-propagation-", ignore_cleanup_errors=True
    ) as tmp:
        path = (args.store or Path(tmp)) / f"store-{args.size}-{args.corrections}"
        record = path.parent / f"{path.name}.build.json"
        if not (path / "chroma.sqlite3").exists():
            if path.exists():
                shutil.rmtree(path)
            built = build(path, args.size, args.seed, args.corrections)
            record.write_text(C.json.dumps(built))
        built = C.json.loads(record.read_text())
        col = nowline.wrap(
            C.new_client(path).get_collection(NAME), embedding_function=C.HashEmbedding()
        )
        cases = {
            "1.68% of the store": measure(
                col, CORRECTION_TEXT, STALE, expected(col.raw, STALE), args.repeats
            ),
            "fixed 1,682": measure(col, FIXED_TEXT, FIXED, expected(col.raw, FIXED), args.repeats),
        }
        t = time.perf_counter()
        fixed = col.repair()
        repair = {"wall_s": time.perf_counter() - t, **fixed.model_dump()}
    data = {
        "benchmark": "propagation",
        "command": C.command_line(),
        "seconds": time.perf_counter() - start,
        "machine": info,
        "config": {k: getattr(args, k) for k in ("size", "corrections", "repeats", "seed")},
        "build": built,
        "cases": cases,
        "repair": repair,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load_average_after": list(os.getloadavg()),
    }
    C.write_report(args.out, "propagation", data, markdown(data))
    return 0 if all(c["correct"] for c in cases.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
