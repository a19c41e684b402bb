"""Retrieval parity on LoCoMo: evidence recall of bare Chroma vs nowline.

Run ``.venv/bin/python bench/locomo.py`` (real MiniLM model; 1.5 to 3 minutes) or ``--smoke``
(two conversations cut to their first sessions, a cheap hash embedding; seconds). ``--data``
takes the path of ``locomo10.json``. Writes ``locomo.json`` and ``locomo.md`` to ``--out``.

Data. LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0): 10 long two-person conversations
(5,882 turns) and 1,986 questions whose ``evidence`` names the turns (``dia_id``) that hold the
answer. Category 5 (adversarial, unanswerable) is left out, as usual for retrieval; the other
categories are 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop (the dataset's labels).

Setup. Every turn becomes one record: document ``"<speaker>: <text>"``, id
``"<sample_id>:<dia_id>"``, metadata ``sample_id``, ``session``, ``speaker`` and
``observed_at`` (the session's date). Each conversation gets its own pair of collections
(bare chromadb and nowline-wrapped, cosine), as LoCoMo's retrieval baselines search one
conversation at a time. Turns and questions are embedded once with all-MiniLM-L6-v2 and the
same vectors are given to both collections, so any difference in ranking would come from
the wrapper.

Measurements and caveats:

* evidence recall@k (k = 1, 5, 10): per question, the share of its evidence turns among the
  top k hits of ``query(query_embeddings=..., n_results=10)``, averaged over questions; also
  hit@k (at least one evidence turn in the top k). Evidence ids are normalised (``D:11:26`` →
  ``D11:26``, lists split on ``;`` and spaces); questions without a usable evidence id are
  skipped and counted. Images are not used: a turn that shares a photo keeps only its text.
* identical rankings: the share of questions whose top-10 id lists are identical in order,
  (a) between nowline's ``query()`` and chromadb's ``query()`` on the very same underlying
  collection (``collection.raw``), ids and distances, which isolates the wrapper; and (b)
  between the nowline collection and the separately built bare one, which also includes
  HNSW's approximation (two indexes built from the same vectors need not agree exactly), with
  the largest absolute difference between the distances of the two lists.
* latency: each question is queried on the bare collection, the nowline collection and the
  latter's raw chromadb collection back to back (order rotating); p50 and p95 and the ratios.
  The collections are small (about 600 turns each), so the query itself is fast and the
  wrapper's fixed per-call cost weighs more than at 100k records (see ``core.py``). The store
  holds no corrections, so no hit is annotated; the wrapper still checks every hit against its
  (empty) registry. ``recall()`` latency is given for reference. The machine is shared;
  compare ratios.
* add: both collections are filled with the same batches, alternating; the ratio is given for
  reference (small batches, so noisy).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C

import nowline

SEED = 10
KS = (1, 5, 10)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
DEFAULT_DATA = "locomo/locomo10.json"
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


def session_date(text: str) -> str:
    """Parse LoCoMo's "1:56 pm on 8 May, 2023" into ISO 8601 (UTC)."""
    dt = datetime.strptime(" ".join(text.split()), "%I:%M %p on %d %B, %Y")
    return dt.replace(tzinfo=timezone.utc).isoformat()


def session_numbers(conversation: dict[str, Any]) -> list[int]:
    """Return the numbers of a LoCoMo conversation's sessions, in order (``session_<n>`` keys)."""
    return sorted(int(m.group(1)) for k in conversation if (m := re.fullmatch(r"session_(\d+)", k)))


def document(turn: dict[str, Any]) -> str:
    """Return a turn as it is stored: ``"<speaker>: <text>"``."""
    return f"{turn['speaker']}: {turn['text']}"


