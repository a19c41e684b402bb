"""Core cost of nowline against the bare chromadb collection, and its scaling.

See the README's "Performance and benchmarks".

Run ``.venv/bin/python bench/core.py`` (10k and 100k records: 5 to 13 minutes on a shared
2-core machine, depending on its load) or ``--smoke`` (seconds).
``--sizes 10000,100000,1000000`` adds the opt-in 1M point (40 minutes to hours on such a
machine: building the two 1M stores dominates). Writes ``core.json``,
``core.md``, ``scaling.json``, ``scaling.md`` and ``scaling.png`` to ``--out``.
``--merge core.json`` adds the sizes of an earlier run that this run did not measure to the
scaling report (each size's row names the run it comes from), so the 1M point can be run alone:
``--sizes 1000000 --merge bench/results/core.json``.

This script is also the scaling benchmark (issue 4 §4): every size in ``--sizes`` is measured
the same way and the per-size numbers go to ``scaling.*``.

Setup, per size N. One chromadb ``PersistentClient`` in a temporary folder (or, with ``--url``,
a Chroma server reached through ``HttpClient``; use a fresh ``chroma run --path`` folder: the
collections are left on it) holds two cosine collections built from the same records in the same
order: a bare chromadb collection and a nowline-wrapped one. Records are N synthetic agent
memories (``bench/_synth.py``) with precomputed random unit embeddings (384 dimensions, the size
of MiniLM's), of which 1.682% (``--reach-share``: 1,682 of 100k, the seed incident's count;
16,820 of 1M) name ``metalcraftai/ufo`` and 300 per 1,682 of those name
``metalcraftai/ufo-hosted`` (near misses); ``--reach`` fixes the count at every size instead.
One in a thousand also mentions one of the 1,000 rare identifiers below. Before the memories,
``--corrections`` (1,000) corrections are written: in the wrapped collection each deprecates one
realistic identifier (retired repositories, hosts, ticket keys, e-mail addresses, URLs) that
almost never occurs; the bare collection stores the same records (with the same metadata) as
plain records. Both stores thus hold the same N + 1,000 records.

Measurements and their caveats:

* add: the memories are added in batches of ``--batch`` (1,000) with precomputed embeddings to
  three collections in turn: the bare one, the wrapped one, and a second bare copy (the
  order rotates every batch, so drift from other processes and from the growing index hits
  all equally). The ratio is total wrapped time over total bare time; the median of the
  per-batch ratios is given too, and the second bare copy's ratio to the first: what two
  identical collections differ by in the same run (an A/A check: 0.96x to 1.09x in 10-batch
  trials on this machine). A size below ``--add-records`` (30,000) is built that many times
  over (10k: three builds, each of fresh collections) so that its ratio rests on 30 batches;
  the first build's stores are the ones measured further. Chroma's HNSW insert dominates
  every side, and the machine is shared with other jobs, so single batches are noisy; compare
  ratios, not absolute rates, across machines.
* query: ``--queries`` random unit vectors, ``n_results=10``, chromadb's default ``include``,
  each run on both collections back to back (order alternating) after a warm-up. Random
  queries hit random records, so about 2% of hits are historical and carry now-lines (what
  the wrapper does for them costs only on those hits). ``recall()`` (which also embeds the
  text, here with a cheap hash function, and builds pydantic models) is reported next to it.
* propagation: ``correct("UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; ...",
  deprecates=["metalcraftai/ufo"])`` on the full wrapped store, repeated ``--repeats`` times (each
  followed by ``retract()``, timed, and a delete of the correction record, so every run starts from
  the same store), alternating with the chromadb floor (in alternating order: an update's cost
  drifts with the store's write log by a third either way). The floor is the same regex read and an
  update of the same rows of the same collection, whose two keys are then put back (so its store
  carries the write log of a ``correct()`` and a ``retract()``, as nowline's runs do); the same on
  the bare copy is reported beside it. Reported: the wall time of ``correct()`` and its
  ``CorrectionReport.seconds``; the phases, timed per Chroma operation of nowline's write path
  (``find``: the Chroma regex prefilter read plus the matcher; ``persist``: the metadata updates
  that store the links; ``write``: the correction record itself; ``embed``: embedding its text, with
  the cheap hash function here, so model time is excluded; see ``seed_replay.py`` for the model);
  and a bare ``add`` of one record, as the floor that any write pays. "propagation" below is ``find
  + persist``. Correctness is checked from the stored metadata after every run: the records linked
  must be exactly the stale ones, and no sibling may be linked.
* retract and repair: ``retract()`` of each propagation's correction (its links removed from
  every reached record), and one ``repair()`` of the whole store afterwards (it reads every
  record, recomputes its links and stores the differences: none here).
* memory: the process's peak RSS after each size (both stores' Chroma indexes live in this
  process with a local store, so read it as an upper bound on nowline's share).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C
from _synth import STALE, memories, random_embeddings

import nowline

SEED = 20240611
SIZES = (10_000, 100_000)
CORRECTION_TEXT = (
    "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
)
TARGETS = {  # the bars of the project's design card (section 9)
    "add_ratio": 1.10,
    "query_p50_ratio": 1.3,
    "recall_p50_ratio": 1.3,
    "propagation_floor_ratio": 1.15,
    "propagation_s": 0.5,
    "propagation_1m_s": 3.0,
    "seed_system_s": 5.0,
}
REACH_SHARE = 0.01682  # the seed incident: 1,682 stale memories in a store of 100k
SIBLING_PER_STALE = 300 / 1682  # near misses (metalcraftai/ufo-hosted) per stale memory
RARE_SHARE = 0.001  # share of memories that mention one of the rare deprecated identifiers

_OLD_ORGS = ["legacyco", "oldcorp", "retiredlabs", "sunsetio", "formerhq", "archivex"]
_NEW_ORGS = ["platform", "corehq", "newco", "mainline"]
_SYL = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
_DOMAINS = ["old-mail.example", "legacy-corp.example", "retired.example"]
_PROJECTS = ["OPS", "BILL", "INFRA", "SEC", "DATA", "WEB", "MOB", "PLAT"]


def _word(rng: random.Random) -> str:
    """Return a made-up word of two or three syllables."""
    return "".join(rng.choice(_SYL) for _ in range(rng.randint(2, 3)))


def rare_identifiers(n: int, seed: int) -> list[tuple[str, str]]:
    """Return ``n`` distinct (old, new) identifier pairs of five kinds, as agents note them."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    while len(out) < n:
        kind = len(out) % 5
        w, k = _word(rng), rng.randrange(1, 99)
        if kind == 0:
            old = f"{rng.choice(_OLD_ORGS)}/{w}-{k}"
            new = f"{rng.choice(_NEW_ORGS)}/{w}-{k}"
        elif kind == 1:
            old = f"{w}{k}.dc{rng.randrange(1, 9)}.internal"
            new = f"{w}{k}.cloud.internal"
        elif kind == 2:
            old = f"{rng.choice(_PROJECTS)}-{rng.randrange(1000, 99999)}"
            new = f"{old}-v2"
        elif kind == 3:
            old = f"{w}.{_word(rng)}@{rng.choice(_DOMAINS)}"
            new = f"{w}@corp.example"
        else:
            old = f"https://{w}.{rng.choice(_DOMAINS)}/api/v{k}"
            new = f"https://api.corp.example/{w}/v{k + 1}"
        if old not in seen:
            seen.add(old)
            out.append((old, new))
    return out


