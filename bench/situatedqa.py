"""Stale-fact benchmark on SituatedQA's temporal split: bare Chroma vs nowline (issue 4 §1).

Run ``.venv/bin/python bench/situatedqa.py`` (dev split, real MiniLM model, about 6 minutes) or
``--smoke`` (a few questions, a cheap hash embedding; seconds). ``--data`` takes any split's
``raw_data/temp.<split>.jsonl``; ``--distractors`` optionally adds another split's facts,
stored but never asked. Writes ``situatedqa.json`` and ``situatedqa.md`` to ``--out``.

Data. SituatedQA (Zhang & Choi, EMNLP 2021), temporal split, ``raw_data`` files: each
question has ``timelines`` (previous and current answers with their start dates) and
``context_answer_pairs`` (the answer as of a given date). A question is *changed* when a
timeline has non-empty previous and current answers that share no answer; the first such
timeline is used. Every other question of the split is *unchanged* (scored separately).

The memory store (one store with every question, for realistic interference: an outdated
answer such as "1990" or "5" also occurs in other questions' facts, and a per-question store
could never show that collateral):

* each changed question: two memories of the old fact, in two phrasings an agent's notes
  might use, ``"<q>? — <old> (as of <date>)."`` at the earliest known date of the old answer
  and ``'Noted in <date>: <old> is the answer to "<q>".'`` at the latest known one (both
  before the change); then, at the change date, a correction
  ``'Update on "<q>? — <old>": the answer is now <new> (as of <date>).'``;
* each unchanged question: one memory ``"<q>? — <answer> (as of <date>)."``;
* only with ``--distractors``: every question of another split, one memory of its current
  answer, never asked. Off by default: the train split holds paraphrases of dev questions
  with their *current* answers (e.g. "when was the last time england reached the semi final
  of a world cup? — 2018"), which would hand bare Chroma the current fact for free.

Unknown dates default to 2000-01-01 for old facts and 2021-06-01 for corrections; such
questions take part in the "now" scores but not in the as_of scores.

Four collections hold the same records with the same embeddings (the real
all-MiniLM-L6-v2 model, computed once): bare chromadb, and nowline under three deprecation
policies, i.e. three choices of the correction's ``deprecates``:

* ``answer``: the bare old answer string(s), e.g. ``["1990"]``: reaches every phrasing of the
  old fact, and every unrelated memory that happens to contain "1990" (including the
  "(as of 1990)" date of another fact);
* ``fact``: the old fact's sentence fragment ``"<q>? — <old>"``: reaches only memories that
  use that phrasing (so it misses the second phrasing above), and nothing unrelated;
* ``name``: the bare old answer when it reads as a name (it has a letter and at least 3
  characters: "Ray Romano", "Mortal Kombat X"), else (years, counts, dates) the fact fragment:
  the rule of thumb "deprecate identifiers, not bare numbers".

Scores (top k = 5 per question; answers are matched in text with nowline's own matcher, i.e.
case- and Unicode-insensitive, token-bounded):

* stale exposure: share of contexts in which an old-fact memory of the question appears
  without its correction. Strict: without a now-line beneath it (a bare store never gives
  one). Lenient: the correction is nowhere in the context either (not even as a separate hit).
* current-fact presence: share of contexts that contain the current answer, as a hit or in a
  now-line.
* collateral: share of memories that do not belong to a correction's question but were
  linked to it (store-wide, from the stored links), and the share of unchanged questions'
  contexts in which a now-line appears that the question did not need.
* as_of: for each ``context_answer_pair`` of a changed question whose answer is the old or
  the new one, ``recall(q, as_of=<end of that day or year>)``; bare Chroma gets the same time
  filter on a numeric metadata key. Correct when the answer right at that time is presented
  as current (in a non-historical hit or a now-line) and the other one is not: before the
  change no correction may show; after it, no old fact may appear without its correction
  (strict, as above).

Caveats: the dev split itself holds many paraphrases of one question ("when did england
last get into semi finals?"), each with its own facts and correction, so a context often
holds several questions' old facts; each is scored only against its own question. The
"(as of <year>)" in a memory's text is where most of the ``answer`` policy's collateral
comes from: a deprecated year occurs in every fact dated that year. A correction's own text
names years and names too, so an older correction is often superseded by a newer one of
another question, and the now-line shows that chain's newest correction instead of the
question's own (the README's "What a stale hit shows"); the "only other questions'
corrections" column counts it.
The memories are templated from QA pairs, not an agent's real notes, and the
queries are the dataset's questions verbatim, so the correction (which quotes the question)
is often retrieved next to the old fact; that is why lenient exposure is low even for bare
Chroma, and why the strict score is the one that shows what the reader is told about each
old fact. Year-only dates are ambiguous around a change (``as of 2019`` for a change in
April 2019 is taken as the end of 2019). Retrieval quality itself is measured by
``locomo.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C

import nowline
from nowline.matchers import Matcher

SEED = 2021
K = 5
DEFAULT_DATA = "situatedqa/data/raw_data/temp.dev.jsonl"
DEFAULT_DISTRACTORS = "situatedqa/data/raw_data/temp.train.jsonl"
OLD_DEFAULT = date(2000, 1, 1)
NEW_DEFAULT = date(2021, 6, 1)
POLICIES = ("answer", "name", "fact")
_MONTH_NAMES = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTHS = {m: i + 1 for i, m in enumerate(_MONTH_NAMES)}


# ------------------------------------------------------------------------------ loading


@dataclass(frozen=True)
class When:
    """A dataset date: its first and last day (a year spans the whole year)."""

    start: date
    end: date
    label: str


@dataclass
class Question:
    """One SituatedQA question as this benchmark uses it."""

    qid: str
    question: str
    changed: bool
    answers: list[str]  # the current answers
    old: list[str] = field(default_factory=list)
    old_dates: list[When] = field(default_factory=list)
    new_date: When | None = None
    pairs: list[tuple[When, str]] = field(default_factory=list)  # (date, "old" | "new")
    first_date: When | None = None  # the first context date, for unchanged questions


def parse_when(text: str) -> When | None:
    """Parse "2019" or "March 07, 2019" (SituatedQA's two date forms)."""
    s = text.strip().replace(",", " ")
    parts = s.split()
    try:
        if len(parts) == 1 and parts[0].isdigit():
            y = int(parts[0])
            return When(date(y, 1, 1), date(y, 12, 31), parts[0])
        if len(parts) == 3 and parts[0].lower() in _MONTHS:
            d = date(int(parts[2]), _MONTHS[parts[0].lower()], int(parts[1]))
            return When(d, d, d.isoformat())
    except ValueError:
        return None
    return None


def when_of(start: dict[str, Any] | None) -> When | None:
    """Turn a timeline's ``{"year", "month", "date"}`` into a When."""
    if not start or not isinstance(start.get("year"), int):
        return None
    y, m, d = start["year"], start.get("month"), start.get("date")
    try:
        if isinstance(m, int) and isinstance(d, int):
            day = date(y, m, d)
            return When(day, day, day.isoformat())
        return When(date(y, 1, 1), date(y, 12, 31), str(y))
    except ValueError:
        return None


def _matcher(strings: Sequence[str]) -> Matcher[str]:
    """Return a matcher over non-blank strings."""
    return Matcher((s, s) for s in strings if s and any(c.isalnum() for c in s))


def _clean(answers: Sequence[str] | None) -> list[str]:
    """Return stripped, de-duplicated, non-blank answers."""
    out: list[str] = []
    for a in answers or []:
        a = " ".join(str(a).split())
        if a and any(c.isalnum() for c in a) and a not in out and len(a) <= 200:
            out.append(a)
    return out


def load(path: Path, limit: int | None = None) -> list[Question]:
    """Load a ``raw_data/temp.<split>.jsonl`` file."""
    out: list[Question] = []
    with path.open() as fh:
        for line in fh:
            row = json.loads(line)
            current = _clean(row.get("cur_answers")) or _clean(row.get("nq_answers"))
            if not current:
                continue
            q = Question(str(row["id"]), " ".join(row["question"].split()), False, current)
            for pair in row.get("context_answer_pairs") or []:
                q.first_date = parse_when(pair.get("date", ""))
                if q.first_date is not None:
                    break
            for tl in row.get("timelines") or []:
                old, new = _clean(tl.get("prev_answers")), _clean(tl.get("cur_answers"))
                if not old or not new:
                    continue
                if _matcher(old).keys(" | ".join(new)) or _matcher(new).keys(" | ".join(old)):
                    continue  # the "change" shares an answer
                q.changed, q.old, q.answers = True, old, new
                q.new_date = when_of(tl.get("cur_start"))
                prev = when_of(tl.get("prev_start"))
                q.old_dates = [prev] if prev else []
                break
            if q.changed:
                old_m, new_m = _matcher(q.old), _matcher(q.answers)
                for pair in row.get("context_answer_pairs") or []:
                    when = parse_when(pair.get("date", ""))
                    text = " | ".join(_clean(pair.get("answers")))
                    if when is None or not text:
                        continue
                    is_old, is_new = bool(old_m.keys(text)), bool(new_m.keys(text))
                    if is_old != is_new:
                        q.pairs.append((when, "old" if is_old else "new"))
                        if is_old:
                            q.old_dates.append(when)
            out.append(q)
            if limit is not None and len(out) >= limit:
                break
    return out


# ------------------------------------------------------------------------------ records


def iso(d: date) -> str:
    """Return midnight UTC of ``d`` as ISO 8601."""
    return datetime(d.year, d.month, d.day, tzinfo=timezone.utc).isoformat()


def epoch(d: date, end: bool = False) -> float:
    """Return the epoch seconds of the start (or the last second) of a day."""
    t = datetime(d.year, d.month, d.day, tzinfo=timezone.utc).timestamp()
    return t + 86_399 if end else t


@dataclass
class Record:
    """One stored memory or correction."""

    id: str
    text: str
    when: date
    qid: str
    kind: str  # old-a | old-b | fact | distractor | correction
    deprecates: dict[str, list[str]] = field(default_factory=dict)  # policy -> strings

    def metadata(self, policy: str | None) -> dict[str, Any]:
        """Return the stored metadata (the same user keys in every collection)."""
        meta: dict[str, Any] = {
            "qid": self.qid,
            "kind": self.kind,
            "observed_at": iso(self.when),
            "ts": epoch(self.when),
        }
        if self.deprecates:
            meta["deprecates"] = self.deprecates[policy or "answer"]
        return meta


def _is_name(answer: str) -> bool:
    """Return whether an answer reads as a name rather than a number or a date."""
    return len(answer) >= 3 and any(c.isalpha() for c in answer) and parse_when(answer) is None


def build(questions: list[Question], distractors: list[Question]) -> tuple[list[Record], dict]:
    """Return every record and, per changed question, its dates for the as_of scores."""
    records: list[Record] = []
    plan: dict[str, dict[str, Any]] = {}
    for q in questions:
        if not q.changed:
            when = q.first_date
            label = f" (as of {when.label})" if when else ""
            records.append(
                Record(
                    f"{q.qid}:fact",
                    f"{q.question}? — {q.answers[0]}{label}.",
                    when.start if when else OLD_DEFAULT,
                    q.qid,
                    "fact",
                )
            )
            continue
        new_when = q.new_date
        change = new_when.start if new_when else NEW_DEFAULT
        olds = sorted({w for w in q.old_dates if w.start < change}, key=lambda w: w.start)
        if not olds:
            fallback = min(OLD_DEFAULT, date(change.year - 1, 1, 1))
            olds = [When(fallback, fallback, str(fallback.year))]
        old_text = " / ".join(q.old)
        first, last = olds[0], olds[-1]
        fragment = f"{q.question}? — {old_text}"
        records.append(
            Record(
                f"{q.qid}:old-a", f"{fragment} (as of {first.label}).", first.start, q.qid, "old-a"
            )
        )
        records.append(
            Record(
                f"{q.qid}:old-b",
                f'Noted in {last.label}: {old_text} is the answer to "{q.question}".',
                last.start,
                q.qid,
                "old-b",
            )
        )
        new_label = new_when.label if new_when else "now"
        records.append(
            Record(
                f"{q.qid}:fix",
                f'Update on "{fragment}": the answer is now {" / ".join(q.answers)} '
                f"(as of {new_label}).",
                change,
                q.qid,
                "correction",
                {
                    "answer": list(q.old),
                    "name": list(q.old) if all(_is_name(a) for a in q.old) else [fragment],
                    "fact": [fragment],
                },
            )
        )
        plan[q.qid] = {"dated": bool(new_when), "change": change, "first_old": first.start}
    for q in distractors:
        when = q.new_date or q.first_date
        label = f" (as of {when.label})" if when else ""
        records.append(
            Record(
                f"d{q.qid}:fact",
                f"{q.question}? — {q.answers[0]}{label}.",
                when.start if when else OLD_DEFAULT,
                f"d{q.qid}",
                "distractor",
            )
        )
    return records, plan


# ------------------------------------------------------------------------------ scoring


@dataclass
class Context:
    """What one recall put in front of the reader."""

    ids: list[str]
    docs: list[str]
    roles: list[str]
    now: list[list[str]]  # correction ids per hit
    now_docs: list[list[str]]


def from_recall(rec: nowline.Recall) -> Context:
    """Turn a nowline Recall into a Context."""
    return Context(
        [h.id for h in rec.hits],
        [h.document or "" for h in rec.hits],
        [h.role for h in rec.hits],
        [[c.id for c in h.now] for h in rec.hits],
        [[c.document for c in h.now] for h in rec.hits],
    )


def from_query(res: Any) -> Context:
    """Turn a bare chromadb QueryResult (one query) into a Context."""
    ids = res["ids"][0]
    return Context(
        ids, list(res["documents"][0]), ["current"] * len(ids), [[]] * len(ids), [[]] * len(ids)
    )


def presented(ctx: Context, m: Matcher[str], *, current_only: bool) -> bool:
    """Return whether an answer occurs in a hit (non-historical if asked) or a now-line."""
    for doc, role, nows in zip(ctx.docs, ctx.roles, ctx.now_docs, strict=True):
        if m.keys(doc) and not (current_only and role == "historical"):
            return True
        if any(m.keys(n) for n in nows):
            return True
    return False


def exposure(ctx: Context, qid: str) -> tuple[bool, bool]:
    """Return (strict, lenient) stale exposure of question ``qid`` in a context."""
    fix = f"{qid}:fix"
    olds = [i for i, rid in enumerate(ctx.ids) if rid in (f"{qid}:old-a", f"{qid}:old-b")]
    strict = any(fix not in ctx.now[i] for i in olds)
    seen = fix in ctx.ids or any(fix in n for n in ctx.now)
    return strict, bool(olds) and not seen


def unneeded(ctx: Context) -> bool:
    """Return whether a hit carries a now-line from a correction of another question."""
    for rid, nows in zip(ctx.ids, ctx.now, strict=True):
        owner, _, kind = rid.rpartition(":")
        needed = f"{owner}:fix" if kind.startswith("old") else None
        if any(c != needed for c in nows):
            return True
    return False


def _share(values: Sequence[bool]) -> float | None:
    """Return the share of true values (None for none)."""
    return sum(values) / len(values) if values else None


# --------------------------------------------------------------------------------- main


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Build the stores, ask every question, and score the contexts."""
    questions = load(args.data, args.limit)
    distractors = load(args.distractors, args.distractor_limit) if args.distractors else []
    records, plan = build(questions, distractors)
    changed = [q for q in questions if q.changed]
    others = [q for q in questions if not q.changed]

    if args.smoke:
        ef: Any = C.HashEmbedding()
        load_s, model = 0.0, "hash (smoke)"
    else:
        ef, load_s = C.real_model()
        model = "all-MiniLM-L6-v2"
    texts = [r.text for r in records]
    queries = sorted({q.question for q in questions})
    t0 = time.perf_counter()
    rec_vecs = C.embed_all(ef, texts, desc="embed memories")
    q_vecs = dict(zip(queries, C.embed_all(ef, queries, desc="embed questions"), strict=True))
    embed_s = time.perf_counter() - t0

    out: dict[str, Any] = {"refused": {}, "stores": {}}
    with tempfile.TemporaryDirectory(prefix="nowline-sqa-") as tmp:
        client = C.new_client(tmp)
        cols: dict[str, Any] = {"bare": C.new_collection(client, "bare")}
        for p in POLICIES:
            cols[p] = nowline.wrap(
                C.new_collection(client, f"nowline-{p}"),
                embedding_function=C.CachedEmbedding(q_vecs, ef),
            )
        plain = [i for i, r in enumerate(records) if not r.deprecates]
        fixes = sorted(
            (i for i, r in enumerate(records) if r.deprecates), key=lambda i: records[i].when
        )
        write_s: dict[str, float] = {}
        for name, col in cols.items():
            policy = None if name == "bare" else name
            start = time.perf_counter()
            for part in C.progress(list(C.chunks(plain, 1000)), desc=f"add {name}", unit="batch"):
                col.add(
                    ids=[records[i].id for i in part],
                    documents=[records[i].text for i in part],
                    metadatas=[records[i].metadata(policy) for i in part],
                    embeddings=rec_vecs[list(part)],
                )
            refused = []
            for i in C.progress(fixes, desc=f"corrections {name}", unit="fix"):
                r = records[i]
                meta = r.metadata(policy)
                if not isinstance(col, nowline.Collection):
                    col.add(
                        ids=[r.id], documents=[r.text], metadatas=[meta], embeddings=rec_vecs[[i]]
                    )
                    continue
                try:
                    col.correct(
                        r.text,
                        deprecates=meta.pop("deprecates"),
                        id=r.id,
                        metadata=meta,
                        allow_generic=True,  # the policies under test choose their strings
                    )
                except nowline.CorrectionTooBroad as exc:
                    refused.append(
                        {
                            "id": r.id,
                            "deprecates": r.deprecates[name],
                            "reach": exc.reach,
                            "limit": exc.limit,
                        }
                    )
            write_s[name] = time.perf_counter() - start
            if name != "bare":
                out["refused"][name] = refused
        out["write_s"] = write_s

        # Store-wide reach and collateral, from the stored links.
        for p in POLICIES:
            got = cols[p].raw.get(include=["metadatas"])
            stale_total = stale_linked = 0
            linked_by_kind: Counter[str] = Counter()
            total_by_kind: Counter[str] = Counter()
            hist_corrections = 0
            phrasing = {"old-a": [0, 0], "old-b": [0, 0]}
            for meta in got["metadatas"]:
                kind, qid = meta["kind"], meta["qid"]
                by = [b for b in meta.get("nowline_by") or []]
                if kind == "correction":
                    hist_corrections += bool(by)
                    continue
                own = f"{qid}:fix"
                if kind in phrasing:
                    stale_total += 1
                    phrasing[kind][1] += 1
                    if own in by:
                        stale_linked += 1
                        phrasing[kind][0] += 1
                total_by_kind[kind] += 1
                if any(b != own for b in by):
                    linked_by_kind[kind] += 1
            memories_total = sum(total_by_kind.values())
            collateral = sum(linked_by_kind.values())
            out["stores"][p] = {
                "stale_memories": stale_total,
                "stale_linked": stale_linked,
                "reach": stale_linked / stale_total if stale_total else None,
                "reach_by_phrasing": {
                    k: (v[0] / v[1] if v[1] else None) for k, v in phrasing.items()
                },
                "memories": memories_total,
                "collateral_memories": collateral,
                "collateral_share": collateral / memories_total if memories_total else None,
                "collateral_by_kind": {
                    k: {"linked": linked_by_kind[k], "total": total_by_kind[k]}
                    for k in sorted(total_by_kind)
                },
                "corrections_made_historical": hist_corrections,
                "refused_corrections": len(out["refused"][p]),
            }

        # Ask every question now, and the changed ones as of each dated answer.
        scores: dict[str, dict[str, Any]] = {}
        latency: dict[str, list[float]] = {n: [] for n in cols}
        examples: list[dict[str, Any]] = []
        for name, col in cols.items():
            ch_strict, ch_len, ch_cur, ch_old_cur, ch_old_wrong, all_unneeded = (
                [],
                [],
                [],
                [],
                [],
                [],
            )
            ot_ans, ot_wrong_now, ot_own_hist = [], [], []
            asof_ok, asof_ok_len, asof_old, asof_new = [], [], [], []
            for q in C.progress(questions, desc=f"ask {name}", unit="q"):
                start = time.perf_counter()
                ctx = _ask(col, name, q.question, q_vecs[q.question], None)
                latency[name].append(time.perf_counter() - start)
                new_m = _matcher(q.answers)
                all_unneeded.append(unneeded(ctx))
                if q.changed:
                    strict, lenient = exposure(ctx, q.qid)
                    ch_strict.append(strict)
                    ch_len.append(lenient)
                    ch_cur.append(presented(ctx, new_m, current_only=False))
                    ch_old_cur.append(
                        any(
                            rid.startswith(f"{q.qid}:old") and not ctx.now[i]
                            for i, rid in enumerate(ctx.ids)
                        )
                    )
                    ch_old_wrong.append(
                        any(
                            rid.startswith(f"{q.qid}:old")
                            and ctx.now[i]
                            and f"{q.qid}:fix" not in ctx.now[i]
                            for i, rid in enumerate(ctx.ids)
                        )
                    )
                    mine = [e for e in examples if e["store"] == name]
                    if name != "bare" and len(mine) < 2 and any(ctx.now):
                        examples.append(
                            {"store": name, "question": q.question, "rendered": _render(col, q)}
                        )
                else:
                    ot_ans.append(presented(ctx, new_m, current_only=False))
                    ot_wrong_now.append(unneeded(ctx))
                    ot_own_hist.append(
                        any(rid == f"{q.qid}:fact" and ctx.now[i] for i, rid in enumerate(ctx.ids))
                    )
            for q in changed:
                info = plan[q.qid]
                if not info["dated"]:
                    continue
                old_m, new_m = _matcher(q.old), _matcher(q.answers)
                for when, expected in q.pairs:
                    if when.end < info["first_old"]:
                        continue  # nothing about the question was stored yet
                    as_of = epoch(when.end, end=True)
                    ctx = _ask(col, name, q.question, q_vecs[q.question], as_of)
                    fix_seen = f"{q.qid}:fix" in ctx.ids or any(
                        f"{q.qid}:fix" in n for n in ctx.now
                    )
                    if expected == "old":
                        own_flagged = any(
                            rid.startswith(f"{q.qid}:old") and ctx.now[i]
                            for i, rid in enumerate(ctx.ids)
                        )
                        ok = (
                            presented(ctx, old_m, current_only=True)
                            and not fix_seen
                            and not own_flagged
                        )
                        asof_old.append(ok)
                        ok_len = ok
                    else:
                        strict, lenient = exposure(ctx, q.qid)
                        has_new = presented(ctx, new_m, current_only=False)
                        ok = has_new and not strict
                        ok_len = has_new and not lenient
                        asof_new.append(ok)
                    asof_ok.append(ok)
                    asof_ok_len.append(ok_len)
            scores[name] = {
                "changed": {
                    "questions": len(ch_strict),
                    "stale_exposure_strict": _share(ch_strict),
                    "stale_exposure_lenient": _share(ch_len),
                    "current_fact_presence": _share(ch_cur),
                    "old_fact_unannotated": _share(ch_old_cur),
                    "old_fact_only_other_corrections": _share(ch_old_wrong),
                },
                "unchanged": {
                    "questions": len(ot_ans),
                    "answer_presence": _share(ot_ans),
                    "contexts_with_unneeded_now_line": _share(ot_wrong_now),
                    "own_fact_marked_historical": _share(ot_own_hist),
                },
                "all_questions": {
                    "questions": len(all_unneeded),
                    "contexts_with_unneeded_now_line": _share(all_unneeded),
                },
                "as_of": {
                    "contexts": len(asof_ok),
                    "correct_strict": _share(asof_ok),
                    "correct_lenient": _share(asof_ok_len),
                    "before_change": {"contexts": len(asof_old), "correct": _share(asof_old)},
                    "after_change": {"contexts": len(asof_new), "correct_strict": _share(asof_new)},
                },
            }
        out["scores"] = scores
        out["examples"] = examples
        out["recall_latency"] = {n: C.summarize(v) for n, v in latency.items()}
    out["dataset"] = {
        "data": str(args.data),
        "distractors": str(args.distractors) if args.distractors else None,
        "questions": len(questions),
        "changed": len(changed),
        "changed_dated": sum(1 for p in plan.values() if p["dated"]),
        "unchanged": len(others),
        "distractor_questions": len(distractors),
        "records": len(records),
        "as_of_pairs": sum(len(q.pairs) for q in changed if plan[q.qid]["dated"]),
    }
    out["model"] = {
        "name": model,
        "load_s": load_s,
        "embed_s": embed_s,
        "texts": len(texts) + len(queries),
    }
    return out


def _ask(col: Any, name: str, text: str, vec: Any, as_of: float | None) -> Context:
    """Recall ``text`` from one collection (bare: a query with the same vector and filter)."""
    if name == "bare":
        where = {"ts": {"$lte": as_of}} if as_of is not None else None
        return from_query(
            col.query(query_embeddings=[vec], n_results=K, where=where, include=["documents"])
        )
    return from_recall(col.recall(text, n_results=K, as_of=as_of))


def _render(col: Any, q: Question) -> str:
    """Return the rendered context block for a question."""
    return col.recall(q.question, n_results=K).render()


def _pct(v: float | None) -> str:
    """Format a share as a percentage."""
    return "–" if v is None else f"{100 * v:.1f}%"


def markdown(data: dict[str, Any]) -> str:
    """Return the markdown summary."""
    s, ds = data["scores"], data["dataset"]
    names = ["bare", *POLICIES]
    label = {
        "bare": "bare Chroma",
        "answer": "nowline, deprecates=[old answer]",
        "name": "nowline, deprecates=[old answer if a name, else fact fragment]",
        "fact": "nowline, deprecates=[old fact fragment]",
    }
    rows = []
    for n in names:
        ch, un, ao = s[n]["changed"], s[n]["unchanged"], s[n]["as_of"]
        st = data["stores"].get(n)
        rows.append(
            [
                label[n],
                _pct(ch["stale_exposure_strict"]),
                f"{_pct(ch['old_fact_unannotated'])} / "
                f"{_pct(ch['old_fact_only_other_corrections'])}",
                _pct(ch["stale_exposure_lenient"]),
                _pct(ch["current_fact_presence"]),
                _pct(st["reach"]) if st else "–",
                f"{_pct(st['collateral_share'])} ({st['collateral_memories']})" if st else "–",
                _pct(un["contexts_with_unneeded_now_line"]),
                _pct(un["answer_presence"]),
                f"{_pct(ao['correct_strict'])} / {_pct(ao['correct_lenient'])}",
            ]
        )
    table = C.md_table(
        [
            "store",
            "stale exposure (strict)",
            "…old fact with no now-line / with only other questions' corrections",
            "stale exposure (lenient)",
            "current fact present",
            "old facts linked (reach)",
            "collateral memories",
            "unchanged Qs: contexts with unneeded now-line",
            "unchanged Qs: answer present",
            "as_of correct (strict / lenient)",
        ],
        rows,
    )
    prow = []
    for p in POLICIES:
        st = data["stores"][p]
        kinds = st["collateral_by_kind"]
        prow.append(
            [
                label[p],
                _pct(st["reach_by_phrasing"]["old-a"]),
                _pct(st["reach_by_phrasing"]["old-b"]),
                ", ".join(f"{k}: {v['linked']}/{v['total']}" for k, v in kinds.items()),
                st["corrections_made_historical"],
                st["refused_corrections"],
            ]
        )
    ptable = C.md_table(
        [
            "policy",
            'reach, phrasing "<q>? — <old>"',
            'reach, phrasing "Noted in …: <old> is the answer to …"',
            "collateral by memory kind (linked/total)",
            "corrections made historical by another question's correction",
            "corrections refused as too broad",
        ],
        prow,
    )
    arow = []
    for n in names:
        ao = s[n]["as_of"]
        arow.append(
            [
                label[n],
                f"{_pct(ao['before_change']['correct'])} of {ao['before_change']['contexts']}",
                f"{_pct(ao['after_change']['correct_strict'])} of {ao['after_change']['contexts']}",
            ]
        )
    atable = C.md_table(
        [
            "store",
            "as_of before the change: old answer current, no correction shown",
            "as_of after the change: new answer, no unannotated old fact",
        ],
        arow,
    )
    lat = data["recall_latency"]
    ex = "\n\n".join(
        f"{label[e['store']]} — Q: {e['question']}?\n```\n{e['rendered']}\n```"
        for e in data["examples"]
    )
    return (
        C.run_header(
            "SituatedQA stale facts: bare Chroma vs nowline",
            data["machine"],
            data["command"],
            data["seconds"],
        )
        + f"\nData: {ds['questions']:,} questions of `{Path(ds['data']).name}` "
        f"({ds['changed']} changed, {ds['changed_dated']} of them with a change date; "
        f"{ds['unchanged']} unchanged), plus {ds['distractor_questions']:,} distractor facts; "
        f"{ds['records']:,} records in one store per collection; {ds['as_of_pairs']} dated "
        f"as_of pairs. Embeddings: {data['model']['name']}. Top k = {K}.\n\n"
        + table
        + "\n\n## Reach and precision of the deprecation policies\n\n"
        + ptable
        + "\n\n## as_of\n\n"
        + atable
        + "\n\nrecall latency p50: "
        + ", ".join(f"{label[n]} {C.fmt_s(lat[n]['p50'])}" for n in names)
        + ".\n"
        + "\n![policies](situatedqa.png)\n"
        + ("\n## Examples\n\n" + ex + "\n" if ex else "")
    )


def plot(data: dict[str, Any], path: Path) -> None:
    """Draw the main shares per store as grouped bars (the reach/precision trade-off)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["bare", *POLICIES]
    short = {
        "bare": "bare Chroma",
        "answer": "old answer",
        "name": "answer if a name",
        "fact": "fact fragment",
    }
    series = [
        (
            "stale exposure (strict)",
            lambda n: data["scores"][n]["changed"]["stale_exposure_strict"],
        ),
        (
            "stale exposure (lenient)",
            lambda n: data["scores"][n]["changed"]["stale_exposure_lenient"],
        ),
        (
            "old facts linked (reach)",
            lambda n: data["stores"][n]["reach"] if n in data["stores"] else 0.0,
        ),
        (
            "collateral memories",
            lambda n: data["stores"][n]["collateral_share"] if n in data["stores"] else 0.0,
        ),
        ("as_of correct (strict)", lambda n: data["scores"][n]["as_of"]["correct_strict"]),
    ]
    fig, ax = plt.subplots(figsize=(11, 4))
    width = 0.8 / len(series)
    for j, (label, fn) in enumerate(series):
        xs = [i + (j - (len(series) - 1) / 2) * width for i in range(len(names))]
        ax.bar(xs, [100 * (fn(n) or 0.0) for n in names], width, label=label)
    ax.set_xticks(range(len(names)), [short[n] for n in names])
    ax.set_ylabel("% (of contexts or memories)")
    ax.set_ylim(0, 105)
    ax.set_title(
        f"SituatedQA {Path(data['dataset']['data']).name}: deprecation policies "
        f"(top {data['config']['k']}, {data['model']['name']})"
    )
    ax.legend(fontsize=8, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    C.add_common_args(parser, seed=SEED)
    parser.add_argument(
        "--data",
        type=Path,
        default=C.default_data(DEFAULT_DATA),
        help="a raw_data/temp.<split>.jsonl file (default: the dev split)",
    )
    parser.add_argument(
        "--distractors",
        type=Path,
        default=None,
        help="another split whose facts are stored but never asked, e.g. "
        f"../shared/data/{DEFAULT_DISTRACTORS} (default: none)",
    )
    parser.add_argument("--limit", type=int, default=None, help="questions to load (all)")
    parser.add_argument(
        "--distractor-limit", type=int, default=None, help="distractor questions to load (all)"
    )
    args = parser.parse_args(argv)
    if args.data is None or not Path(args.data).exists():
        parser.error("SituatedQA not found; pass --data .../raw_data/temp.dev.jsonl")
    if args.distractors is not None and str(args.distractors) in ("", "."):
        args.distractors = None
    if args.smoke:
        args.limit = args.limit or 60
    info = C.machine_info()
    start = time.perf_counter()
    result = run(args)
    data = {
        "benchmark": "situatedqa",
        "command": C.command_line(),
        "seconds": time.perf_counter() - start,
        "machine": info,
        "config": {
            "k": K,
            "seed": args.seed,
            "smoke": args.smoke,
            "limit": args.limit,
            "distractor_limit": args.distractor_limit,
            "policies": list(POLICIES),
        },
        **result,
    }
    C.write_report(args.out, "situatedqa", data, markdown(data))
    plot(data, args.out / "situatedqa.png")
    print(f"wrote {args.out / 'situatedqa.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