def load(path: Path, smoke: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Return the turns, the category 1–4 questions with usable evidence, and the skipped count."""
    samples = json.loads(path.read_text())
    if smoke:
        samples = samples[:2]
    turns: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    skipped = 0
    for sample in samples:
        sid = sample["sample_id"]
        conv = sample["conversation"]
        sessions = session_numbers(conv)
        if smoke:
            sessions = sessions[:3]
        for n in sessions:
            when = session_date(conv[f"session_{n}_date_time"])
            for turn in conv[f"session_{n}"]:
                turns.append(
                    {
                        "id": f"{sid}:{turn['dia_id']}",
                        "document": document(turn),
                        "metadata": {
                            "sample_id": sid,
                            "session": n,
                            "speaker": turn["speaker"],
                            "observed_at": when,
                        },
                    }
                )
        known = {t["id"] for t in turns if t["metadata"]["sample_id"] == sid}
        for qa in sample["qa"]:
            if qa.get("category") not in CATEGORIES:
                continue
            evidence = {
                f"{sid}:D{a}:{b}"
                for e in qa.get("evidence") or []
                for a, b in _EVIDENCE.findall(str(e))
            }
            evidence &= known
            if not evidence:
                skipped += 1
                continue
            questions.append(
                {
                    "sample_id": sid,
                    "question": qa["question"],
                    "category": qa["category"],
                    "evidence": sorted(evidence),
                }
            )
    return turns, questions, skipped


def recall_at(ids: Sequence[str], evidence: Sequence[str], k: int) -> tuple[float, bool]:
    """Return (share of evidence in the top k, whether any is)."""
    top = set(ids[:k])
    found = sum(1 for e in evidence if e in top)
    return found / len(evidence), found > 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    C.add_common_args(parser, seed=SEED)
    parser.add_argument(
        "--data",
        type=Path,
        default=C.default_data(DEFAULT_DATA),
        help="path of locomo10.json (default: ../shared/data/locomo/locomo10.json)",
    )
    args = parser.parse_args(argv)
    if args.data is None or not Path(args.data).exists():
        parser.error("LoCoMo not found; pass --data .../locomo10.json")
    info = C.machine_info()
    start = time.perf_counter()
    turns, questions, skipped = load(args.data, args.smoke)

    if args.smoke:
        ef: Any = C.HashEmbedding()
        load_s, model = 0.0, "hash (smoke)"
    else:
        ef, load_s = C.real_model()
        model = "all-MiniLM-L6-v2"
    t0 = time.perf_counter()
    t_vecs = C.embed_all(ef, [t["document"] for t in turns], desc="embed turns")
    q_texts = [q["question"] for q in questions]
    q_vecs = C.embed_all(ef, q_texts, desc="embed questions")
    embed_s = time.perf_counter() - t0

    per_q: list[dict[str, Any]] = []
    add_t = {"bare": 0.0, "nowline": 0.0}
    lat: dict[str, list[float]] = {"bare": [], "nowline": [], "raw": [], "recall": []}
    with tempfile.TemporaryDirectory(prefix="nowline-locomo-") as tmp:
        client = C.new_client(tmp)
        cols: dict[str, tuple[Any, Any]] = {}
        sids = sorted({t["metadata"]["sample_id"] for t in turns}, key=lambda s: s)
        table = dict(zip(q_texts, q_vecs, strict=True))
        for n, sid in enumerate(sids):
            bare = C.new_collection(client, f"bare-{sid}")
            wrapped = nowline.wrap(
                C.new_collection(client, f"nowline-{sid}"),
                embedding_function=C.CachedEmbedding(table, ef),
            )
            cols[sid] = (bare, wrapped)
            idx = [i for i, t in enumerate(turns) if t["metadata"]["sample_id"] == sid]
            for b, part in enumerate(C.chunks(idx, 200)):
                kw = {
                    "ids": [turns[i]["id"] for i in part],
                    "documents": [turns[i]["document"] for i in part],
                    "metadatas": [dict(turns[i]["metadata"]) for i in part],
                    "embeddings": t_vecs[list(part)],
                }
                order = [("bare", bare), ("nowline", wrapped)]
                if (n + b) % 2:
                    order.reverse()
                for name, col in order:
                    add_t[name] += C.timed(lambda col=col, kw=kw: col.add(**kw))
        # warm-up
        for q, v in list(zip(questions, q_vecs, strict=True))[:10]:
            bare, wrapped = cols[q["sample_id"]]
            bare.query(query_embeddings=[v], n_results=10)
            wrapped.query(query_embeddings=[v], n_results=10)
        for i, (q, v) in enumerate(
            C.progress(list(zip(questions, q_vecs, strict=True)), desc="query", unit="q")
        ):
            bare, wrapped = cols[q["sample_id"]]
            res: dict[str, Any] = {}
            order = [("bare", bare), ("nowline", wrapped), ("raw", wrapped.raw)]
            order = order[i % 3 :] + order[: i % 3]
            for name, col in order:
                s = time.perf_counter()
                res[name] = col.query(query_embeddings=[v], n_results=10)
                lat[name].append(time.perf_counter() - s)
            lat["recall"].append(
                C.timed(lambda w=wrapped, q=q: w.recall(q["question"], n_results=10))
            )
            b_ids, w_ids = res["bare"]["ids"][0], res["nowline"]["ids"][0]
            b_d = np.asarray(res["bare"]["distances"][0], dtype=float)
            w_d = np.asarray(res["nowline"]["distances"][0], dtype=float)
            row: dict[str, Any] = {
                "category": q["category"],
                "identical": b_ids == w_ids,
                "identical_same": res["raw"]["ids"][0] == w_ids
                and res["raw"]["distances"][0] == res["nowline"]["distances"][0],
                "max_distance_diff": float(np.max(np.abs(b_d - w_d)))
                if len(b_d) == len(w_d) and len(b_d)
                else None,
            }
            for name, ids in (("bare", b_ids), ("nowline", w_ids)):
                for k in KS:
                    r, h = recall_at(ids, q["evidence"], k)
                    row[f"{name}_recall@{k}"] = r
                    row[f"{name}_hit@{k}"] = h
            per_q.append(row)

    def mean(rows: list[dict[str, Any]], key: str) -> float | None:
        return float(np.mean([r[key] for r in rows])) if rows else None

    groups = {"all": per_q} | {
        f"{c} {name}": [r for r in per_q if r["category"] == c] for c, name in CATEGORIES.items()
    }
    metrics: dict[str, Any] = {}
    for g, rows in groups.items():
        metrics[g] = {"questions": len(rows)}
        for side in ("bare", "nowline"):
            for k in KS:
                metrics[g][f"{side}_recall@{k}"] = mean(rows, f"{side}_recall@{k}")
                metrics[g][f"{side}_hit@{k}"] = mean(rows, f"{side}_hit@{k}")
        metrics[g]["identical_top10"] = mean(rows, "identical")
        metrics[g]["identical_top10_same_collection"] = mean(rows, "identical_same")
    diffs = [r["max_distance_diff"] for r in per_q if r["max_distance_diff"] is not None]
    data = {
        "benchmark": "locomo",
        "command": C.command_line(),
        "seconds": time.perf_counter() - start,
        "machine": info,
        "config": {"smoke": args.smoke, "seed": args.seed, "ks": list(KS), "model": model},
        "dataset": {
            "data": C.portable(args.data),
            "conversations": len({t["metadata"]["sample_id"] for t in turns}),
            "turns": len(turns),
            "questions": len(questions),
            "questions_skipped_no_evidence": skipped,
        },
        "model": {"load_s": load_s, "embed_s": embed_s, "texts": len(turns) + len(questions)},
        "metrics": metrics,
        "identical_top10_share": metrics["all"]["identical_top10"],
        "identical_top10_same_collection_share": metrics["all"]["identical_top10_same_collection"],
        "max_distance_diff": max(diffs) if diffs else None,
        "latency": {
            "bare": C.summarize(lat["bare"]),
            "nowline": C.summarize(lat["nowline"]),
            "raw_same_collection": C.summarize(lat["raw"]),
            "p50_ratio": float(np.median(lat["nowline"]) / np.median(lat["bare"])),
            "p50_ratio_same_collection": float(np.median(lat["nowline"]) / np.median(lat["raw"])),
            "p95_ratio": float(np.percentile(lat["nowline"], 95) / np.percentile(lat["bare"], 95)),
            "recall": C.summarize(lat["recall"]),
        },
        "add": {**add_t, "ratio": add_t["nowline"] / add_t["bare"]},
    }
    C.write_report(args.out, "locomo", data, markdown(data))
    return 0


def markdown(data: dict[str, Any]) -> str:
    """Return the markdown summary."""
    m = data["metrics"]
    rows = []
    for g, v in m.items():
        rows.append(
            [g, v["questions"]]
            + [f"{v[f'bare_recall@{k}']:.3f} / {v[f'nowline_recall@{k}']:.3f}" for k in KS]
            + [
                f"{v['bare_hit@10']:.3f} / {v['nowline_hit@10']:.3f}",
                f"{100 * v['identical_top10_same_collection']:.1f}%",
                f"{100 * v['identical_top10']:.1f}%",
            ]
        )
    table = C.md_table(
        ["questions", "n"]
        + [f"recall@{k} bare / nowline" for k in KS]
        + [
            "hit@10 bare / nowline",
            "identical top-10: nowline vs chromadb on the same collection",
            "identical top-10: nowline vs the separately built bare collection",
        ],
        rows,
    )
    lat = data["latency"]
    ltable = C.md_table(
        ["", "bare chromadb", "nowline", "ratio"],
        [
            [
                "query p50",
                C.fmt_s(lat["bare"]["p50"]),
                C.fmt_s(lat["nowline"]["p50"]),
                C.fmt_ratio(lat["p50_ratio"]),
            ],
            [
                "query p95",
                C.fmt_s(lat["bare"]["p95"]),
                C.fmt_s(lat["nowline"]["p95"]),
                C.fmt_ratio(lat["p95_ratio"]),
            ],
            [
                "query p50, chromadb on the wrapped collection itself",
                C.fmt_s(lat["raw_same_collection"]["p50"]),
                C.fmt_s(lat["nowline"]["p50"]),
                C.fmt_ratio(lat["p50_ratio_same_collection"]),
            ],
            ["recall() p50 (for reference)", "–", C.fmt_s(lat["recall"]["p50"]), "–"],
            [
                "add, all turns (for reference)",
                C.fmt_s(data["add"]["bare"]),
                C.fmt_s(data["add"]["nowline"]),
                C.fmt_ratio(data["add"]["ratio"]),
            ],
        ],
    )
    ds = data["dataset"]
    return (
        C.run_header(
            "LoCoMo retrieval parity: bare Chroma vs nowline",
            data["machine"],
            data["command"],
            data["seconds"],
        )
        + f"\n{ds['conversations']} conversations, {ds['turns']:,} turns, {ds['questions']:,} "
        f"questions of categories 1–4 with evidence ({ds['questions_skipped_no_evidence']} "
        f"skipped: no usable evidence id). Embeddings: {data['config']['model']}, computed once "
        "and given to both collections; one collection pair per conversation; n_results=10.\n\n"
        + table
        + "\n\nnowline's `query()` returned exactly chromadb's ids and distances on the same "
        f"collection for {100 * data['identical_top10_same_collection_share']:.1f}% of the "
        "questions. Two collections built separately from the same records and vectors can "
        "differ slightly, as HNSW is approximate (largest distance difference between the two "
        f"top-10 lists: {data['max_distance_diff']:.2e}); the recall columns compare those two."
        "\n\n## Query latency\n\n" + ltable + "\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