def correction_records(pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str, dict[str, Any]]]:
    """Return (id, text, metadata) for one correction per identifier pair."""
    return [
        (
            f"fix-{i}",
            f"{old} was retired; use {new} from now on.",
            {"source": "bench", "deprecates": [old]},
        )
        for i, (old, new) in enumerate(pairs)
    ]


def memory_records(
    n: int, reach: int, sibling: int, pairs: Sequence[tuple[str, str]], seed: int
) -> list[tuple[str, str, dict[str, Any]]]:
    """Return (id, text, metadata) for ``n`` synthetic memories; a few name a rare identifier."""
    rng = random.Random(seed + 1)
    out = []
    for rid, text in memories(n, reach, sibling, seed=seed):
        if pairs and rid.startswith("other-") and rng.random() < RARE_SHARE:
            text = f"{text} (see {rng.choice(pairs)[0]})"
        out.append((rid, text, {"source": "bench"}))
    return out


def reach_of(n: int, args: argparse.Namespace) -> tuple[int, int]:
    """Return the stale and sibling memories of a store of ``n``: fixed, or a share of ``n``."""
    if args.reach is not None:
        return args.reach, args.sibling
    reach = round(n * args.reach_share)
    return reach, round(reach * SIBLING_PER_STALE)


def _client(args: argparse.Namespace, tmp: Path, n: int) -> Any:
    """Return a local PersistentClient, or an HttpClient of ``--url``."""
    if args.url is None:
        return C.new_client(tmp / f"store-{n}")
    import chromadb
    from chromadb.config import Settings

    host, port = C.split_url(args.url)
    return chromadb.HttpClient(host=host, port=port, settings=Settings(anonymized_telemetry=False))


