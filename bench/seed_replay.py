"""Replay of the published ghost-memory incident on a synthetic store.

Run ``.venv/bin/python bench/seed_replay.py`` (1.5 to 5 minutes; loads the real MiniLM model)
or ``--smoke`` (seconds; a cheap hash embedding instead of the model). Writes
``seed_replay.json`` and ``seed_replay.md`` to ``--out``.

The incident: an agent's memory held about 1,650 live memories naming the repository
``metalcraftai/ufo``; the project moved to ``ufo-ai/ufo``; the agent stored a correction, yet a
recall for "where do I open the PR for UFO core?" kept returning 9 memories that sent it to the
old repository, and the seed system needed 5 s to link 1,682 memories.

The store here: ``--others`` (40,000) unrelated synthetic memories, ``--stale`` (1,644)
synthetic memories naming ``metalcraftai/ufo`` in its usual spellings (``Metalcraftai/UFO``,
clone URLs, ``.../pull/N`` paths), ``--sibling`` (300) naming ``metalcraftai/ufo-hosted``
(``bench/_synth.py``), plus 9 hand-written misleading memories about where UFO core PRs go (so
1,653 memories name the old repository), 3 hand-written memories about the sibling
repository and 1 about UFO core that names neither. Then the correction
"UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo." with
``deprecates=["metalcraftai/ufo"]`` is written through ``correct()``, and the queries below are
recalled with ``n_results=--k`` (10) from the wrapped collection and queried from a bare
chromadb collection that holds the same records (the correction included, as a plain memory).

Caveats:

* Embeddings: the 13 hand-written memories, the correction and the queries are embedded with
  the real all-MiniLM-L6-v2 model; the ~42k synthetic memories get random unit vectors, which
  are nearly orthogonal to every real text. So the hand-written memories win retrieval by
  construction, as the incident's 9 did; this tests what the reader sees for the memories that
  are retrieved, not the retrieval itself (``locomo.py`` does that).
* Propagation time is ``CorrectionReport.seconds`` of one ``correct()`` on the full store,
  after a warm-up of the model; it includes embedding the correction text with the model
  (reported separately) and writing the correction record. It is one run on a shared machine;
  ``core.py`` repeats the measurement at 100k records.
* "Stale exposure" for a query counts the retrieved memories that name the old repository
  and reach the reader without their correction. Strict: without a now-line beneath them (a
  bare collection never gives one). Lenient: the correction is nowhere in the retrieved
  context either.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C
from _synth import SIBLING, STALE, memories, random_embeddings

import nowline
from nowline.matchers import Matcher

SEED = 1682
CORRECTION_TEXT = (
    "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
)
MAIN_QUERY = "where do I open the PR for UFO core?"
QUERIES = [
    MAIN_QUERY,
    "how do I clone the UFO core repository?",
    "which GitHub repo has the UFO core code?",
    "where do PRs for the hosted UFO service go?",
]
MISLEADING = [
    "UFO core PRs are opened against metalcraftai/ufo (base branch main).",
    "To open a PR for UFO core, push your branch to github.com/metalcraftai/ufo and click "
    "'Compare & pull request'.",
    "UFO core lives in metalcraftai/ufo; PR #1705 for the core was opened there.",
    "Reminder: UFO core pull requests need two approvals in Metalcraftai/UFO.",
    "The UFO core repo is metalcraftai/ufo — clone it with "
    "git clone https://github.com/metalcraftai/ufo.git before opening a PR.",
    "Open UFO core PRs and issues at https://github.com/metalcraftai/ufo/pulls.",
    "CI for UFO core runs on every PR to metalcraftai/ufo.",
    "Contributing to UFO core: fork metalcraftai/ufo, then open the PR upstream.",
    "UFO core release PRs are merged in metalcraftai/ufo after review (see "
    "metalcraftai/ufo/pull/1705).",
]
NEAR_SIBLING = [
    "PRs for the hosted UFO service go to metalcraftai/ufo-hosted, not to the core repo.",
    "Open UFO hosted deployment PRs in github.com/metalcraftai/ufo-hosted.",
    "metalcraftai/ufo-hosted deploys after each merged PR to the hosted UFO service.",
]
NEAR_NEUTRAL = ["UFO core PR reviews happen on Tuesdays; ping Dara for a second approval."]
PUBLISHED = {"seed_system_s": 5.0, "seed_reached": 1682, "misleading": 9}


def build_records(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    """Return (id, text, kind) for every memory; kind is stale, sibling or other."""
    total = args.others + args.stale + args.sibling
    rows = [
        (rid, text, rid.split("-")[0])
        for rid, text in memories(total, args.stale, args.sibling, seed=args.seed)
    ]
    rows += [(f"misleading-{i + 1}", t, "stale") for i, t in enumerate(MISLEADING)]
    rows += [(f"sibling-near-{i + 1}", t, "sibling") for i, t in enumerate(NEAR_SIBLING)]
    rows += [(f"other-near-{i + 1}", t, "other") for i, t in enumerate(NEAR_NEUTRAL)]
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    C.add_common_args(parser, seed=SEED)
    parser.add_argument("--others", type=int, default=None, help="unrelated memories (40000)")
    parser.add_argument("--stale", type=int, default=None, help="synthetic stale memories (1644)")
    parser.add_argument("--sibling", type=int, default=None, help="sibling memories (300)")
    parser.add_argument("--k", type=int, default=10, help="n_results of each recall (10)")
    args = parser.parse_args(argv)
    for key, full, smoke in (
        ("others", 40_000, 1_500),
        ("stale", 1_644, 100),
        ("sibling", 300, 20),
    ):
        if getattr(args, key) is None:
            setattr(args, key, smoke if args.smoke else full)
    info = C.machine_info()
    start = time.perf_counter()

    # Sanity: the hand-written memories name what they should, per the matcher itself.
    stale_m = Matcher([(STALE, "stale")])
    assert all(stale_m.keys(t) for t in MISLEADING), "a misleading memory misses the string"
    assert not any(stale_m.keys(t) for t in NEAR_SIBLING + NEAR_NEUTRAL)
    assert all(Matcher([(SIBLING, 1)]).keys(t) for t in NEAR_SIBLING)

    if args.smoke:
        ef: Any = C.HashEmbedding()
        load_s = 0.0
        model = "hash (smoke)"
    else:
        ef, load_s = C.real_model()
        model = "all-MiniLM-L6-v2"
    rows = build_records(args)
    hand = {rid for rid, _t, _k in rows if "-near-" in rid or rid.startswith("misleading-")}
    hand_rows = [r for r in rows if r[0] in hand]
    hand_vecs = dict(zip((r[0] for r in hand_rows), ef([r[1] for r in hand_rows]), strict=True))
    rand = random_embeddings(len(rows), seed=args.seed)
    emb = [hand_vecs.get(rid, rand[i]) for i, (rid, _t, _k) in enumerate(rows)]
    correction_vec = ef([CORRECTION_TEXT])[0]
    embed_correction_s = sorted(C.timed(lambda: ef([CORRECTION_TEXT])) for _ in range(3))[1]
    query_vecs = dict(zip(QUERIES, ef(QUERIES), strict=True))

    with tempfile.TemporaryDirectory(prefix="nowline-seed-") as tmp:
        client = C.new_client(tmp)
        bare = C.new_collection(client, "bare")
        cached = C.CachedEmbedding(query_vecs, ef)
        wrapped = nowline.wrap(C.new_collection(client, "wrapped"), embedding_function=cached)
        # Records come with embeddings; the correction's text is embedded by the model.
        for part_start in C.progress(range(0, len(rows), 1000), desc="add (x2)", unit="batch"):
            part = rows[part_start : part_start + 1000]
            kw = {
                "ids": [r[0] for r in part],
                "documents": [r[1] for r in part],
                "metadatas": [{"kind": r[2]} for r in part],
                "embeddings": emb[part_start : part_start + 1000],
            }
            bare.add(**kw)
            wrapped.add(**kw)
        bare.add(
            ids=["correction"],
            documents=[CORRECTION_TEXT],
            embeddings=[correction_vec],
            metadatas=[{"kind": "correction", "deprecates": [STALE]}],
        )
        phases: dict[str, float] = {}
        C.instrument(wrapped, phases)
        report = wrapped.correct(CORRECTION_TEXT, deprecates=[STALE], id="correction")
        C.uninstrument(wrapped)

        stale_ids = {rid for rid, _t, k in rows if k == "stale"}
        sibling_ids = {rid for rid, _t, k in rows if k == "sibling"}
        linked = set(C.paged_ids(wrapped.raw, where={"nowline_by": {"$contains": report.id}}))
        store = {
            "records": wrapped.count(),
            "stale_total": len(stale_ids),
            "stale_linked": len(linked & stale_ids),
            "sibling_total": len(sibling_ids),
            "sibling_linked": len(linked & sibling_ids),
            "other_linked": len(linked - stale_ids - sibling_ids),
            "reached": report.reached,
            "correction_seconds": report.seconds,
            "embed_correction_s": embed_correction_s,
            "phases_s": phases,
            "propagation_s": (
                phases["find"] + phases["persist"] if {"find", "persist"} <= set(phases) else None
            ),
            "model_load_s": load_s,
        }

        # Where do all 9 misleading memories rank, and does each carry the now-line?
        deep = wrapped.recall(MAIN_QUERY, n_results=max(args.k, 40)).hits
        ranks = {h.id: (r + 1, any(c.id == report.id for c in h.now)) for r, h in enumerate(deep)}
        misleading = {
            f"misleading-{i + 1}": ranks.get(f"misleading-{i + 1}", (None, False))
            for i in range(len(MISLEADING))
        }
        per_query = []
        for q in QUERIES:
            rec = wrapped.recall(q, n_results=args.k)
            res = bare.query(query_embeddings=[query_vecs[q]], n_results=args.k)
            bare_ids = res["ids"][0]
            bare_stale = [i for i in bare_ids if i in stale_ids]
            hits = rec.hits
            w_stale = [h for h in hits if h.id in stale_ids]
            w_stale_annotated = [h for h in w_stale if any(c.id == report.id for c in h.now)]
            correction_in_w = any(h.id == report.id for h in hits) or bool(w_stale_annotated)
            per_query.append(
                {
                    "query": q,
                    "nowline": {
                        "ids": [h.id for h in hits],
                        "roles": [h.role for h in hits],
                        "misleading_retrieved": sum(h.id.startswith("misleading-") for h in hits),
                        "misleading_with_now_line": sum(
                            h.id.startswith("misleading-") for h in w_stale_annotated
                        ),
                        "stale_retrieved": len(w_stale),
                        "stale_with_now_line": len(w_stale_annotated),
                        "sibling_retrieved": sum(h.id in sibling_ids for h in hits),
                        "sibling_with_now_line": sum(
                            h.id in sibling_ids and bool(h.now) for h in hits
                        ),
                        "other_with_now_line": sum(
                            h.id not in stale_ids and bool(h.now) for h in hits
                        ),
                        "stale_exposure_strict": len(w_stale) - len(w_stale_annotated),
                        "stale_exposure_lenient": 0 if correction_in_w else len(w_stale),
                        "rendered": rec.render(),
                    },
                    "bare": {
                        "ids": bare_ids,
                        "misleading_retrieved": sum(i.startswith("misleading-") for i in bare_ids),
                        "stale_retrieved": len(bare_stale),
                        "correction_retrieved": "correction" in bare_ids,
                        "stale_exposure_strict": len(bare_stale),
                        "stale_exposure_lenient": 0
                        if "correction" in bare_ids
                        else len(bare_stale),
                    },
                }
            )
    main_q = per_query[0]
    data = {
        "benchmark": "seed_replay",
        "command": C.command_line(),
        "seconds": time.perf_counter() - start,
        "machine": info,
        "config": {
            "others": args.others,
            "stale": args.stale,
            "sibling": args.sibling,
            "k": args.k,
            "seed": args.seed,
            "smoke": args.smoke,
            "model": model,
        },
        "published": PUBLISHED,
        "store": store,
        "queries": per_query,
        "misleading_ranks": {
            rid: {"rank": rank, "now_line": now} for rid, (rank, now) in misleading.items()
        },
        "summary": {
            "misleading_total": len(MISLEADING),
            "misleading_within_40": sum(r is not None for r, _n in misleading.values()),
            "misleading_all_with_now_line": sum(n for _r, n in misleading.values()),
            "misleading_worst_rank": max((r or 10**9) for r, _n in misleading.values()),
            "misleading_retrieved": main_q["nowline"]["misleading_retrieved"],
            "misleading_with_now_line": main_q["nowline"]["misleading_with_now_line"],
            "stale_linked": store["stale_linked"],
            "stale_total": store["stale_total"],
            "sibling_false_links": store["sibling_linked"],
            "other_false_links": store["other_linked"],
            "correction_seconds": store["correction_seconds"],
            "propagation_seconds": store["propagation_s"],
            "bare_stale_exposure_strict": main_q["bare"]["stale_exposure_strict"],
            "nowline_stale_exposure_strict": main_q["nowline"]["stale_exposure_strict"],
        },
    }
    C.write_report(args.out, "seed_replay", data, markdown(data))
    ok = (
        store["sibling_linked"] == 0
        and store["other_linked"] == 0
        and store["stale_linked"] == store["stale_total"]
    )
    return 0 if ok else 1


def markdown(data: dict[str, Any]) -> str:
    """Return the markdown summary."""
    s, st, pub = data["summary"], data["store"], data["published"]
    main_q = data["queries"][0]
    head = C.md_table(
        ["measurement", "seed system (published)", "nowline"],
        [
            [
                f'the 9 misleading memories recalled for "{MAIN_QUERY}" that carry the now-line',
                f"0 of {pub['misleading']}",
                f"{s['misleading_all_with_now_line']} of {s['misleading_total']} (ranks "
                f"{', '.join(str(v['rank']) for v in data['misleading_ranks'].values())})",
            ],
            [
                f"…of those in the top {data['config']['k']}",
                "–",
                f"{s['misleading_with_now_line']} of {s['misleading_retrieved']}",
            ],
            [
                "memories naming metalcraftai/ufo linked to the correction",
                f"{pub['seed_reached']:,} (after 5 s)",
                f"{s['stale_linked']:,} of {s['stale_total']:,}",
            ],
            [
                "false links on metalcraftai/ufo-hosted memories",
                "–",
                f"{s['sibling_false_links']} of {st['sibling_total']}",
            ],
            ["false links on other memories", "–", f"{s['other_false_links']}"],
            [
                f"correction written and propagated in a store of {st['records']:,}",
                f"{pub['seed_system_s']:.0f} s",
                f"{C.fmt_s(s['correction_seconds'])} (CorrectionReport.seconds)",
            ],
            [
                "…of which: find + persist links / write the record / embed the text",
                "–",
                " / ".join(
                    C.fmt_s(x)
                    for x in (
                        st["propagation_s"],
                        st["phases_s"].get("write"),
                        st["phases_s"].get("embed"),
                    )
                ),
            ],
        ],
    )
    qrows = []
    for q in data["queries"]:
        n, b = q["nowline"], q["bare"]
        qrows.append(
            [
                q["query"],
                f"{b['stale_retrieved']} ({b['misleading_retrieved']} misleading)",
                "yes" if b["correction_retrieved"] else "no",
                f"{b['stale_exposure_strict']} / {b['stale_exposure_lenient']}",
                f"{n['stale_retrieved']}",
                f"{n['stale_with_now_line']}",
                f"{n['stale_exposure_strict']} / {n['stale_exposure_lenient']}",
                f"{n['sibling_retrieved']} / {n['sibling_with_now_line']}",
            ]
        )
    qtable = C.md_table(
        [
            "query",
            "bare: stale hits",
            "bare: correction in top k",
            "bare: exposure strict / lenient",
            "nowline: stale hits",
            "with now-line",
            "nowline: exposure strict / lenient",
            "sibling hits / with now-line",
        ],
        qrows,
    )
    return (
        C.run_header("Seed incident replay", data["machine"], data["command"], data["seconds"])
        + f"\nEmbeddings: {data['config']['model']} for the hand-written memories, the "
        "correction and the queries; random unit vectors for the synthetic bulk (see "
        "`bench/seed_replay.py`).\n\n"
        + head
        + f"\n\n## Per query (top {data['config']['k']})\n\n"
        + qtable
        + f'\n\n## What the reader gets for "{MAIN_QUERY}" (nowline)\n\n```\n'
        + main_q["nowline"]["rendered"]
        + "\n```\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