def _add_round(
    client: Any,
    tag: str,
    fixes: Sequence[tuple[str, str, dict[str, Any]]],
    fix_emb: np.ndarray,
    mems: Sequence[tuple[str, str, dict[str, Any]]],
    mem_emb: np.ndarray,
    batch: int,
) -> tuple[Any, Any, dict[str, Any]]:
    """Build a bare, a wrapped and a twin collection of the same records; time their adds.

    The twin is a second bare collection: its ratio to the bare one is what the measurement
    itself varies by (an A/A check). The three take turns per batch, each first in turn.
    """
    bare = C.new_collection(client, f"bare-{tag}")
    twin = C.new_collection(client, f"twin-{tag}")
    wrapped = nowline.wrap(
        C.new_collection(client, f"wrapped-{tag}"), embedding_function=C.HashEmbedding()
    )
    fix_times = {"bare": 0.0, "wrapped": 0.0}
    for start in range(0, len(fixes), batch):
        kw = _add_kwargs(fixes[start : start + batch], fix_emb[start : start + batch])
        fix_times["bare"] += C.timed(lambda kw=kw: bare.add(**kw))
        fix_times["wrapped"] += C.timed(lambda kw=kw: wrapped.add(**kw))
        twin.add(**kw)
    times: dict[str, list[float]] = {"bare": [], "wrapped": [], "twin": []}
    cols = (("bare", bare), ("wrapped", wrapped), ("twin", twin))
    batches = range(0, len(mems), batch)
    for b, start in enumerate(C.progress(batches, desc=f"add {len(mems):,} (x3)", unit="batch")):
        kw = _add_kwargs(mems[start : start + batch], mem_emb[start : start + batch])
        for name, col in cols[b % 3 :] + cols[: b % 3]:
            times[name].append(C.timed(lambda kw=kw, c=col: c.add(**kw)))
    assert bare.count() == wrapped.count() == twin.count(), "stores differ in size"
    return bare, wrapped, {"times": times, "corrections_write_s": fix_times}


def measure_size(n: int, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """Build both stores of ``n`` memories and measure add, query and propagation."""
    client = _client(args, tmp, n)
    # New names on every run: a server may hold an earlier run's collections, and deleting
    # them can leak their list-valued metadata into later records (chroma#7594).
    tag = f"{n}-{int(time.time())}"
    reach, sibling = reach_of(n, args)
    pairs = rare_identifiers(args.corrections, args.seed)
    fixes = correction_records(pairs)
    mems = memory_records(n, reach, sibling, pairs, args.seed)
    fix_emb = random_embeddings(len(fixes), seed=args.seed + 2)
    mem_emb = random_embeddings(n, seed=args.seed + 3)

    # 1. the corrections, then the memories: bare, wrapped and twin take turns per batch. A
    # small store is built again (--add-records in all) so that its ratio rests on as many
    # batches as a large one's; the first round's stores are measured further.
    rounds = max(1, -(-args.add_records // n))
    bare, wrapped, first = _add_round(client, tag, fixes, fix_emb, mems, mem_emb, args.batch)
    laps = [first]
    for r in range(1, rounds):
        laps.append(_add_round(client, f"{tag}-r{r}", fixes, fix_emb, mems, mem_emb, args.batch)[2])
    bare_t = [t for lap in laps for t in lap["times"]["bare"]]
    wrap_t = [t for lap in laps for t in lap["times"]["wrapped"]]
    twin_t = [t for lap in laps for t in lap["times"]["twin"]]
    per_batch = [w / b for w, b in zip(wrap_t, bare_t, strict=True) if b > 0]
    add = {
        "records": n,
        "batch": args.batch,
        "rounds": rounds,
        "active_corrections": len(C.paged_ids(wrapped.raw, where={"nowline_correction": True})),
        "rare_mentions": sum(1 for _, t, _m in mems if "(see " in t),
        "bare_s": sum(bare_t),
        "wrapped_s": sum(wrap_t),
        "twin_s": sum(twin_t),
        "bare_docs_per_s": n * rounds / sum(bare_t),
        "wrapped_docs_per_s": n * rounds / sum(wrap_t),
        "ratio": sum(wrap_t) / sum(bare_t),
        "median_batch_ratio": float(np.median(per_batch)),
        "round_ratios": [sum(lap["times"]["wrapped"]) / sum(lap["times"]["bare"]) for lap in laps],
        "twin_ratio": sum(twin_t) / sum(bare_t),
        "corrections_write_s": first["corrections_write_s"],
    }

    # 2. queries, n_results=10, interleaved.
    q_emb = random_embeddings(args.queries + 10, seed=args.seed + 4)
    for v in q_emb[:10]:
        bare.query(query_embeddings=[v], n_results=10)
        wrapped.query(query_embeddings=[v], n_results=10)
    qb: list[float] = []
    qw: list[float] = []
    historical_hits = 0
    for i, v in enumerate(C.progress(q_emb[10:], desc=f"query {n:,}", unit="q")):
        order = ((bare, qb), (wrapped, qw)) if i % 2 == 0 else ((wrapped, qw), (bare, qb))
        for col, sink in order:
            start = time.perf_counter()
            res = col.query(query_embeddings=[v], n_results=10)
            sink.append(time.perf_counter() - start)
            if col is wrapped:
                historical_hits += sum(
                    1 for m in res["metadatas"][0] if (m or {}).get("nowline_role") == "historical"
                )
    q_texts = [mems[i][1] for i in random.Random(args.seed).sample(range(n), min(n, args.queries))]
    # recall() against a bare query of the same text embedded by the same function, the two
    # interleaved as the queries above (a recall timed apart met a busier or quieter moment).
    ef = C.HashEmbedding()
    rb: list[float] = []
    rw: list[float] = []
    for i, t in enumerate(q_texts):
        calls = [
            (lambda t=t: bare.query(query_embeddings=ef([t]), n_results=10), rb),
            (lambda t=t: wrapped.recall(t, n_results=10), rw),
        ]
        for call, sink in calls if i % 2 == 0 else calls[::-1]:
            sink.append(C.timed(call))
    query = {
        "n_results": 10,
        "queries": args.queries,
        "bare": C.summarize(qb),
        "wrapped": C.summarize(qw),
        "p50_ratio": float(np.median(qw) / np.median(qb)),
        "p95_ratio": float(np.percentile(qw, 95) / np.percentile(qb, 95)),
        "historical_hits_per_query": historical_hits / max(1, len(qw)),
        "recall": C.summarize(rw),
        "recall_bare": C.summarize(rb),
        "recall_p50_ratio": float(np.median(rw) / np.median(rb)),
    }

    # 3. propagation of the seed correction, verified from the stored metadata.
    stale_ids = {rid for rid, _t, _m in mems if rid.startswith("stale-")}
    sibling_ids = {rid for rid, _t, _m in mems if rid.startswith("sibling-")}
    one = random_embeddings(1, seed=args.seed + 5)
    bare_one = [
        C.timed(
            lambda r=r: bare.add(
                ids=[f"floor-{r}"],
                embeddings=one,
                documents=[CORRECTION_TEXT],
                metadatas=[{"s": 1}],
            )
        )
        for r in range(3)
    ]
    floor: list[dict[str, float]] = []
    bare_floor: list[dict[str, float]] = []  # the same on the bare copy (rows without links)
    runs = []

    def floors(r: int) -> None:
        floor.append(_chroma_floor(wrapped.raw, sorted(stale_ids), r))
        bare_floor.append(_chroma_floor(bare, sorted(stale_ids), r))

    for r in range(args.repeats):
        # The floor and nowline's run alternate, in alternating order: an update's cost drifts
        # with the store's write log, so a block of floors then a block of runs is biased.
        if r % 2 == 0:
            floors(r)
        phases: dict[str, float] = {}
        C.instrument(wrapped, phases)
        start = time.perf_counter()
        report = wrapped.correct(CORRECTION_TEXT, deprecates=[STALE], id=f"move-{r}")
        wall = time.perf_counter() - start
        C.uninstrument(wrapped)
        linked = set(C.paged_ids(wrapped.raw, where={"nowline_by": {"$contains": report.id}}))
        runs.append(
            {
                "reached": report.reached,
                "report_seconds": report.seconds,
                "wall_s": wall,
                "phases_s": phases,
                "propagation_s": (
                    phases["find"] + phases["persist"]
                    if "find" in phases and "persist" in phases
                    else None
                ),
                "linked_stored": len(linked),
                "linked_equals_stale": linked == stale_ids,
                "sibling_linked": len(linked & sibling_ids),
                "other_linked": len(linked - stale_ids - sibling_ids),
                "retract_s": C.timed(functools.partial(wrapped.retract, report.id)),
            }
        )
        # Retracting keeps the record, whose text names the stale string: the next run's
        # correction would link it too. Deleting it restores the starting state exactly.
        wrapped.delete(ids=[report.id])
        if r % 2 == 1:
            floors(r)
    # 4. repair() of the whole store: reads every record, recomputes its links, stores the
    # differences (here: none, every write went through nowline).
    start = time.perf_counter()
    fixed = wrapped.repair()
    repair = {"wall_s": time.perf_counter() - start, **fixed.model_dump()}
    first = runs[0]
    propagation = {
        "store_records": wrapped.count(),
        "stale": len(stale_ids),
        "sibling": len(sibling_ids),
        "runs": runs,
        "report_seconds_first": first["report_seconds"],
        "report_seconds_median": float(np.median([x["report_seconds"] for x in runs])),
        "propagation_s_median": (
            float(np.median([x["propagation_s"] for x in runs]))
            if all(x["propagation_s"] is not None for x in runs)
            else None
        ),
        "bare_add_one_s": float(np.median(bare_one)),
        "floor_runs": floor,
        "floor_s_median": float(np.median([f["read_s"] + f["update_s"] for f in floor])),
        "bare_floor_runs": bare_floor,
        "bare_floor_s_median": float(np.median([f["read_s"] + f["update_s"] for f in bare_floor])),
        "correct": all(
            x["reached"] == len(stale_ids) and x["linked_equals_stale"] and x["sibling_linked"] == 0
            for x in runs
        ),
    }
    result = {
        "size": n,
        "add": add,
        "query": query,
        "propagation": propagation,
        "repair": repair,
        # the process's peak so far: both stores of this size (and the ones before) included
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load_average_after": list(os.getloadavg()),
    }
    return result


def _run_of(data: dict[str, Any]) -> dict[str, Any]:
    """Return where a size's numbers come from: the run's date, command and load."""
    machine = data["machine"]
    return {
        "date": machine["date"],
        "command": data["command"],
        "load_average_at_start": machine.get("load_average_at_start"),
    }


def merged_sizes(paths: Sequence[Path], measured: Sequence[int]) -> list[dict[str, Any]]:
    """Return the per-size results of earlier runs' ``core.json`` for sizes not measured now.

    A size found in several files comes from the first file that has it.
    """
    out: dict[int, dict[str, Any]] = {}
    for path in paths:
        old = json.loads(Path(path).read_text())
        if old.get("benchmark") != "core":
            raise SystemExit(f"--merge {path}: not a core.json written by bench/core.py")
        for s in old["sizes"]:
            if s["size"] not in measured and s["size"] not in out:
                out[s["size"]] = {**s, "run": s.get("run") or _run_of(old)}
    return list(out.values())


def _chroma_floor(col: Any, stale: list[str], run: int) -> dict[str, float]:
    """Time what chromadb itself needs for a propagation: read the candidates, update rows.

    The read uses nowline's own prefilter regex (``$contains`` if that private module moves);
    the update writes the two keys nowline writes to each reached record. The rows then get
    their two keys back as they were (untimed): on the wrapped store's own collection (``col``
    its raw chromadb collection) the store so carries the same rows and the same write log as
    nowline's runs, each a ``correct()`` and a ``retract()``.
    """
    try:
        from nowline._rules.prefilter import candidate_regex

        where_document: Any = {"$regex": candidate_regex([STALE])}
    except ImportError:
        where_document = {"$contains": STALE}
    before = col.get(ids=stale, include=["metadatas"])
    start = time.perf_counter()
    got = C.paged_get(col, where_document=where_document)
    read_s = time.perf_counter() - start
    metas = [{"nowline_by": [f"floor-{run}"], "nowline_role": "historical"}] * len(stale)
    update_s = C.timed(lambda: C.update_in_batches(col, stale, metas))
    back = [
        {"nowline_by": (m or {}).get("nowline_by"), "nowline_role": (m or {}).get("nowline_role")}
        for m in before["metadatas"]
    ]
    C.update_in_batches(col, list(before["ids"]), back)
    return {"read_s": read_s, "update_s": update_s, "read_rows": len(got), "updated": len(stale)}


def _add_kwargs(rows: Sequence[tuple[str, str, dict[str, Any]]], emb: np.ndarray) -> dict[str, Any]:
    """Return the keyword arguments of one ``add`` call."""
    return {
        "ids": [r[0] for r in rows],
        "documents": [r[1] for r in rows],
        "metadatas": [dict(r[2]) for r in rows],
        "embeddings": emb,
    }


def _pass(ok: bool) -> str:
    """Return a pass mark."""
    return "yes" if ok else "**no**"


def _ratio_row(label: str, bare_s: float, wrapped_s: float, target: str | None = None) -> list[Any]:
    """Return a table row: bare and nowline times, their ratio, and its bar (None: none)."""
    ratio = wrapped_s / bare_s
    return [
        label,
        C.fmt_s(bare_s),
        C.fmt_s(wrapped_s),
        C.fmt_ratio(ratio),
        f"≤ {TARGETS[target]}x" if target else "–",
        _pass(ratio <= TARGETS[target]) if target else "–",
    ]


def _add_spread(add: dict[str, Any]) -> str:
    """Return what an add ratio rests on: its rounds, and the twin's (A/A) ratio, if measured."""
    out = ""
    if len(add.get("round_ratios", ())) > 1:
        out += f"; {len(add['round_ratios'])} builds: "
        out += ", ".join(C.fmt_ratio(r) for r in add["round_ratios"])
    if "twin_ratio" in add:
        out += f"; a second bare copy: {C.fmt_ratio(add['twin_ratio'])}"
    return out


def core_markdown(data: dict[str, Any]) -> str:
    """Return the markdown summary of the core measurements."""
    sizes = data["sizes"]
    rows = []
    for s in sizes:
        a = s["add"]
        rows.append(
            [
                f"add ({a['active_corrections']} corrections), {s['size']:,} records",
                f"{a['bare_s']:.1f} s ({a['bare_docs_per_s']:.0f}/s)",
                f"{a['wrapped_s']:.1f} s ({a['wrapped_docs_per_s']:.0f}/s)",
                f"{C.fmt_ratio(a['ratio'])} (median batch {C.fmt_ratio(a['median_batch_ratio'])}"
                + _add_spread(a)
                + ")",
                f"≤ {TARGETS['add_ratio']}x",
                _pass(a["ratio"] <= TARGETS["add_ratio"]),
            ]
        )
    for s in sizes:
        q = s["query"]
        rows.append(
            _ratio_row(
                f"query p50, n_results=10, {s['size']:,} records",
                q["bare"]["p50"],
                q["wrapped"]["p50"],
                "query_p50_ratio",
            )
        )
    for s in sizes:
        q = s["query"]
        label = f"query p95, {s['size']:,} records"
        rows.append(_ratio_row(label, q["bare"]["p95"], q["wrapped"]["p95"]))
        if "recall_bare" in q:  # runs before 2026-12-05 timed recall() apart from the queries
            rows.append(
                _ratio_row(
                    f"recall() p50 vs a bare query of the same text, {s['size']:,} records",
                    q["recall_bare"]["p50"],
                    q["recall"]["p50"],
                    "recall_p50_ratio",
                )
            )
    for s in sizes:
        p = s["propagation"]
        limit = _propagation_target(s["size"])
        rows.append(
            [
                f"correction reaching {p['stale']:,} of {p['store_records']:,}: "
                f"CorrectionReport.seconds, median of {len(p['runs'])} (first run)",
                f"seed system: {TARGETS['seed_system_s']:.0f} s for 1,682",
                f"{C.fmt_s(p['report_seconds_median'])} ({C.fmt_s(p['report_seconds_first'])})",
                "–",
                f"< {limit} s" if limit else "–",
                _pass(p["report_seconds_median"] < limit) if limit else "–",
            ]
        )
        if p["propagation_s_median"] is not None:
            rows.append(
                _ratio_row(
                    "…propagation phase alone (find + persist links), median; chromadb floor: "
                    "the same regex read + an update of the same rows of the same collection"
                    + (
                        f" (on the bare copy: {C.fmt_s(p['bare_floor_s_median'])})"
                        if "bare_floor_s_median" in p
                        else ""
                    ),
                    p["floor_s_median"],
                    p["propagation_s_median"],
                    "propagation_floor_ratio",
                )
            )
    rrows = [
        [
            f"{s['repair']['records']:,}",
            C.fmt_s(s["repair"]["wall_s"]),
            s["repair"]["updated"],
            C.fmt_s(float(np.median([r["retract_s"] for r in s["propagation"]["runs"]]))),
            f"{s['peak_rss_mb']:,.0f} MB",
        ]
        for s in sizes
    ]
    rtable = C.md_table(
        [
            "records",
            "repair() of the whole store",
            "records repair() changed",
            "retract() of the correction, median",
            "peak RSS of the process so far",
        ],
        rrows,
    )
    table = C.md_table(["measurement", "bare chromadb", "nowline", "ratio", "target", "met"], rows)
    prow = []
    for s in sizes:
        for i, r in enumerate(s["propagation"]["runs"]):
            ph = r["phases_s"]
            prow.append(
                [
                    f"{s['propagation']['store_records']:,}",
                    i + 1,
                    r["reached"],
                    C.fmt_s(r["report_seconds"]),
                    C.fmt_s(ph.get("find")),
                    C.fmt_s(ph.get("persist")),
                    C.fmt_s(ph.get("write")),
                    C.fmt_s(ph.get("embed")),
                    "yes" if r["linked_equals_stale"] else "**no**",
                    r["sibling_linked"],
                    C.fmt_s(r["retract_s"]),
                ]
            )
    ptable = C.md_table(
        [
            "records",
            "run",
            "reached",
            "correct() seconds",
            "find (prefilter read + matcher)",
            "persist (link updates)",
            "write record",
            "embed",
            "linked = stale",
            "siblings linked",
            "retract()",
        ],
        prow,
    )
    return (
        C.run_header(
            "nowline core costs vs bare chromadb", data["machine"], data["command"], data["seconds"]
        )
        + "\nRatios are nowline over bare chromadb, measured interleaved in one run on one "
        + (
            f"Chroma server ({data['config']['url']}, through HttpClient)"
            if data["config"].get("url")
            else "PersistentClient"
        )
        + ", with precomputed random 384-d embeddings (see the caveats in "
        "`bench/core.py`).\n\n"
        + table
        + "\n\n## Propagation runs\n\n"
        + ptable
        + "\n\n## Retract, repair and memory\n\n"
        + rtable
        + "\n\nPeak RSS is the whole benchmark process: both stores of every size so far (the "
        "Chroma indexes in memory), the precomputed embeddings, and nowline.\n"
    )


def _propagation_target(size: int) -> float | None:
    """Return DESIGN §9's propagation bound at a size: 0.5 s at 100k, 3 s at 1M."""
    if size == 100_000:
        return TARGETS["propagation_s"]
    if size == 1_000_000:
        return TARGETS["propagation_1m_s"]
    return None


def scaling_markdown(data: dict[str, Any]) -> str:
    """Return the markdown summary of the per-size numbers."""
    rows = [
        [
            f"{s['size']:,}",
            C.fmt_ratio(s["add"]["ratio"]),
            f"{C.fmt_s(s['query']['bare']['p50'])} → {C.fmt_s(s['query']['wrapped']['p50'])}",
            C.fmt_ratio(s["query"]["p50_ratio"]),
            C.fmt_ratio(s["query"]["recall_p50_ratio"]),
            f"{s['propagation']['stale']:,}",
            C.fmt_s(s["propagation"]["report_seconds_median"]),
            C.fmt_s(s["propagation"]["propagation_s_median"]),
            C.fmt_s(s["propagation"]["floor_s_median"]),
            f"{1000 * s['propagation']['report_seconds_median'] / s['propagation']['stale']:.3f}",
            C.fmt_s(s["repair"]["wall_s"]),
            f"{s['peak_rss_mb']:,.0f} MB",
            "yes" if s["propagation"]["correct"] else "**no**",
            _run_label(s["run"]),
        ]
        for s in data["sizes"]
    ]
    return (
        C.run_header("nowline scaling", data["machine"], data["command"], data["seconds"])
        + "\n"
        + C.md_table(
            [
                "memories",
                "add ratio",
                "query p50 bare → nowline",
                "query p50 ratio",
                "recall() p50 ratio",
                "reached",
                "correct(), median",
                "find + persist links",
                "chromadb floor (same read + update)",
                "correct() ms per reached record",
                "repair()",
                "peak RSS",
                "links correct",
                "run (load average at its start)",
            ],
            rows,
        )
        + "\n\n![scaling](scaling.png)\n"
    )


def _run_label(run: dict[str, Any]) -> str:
    """Return a short label of the run a size comes from."""
    load = run.get("load_average_at_start")
    return f"{run['date'][:16].replace('T', ' ')} ({load[0]:.1f})" if load else run["date"][:16]


def plot(data: dict[str, Any], path: Path) -> None:
    """Draw propagation time and the two overhead ratios against store size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [s["size"] for s in data["sizes"]]
    fig, axes = plt.subplots(1, 4, figsize=(17, 3.9))
    ax = axes[0]
    ax.plot(
        sizes,
        [s["propagation"]["report_seconds_median"] for s in data["sizes"]],
        "o-",
        label="correct() total",
    )
    prop = [s["propagation"]["propagation_s_median"] for s in data["sizes"]]
    if all(p is not None for p in prop):
        ax.plot(sizes, prop, "s--", label="find + persist links")
    ax.plot(
        sizes,
        [s["propagation"]["floor_s_median"] for s in data["sizes"]],
        "^:",
        color="grey",
        label="chromadb floor (read + update)",
    )
    ax.plot(
        sizes, [s["repair"]["wall_s"] for s in data["sizes"]], "d-.", label="repair() whole store"
    )
    ax.axhline(TARGETS["propagation_s"], color="green", ls=":", label="target 0.5 s (100k)")
    ax.axhline(TARGETS["propagation_1m_s"], color="olive", ls=":", label="target 3 s (1M)")
    ax.set_yscale("log")
    reach = data["config"]["reach"]
    ax.set_title(
        f"correction reaching {reach:,} records"
        if reach
        else f"correction reaching {100 * data['config']['reach_share']:.2g}% of the store"
    )
    ax.set_ylabel("seconds")
    ax = axes[1]
    per = [
        1000 * s["propagation"]["report_seconds_median"] / s["propagation"]["stale"]
        for s in data["sizes"]
    ]
    ax.plot(sizes, per, "o-", label="correct() / reached")
    floor_per = [
        1000 * s["propagation"]["floor_s_median"] / s["propagation"]["stale"] for s in data["sizes"]
    ]
    ax.plot(
        sizes,
        floor_per,
        "^:",
        color="grey",
        label="chromadb floor / reached",
    )
    ax.set_ylim(0, max(per + floor_per) * 1.3)
    ax.set_title("cost per reached record")
    ax.set_ylabel("ms per record")
    for ax, key, target, title in (
        (axes[2], ("add", "ratio"), TARGETS["add_ratio"], "add time, nowline / bare"),
        (axes[3], ("query", "p50_ratio"), TARGETS["query_p50_ratio"], "query p50, nowline / bare"),
    ):
        ax.plot(sizes, [s[key[0]][key[1]] for s in data["sizes"]], "o-", label="measured")
        ax.axhline(target, color="green", ls=":", label=f"target {target}x")
        ax.axhline(1.0, color="grey", lw=0.5)
        ax.set_ylim(0.8, max(target, *(s[key[0]][key[1]] for s in data["sizes"])) * 1.15)
        ax.set_title(title)
        ax.set_ylabel("ratio")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("memories in the store")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    fig.suptitle(
        f"nowline vs bare chromadb {data['machine']['packages']['chromadb']} "
        f"({data['config']['corrections']:,} active corrections)"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    C.add_common_args(parser, seed=SEED)
    parser.add_argument(
        "--sizes",
        default=None,
        help="comma-separated store sizes (default 10000,100000; smoke 1000; 1000000 is opt-in)",
    )
    parser.add_argument("--corrections", type=int, default=None, help="active corrections (1000)")
    parser.add_argument(
        "--reach",
        type=int,
        default=None,
        help="stale memories, the same at every size (default: --reach-share of each size)",
    )
    parser.add_argument(
        "--reach-share",
        type=float,
        default=REACH_SHARE,
        help=f"stale memories as a share of each size (default {REACH_SHARE}: 1,682 at 100k)",
    )
    parser.add_argument(
        "--sibling", type=int, default=None, help="sibling memories with --reach (300)"
    )
    parser.add_argument(
        "--url",
        default=None,
        help="a Chroma server (http://host:port) instead of a local store in a temp folder",
    )
    parser.add_argument("--batch", type=int, default=None, help="records per add call (1000)")
    parser.add_argument(
        "--add-records",
        type=int,
        default=None,
        help="records added per size in all: a smaller store is built again (30000)",
    )
    parser.add_argument("--queries", type=int, default=None, help="timed queries per size (300)")
    parser.add_argument("--repeats", type=int, default=None, help="propagation runs per size (7)")
    parser.add_argument(
        "--merge",
        type=Path,
        action="append",
        default=[],
        help="an earlier run's core.json: its other sizes join the scaling report (repeatable)",
    )
    args = parser.parse_args(argv)
    smoke = {
        "sizes": "1000",
        "corrections": 50,
        "reach": 100,
        "sibling": 20,
        "batch": 250,
        "add_records": 1000,
        "queries": 30,
        "repeats": 1,
    }
    full = {
        "sizes": ",".join(map(str, SIZES)),
        "corrections": 1000,
        "batch": 1000,
        "add_records": 30_000,
        "queries": 300,
        "repeats": 7,
    }
    for key, value in (smoke if args.smoke else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    sizes = sorted(int(s.replace("_", "")) for s in str(args.sizes).split(","))
    if args.reach is not None and args.sibling is None:
        args.sibling = 300
    if any(sum(reach_of(n, args)) > n for n in sizes):
        parser.error("every size must hold its stale and sibling memories")
    info = C.machine_info()
    start = time.perf_counter()
    results = []
    # ignore_cleanup_errors: from 10k corrections a snapshot may still be saving in the background
    with tempfile.TemporaryDirectory(prefix="nowline-core-", ignore_cleanup_errors=True) as tmp:
        for n in sizes:
            results.append(measure_size(n, args, Path(tmp)))
            # kept as it comes: a later size that fails must not lose an hour of this one
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / "core.partial.json").write_text(json.dumps(results, default=float))
    run = {
        "date": info["date"],
        "command": C.command_line(),
        "load_average_at_start": info.get("load_average_at_start"),
    }
    for s in results:
        s["run"] = run
    config = {
        k: getattr(args, k)
        for k in (
            "corrections",
            "reach",
            "reach_share",
            "sibling",
            "batch",
            "add_records",
            "queries",
            "repeats",
            "seed",
            "smoke",
            "url",
        )
    }
    config["sizes"] = sizes
    data = {
        "benchmark": "core",
        "command": C.command_line(),
        "seconds": time.perf_counter() - start,
        "machine": info,
        "config": config,
        "targets": TARGETS,
        "sizes": results,
    }
    big = results[-1]
    data["summary"] = {
        "add_ratio": {str(s["size"]): s["add"]["ratio"] for s in results},
        "query_p50_ratio": {str(s["size"]): s["query"]["p50_ratio"] for s in results},
        "correction_seconds": big["propagation"]["report_seconds_median"],
        "correction_seconds_first": big["propagation"]["report_seconds_first"],
        "chromadb_floor_seconds": big["propagation"]["floor_s_median"],
        "propagation_seconds": big["propagation"]["propagation_s_median"],
        "propagation_correct": all(s["propagation"]["correct"] for s in results),
        "size": big["size"],
    }
    C.write_report(args.out, "core", data, core_markdown(data))
    scaling = {k: data[k] for k in ("command", "seconds", "machine", "config", "targets")}
    scaling["benchmark"] = "scaling"
    every = sorted([*results, *merged_sizes(args.merge, sizes)], key=lambda s: s["size"])
    scaling["merged_from"] = [str(p) for p in args.merge]
    scaling["sizes"] = [
        {
            "size": s["size"],
            "add_ratio": s["add"]["ratio"],
            "query_p50_ratio": s["query"]["p50_ratio"],
            "query_p50_bare_s": s["query"]["bare"]["p50"],
            "query_p50_wrapped_s": s["query"]["wrapped"]["p50"],
            "correction_seconds": s["propagation"]["report_seconds_median"],
            "chromadb_floor_seconds": s["propagation"]["floor_s_median"],
            "propagation_seconds": s["propagation"]["propagation_s_median"],
            "reached": s["propagation"]["stale"],
            "ms_per_reached": 1000
            * s["propagation"]["report_seconds_median"]
            / max(1, s["propagation"]["stale"]),
            "retract_seconds": float(np.median([r["retract_s"] for r in s["propagation"]["runs"]])),
            "repair_seconds": s["repair"]["wall_s"],
            "peak_rss_mb": s["peak_rss_mb"],
            "links_correct": s["propagation"]["correct"],
            "run": s["run"],
        }
        for s in every
    ]
    every_data = {**data, "sizes": every}
    C.write_report(args.out, "scaling", scaling, scaling_markdown(every_data), echo=False)
    plot(every_data, args.out / "scaling.png")
    print(f"wrote {args.out / 'scaling.png'}")
    return 0 if data["summary"]["propagation_correct"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
