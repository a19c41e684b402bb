"""Stale-fact benchmark on SituatedQA's temporal split: bare Chroma vs nowline.

Run ``.venv/bin/python bench/situatedqa.py`` (dev split, real MiniLM model, 10 to 30 minutes
on 2 busy cores) or ``--smoke`` (a few questions, a cheap hash embedding; seconds). ``--data``
takes any split's ``raw_data/temp.<split>.jsonl``; ``--distractors`` optionally adds another
split's facts, stored but never asked. Writes ``situatedqa.json``, ``.md`` and ``.png`` to
``--out`` for the dev split, ``situatedqa.<split>.*`` for another one.

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

Five collections hold the same records with the same embeddings (the real
all-MiniLM-L6-v2 model, computed once): bare chromadb, and nowline under four deprecation
policies, i.e. four choices of the correction's ``deprecates`` (and ``about``):

* ``answer``: the bare old answer string(s), e.g. ``["1990"]``: reaches every phrasing of the
  old fact, and every unrelated memory that happens to contain "1990" (including the
  "(as of 1990)" date of another fact). Written with ``allow_generic=True``: most old answers
  are common words, names made of common words, or numbers, which nowline refuses otherwise;
* ``fact``: the old fact's sentence fragment ``"<q>? — <old>"``: reaches only memories that
  use that phrasing (so it misses the second phrasing above), and nothing unrelated. Also
  ``allow_generic=True``: nowline's frequency rule calls a third of these whole fragments
  "a phrase of common words" (counted in the report);
* ``name``: the bare old answer when it reads as a name (it has a letter and at least 3
  characters: "Ray Romano", "Mortal Kombat X"), else (years, counts, dates) the fact fragment:
  the rule of thumb "deprecate identifiers, not bare numbers". ``allow_generic=True``;
* ``anchored``: what the guidance tells a model (``nowline.surfaces.prompts``, the ``about`` field):
  ``deprecates`` is the old answer; when nowline calls it generic
  (``nowline.validate_correction`` raises ``GenericString``), ``about`` is the subject it
  belongs to, chosen from the question by a fixed rule (:func:`anchor_of`: the run of content
  words holding the question's rarest word), else no anchor. No ``allow_generic``: nowline's
  default guards apply, and a refused correction counts as unreached.

Scores (top k = 5 per question; answers are matched in text with nowline's own matcher, i.e.
case- and Unicode-insensitive, token-bounded). A hit's *lines* are the corrections shown
beneath it (DESIGN.md §5): every direct one whose chain moved on, as ``superseded
correction:``, then the newest of each chain, as ``now:``.

* stale exposure: share of a changed question's contexts in which one of its old-fact
  memories appears without its own correction. Strict: not among the lines beneath it (a
  bare store never gives one); also over contexts with an old fact the policy reached (its
  own correction is linked to it), where it must be 0. Lenient: the correction is nowhere in
  the context either (not even as a separate hit). Split by cause: no line at all / only
  other questions' lines. Reported next to it: the share where the own correction is not
  among the ``now:`` lines (it shows as superseded above another chain's newest), i.e. what a
  reader would have seen with "newest instead of direct"; and the share where the now-lines
  beneath an old fact (what it marks as current) do not name the question's current answer.
* lines per stale hit: over the asked question's historical old-fact hits, the mean number
  of ``now:`` lines and of all lines (the reading cost the lines add).
* current-fact presence: share of contexts that contain the current answer, as a hit or in a
  now-line.
* reach: share of old-fact memories linked to their own question's correction (store-wide).
* collateral: share of memories that do not belong to a correction's question but were
  linked to it (store-wide, from the stored links); counted strictly, every such memory. A
  second count leaves out the old facts of a question that changed from the same old answers
  to the same new ones (a paraphrase of the linking question: its now-line tells the truth);
  both are reported, the strict one is the headline. The second count is also broken down
  by cause (:data:`CAUSES`, :func:`collateral_cause`: the old answer named only in a date,
  no anchor, named in another question, or the answer to another question on the anchor or
  to a near-paraphrase). Also the share of unchanged questions' contexts in which a line
  appears that the question did not need.
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
another question; the old fact then shows its own correction as superseded and that chain's
newest as its now-line. Every old fact quotes its question verbatim, so any span of the
question (the anchored policy's ``about``) occurs in both phrasings: the bench cannot show an
anchor missing a paraphrased memory, which real notes would. The memories are templated
from QA pairs, not an agent's real notes, and the queries are the dataset's questions
verbatim, so the correction (which quotes the question) is often retrieved next to the old
fact; that is why lenient exposure is low even for bare Chroma, and why the strict score is
the one that shows what the reader is told about each old fact. Year-only dates are ambiguous
around a change (``as of 2019`` for a change in April 2019 is taken as the end of 2019).
Retrieval quality itself is measured by ``locomo.py``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
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
POLICIES = ("answer", "name", "fact", "anchored", "subject")
# Policies written with allow_generic=True: "answer" and "name" deprecate common words and
# numbers on purpose (that is what they measure); "fact" deprecates a whole question fragment,
# which nowline's frequency rule calls common for a third of SituatedQA's questions (a phrase
# of common words; the count is reported), and the policy is kept as the no-collateral baseline.
GENERIC_ALLOWED = frozenset({"answer", "name", "fact"})
# Closed-class English words (wh-words and their contractions, auxiliaries and modals,
# determiners, pronouns, prepositions, conjunctions, negation): never part of an anchor.
_FUNCTION_WORDS_TEXT = """
what when where who whom whose which why how what's when's where's who's how's why's whats
is are was were be been being am do does did done doing has have had having
will would shall should can could may might must isn't aren't wasn't weren't don't
doesn't didn't hasn't haven't hadn't
a an the this that these those some any each every all both either neither another such
i me my mine myself you your yours he him his she her hers it its itself we us our ours
they them their theirs themselves
of in on at to for from by with about as into onto over under between through during
before after since until till than up down out off per via upon within without against
among across along around behind beyond near toward towards
and or but nor so if then whether while because there here not no
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())
_RUN_END = ",;:?!"
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
    about: dict[str, list[str]] = field(default_factory=dict)  # policy -> anchors (if any)
    # A memory's question, answer and date as its text writes them (for collateral causes).
    parts: tuple[str, str, str] = ("", "", "")

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


def anchor_of(question: str) -> str | None:
    """Return the anchor the ``anchored`` policy gives a question's correction (None: none).

    The rule, the same for every question: split the question at whitespace, trim each word's
    leading and trailing punctuation, and cut it into runs of consecutive content words (words
    outside :data:`FUNCTION_WORDS`; ``, ; : ? !`` after a word also ends a run). The anchor is
    the run that holds the question's rarest content word (lowest English Zipf frequency in
    wordfreq, the library nowline's generic rule uses; the first on ties), as it is written in
    the question. So "how many championships does the chicago bulls have" gives "chicago
    bulls", "who is the highest paid sitcom actor of all time" gives "highest paid sitcom
    actor". It stands for what a model told "anchor a common string to the subject it
    belongs to" picks from the fact: the phrase that names what the fact is about.
    """
    from wordfreq import zipf_frequency

    runs: list[list[tuple[int, int, str]]] = [[]]
    for m in re.finditer(r"\S+", question):
        start, end = m.start(), m.end()
        while start < end and not question[start].isalnum():
            start += 1
        while end > start and not question[end - 1].isalnum():
            end -= 1
        word = question[start:end].replace("\u2019", "'")
        if not word or word.casefold() in FUNCTION_WORDS:
            runs.append([])
            continue
        if question[m.start()] in "([{\"'\u201c\u2018":
            runs.append([])
        runs[-1].append((start, end, word))
        if question[m.end() - 1] in _RUN_END:
            runs.append([])
    runs = [r for r in runs if r]
    if not runs:
        return None
    ranked = [(zipf_frequency(w, "en"), i) for i, run in enumerate(runs) for _s, _e, w in run]
    best = runs[min(ranked)[1]]
    return question[best[0][0] : best[-1][1]]


# Words of a question that frame what is asked (when, the most, won, last, new...) rather than
# name the thing it is about: a writer's anchor leaves them out, as it leaves out function words.
_FRAME_WORDS_TEXT = """
last first next new newest latest recent recently current currently previous ever now today
year years time times day date season seasons episode episodes part number many much
most more least highest lowest largest biggest longest oldest youngest best worst top greatest
fastest richest all-time record records total career history
won win wins winning winner winners made make makes come comes coming came go goes going went
play played plays playing held hold hosted host beat pick picked release released
start starts started end ends air aired run running die died become became elected lead leads
leading scored score take took taken finish finished qualify qualified appear appeared reach
reached sign signed named name called live located give gave given out
"""
FRAME_WORDS = frozenset(_FRAME_WORDS_TEXT.split())


def subject_of(question: str, old: Sequence[str]) -> str | None:
    """Return the subject a writer anchors a question's correction to (None: none found).

    The question's runs of content words (as :func:`anchor_of` cuts them), cut also at the
    words that frame the question rather than name its subject (:data:`FRAME_WORDS`: "last",
    "most", "won", "season"...), and without any run that is part of an old answer or holds
    one (an anchor inside the deprecated string narrows nothing). Of the rest, the run with the
    rarest word (wordfreq), as the question writes it: "when did michigan last win a national
    championship" gives "michigan", "how many championships does the chicago bulls have" gives
    "chicago bulls", "who won the latest version of android" gives "version", since "android"
    is part of the old answer "Android 10". It stands for what a writer names in ``about``:
    the thing the fact is about, as it is named.
    """
    from wordfreq import zipf_frequency

    olds = [o.casefold() for o in old]
    runs: list[list[tuple[int, int, str]]] = [[]]
    for m in re.finditer(r"\S+", question):
        start, end = m.start(), m.end()
        while start < end and not question[start].isalnum():
            start += 1
        while end > start and not question[end - 1].isalnum():
            end -= 1
        word = question[start:end].replace("\u2019", "'")
        folded = word.casefold()
        if not word or folded in FUNCTION_WORDS or folded in FRAME_WORDS or folded.isdigit():
            runs.append([])
            continue
        if question[m.start()] in "([{\"'\u201c\u2018":
            runs.append([])
        runs[-1].append((start, end, word))
        if question[m.end() - 1] in _RUN_END:
            runs.append([])
    kept = []
    for run in runs:
        if not run:
            continue
        text = question[run[0][0] : run[-1][1]].casefold()
        if any(text in o or o in text for o in olds):
            continue
        kept.append(run)
    if not kept:
        return None
    ranked = [(zipf_frequency(w, "en"), i) for i, run in enumerate(kept) for _s, _e, w in run]
    best = kept[min(ranked)[1]]
    return question[best[0][0] : best[-1][1]]


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
                    parts=(q.question, q.answers[0], when.label if when else ""),
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
                f"{q.qid}:old-a",
                f"{fragment} (as of {first.label}).",
                first.start,
                q.qid,
                "old-a",
                parts=(q.question, old_text, first.label),
            )
        )
        records.append(
            Record(
                f"{q.qid}:old-b",
                f'Noted in {last.label}: {old_text} is the answer to "{q.question}".',
                last.start,
                q.qid,
                "old-b",
                parts=(q.question, old_text, last.label),
            )
        )
        new_label = new_when.label if new_when else "now"
        fix_text = (
            f'Update on "{fragment}": the answer is now {" / ".join(q.answers)} '
            f"(as of {new_label})."
        )
        anchor, generic, fragment_generic = None, False, False
        subject = subject_of(q.question, q.old)
        try:
            nowline.validate_correction(fix_text, q.old)
        except (nowline.GenericString, nowline.PersonName):  # anchor it to its subject
            generic = True
            anchor = anchor_of(q.question)
        except nowline.InvalidCorrection:
            pass  # refused for another reason: the policies that write it record the refusal
        try:
            nowline.validate_correction(fix_text, [fragment])
        except nowline.GenericString:
            fragment_generic = True
        except nowline.InvalidCorrection:
            pass  # e.g. too long: the policies that use it record the refusal
        records.append(
            Record(
                f"{q.qid}:fix",
                fix_text,
                change,
                q.qid,
                "correction",
                {
                    "answer": list(q.old),
                    "name": list(q.old) if all(_is_name(a) for a in q.old) else [fragment],
                    "fact": [fragment],
                    "anchored": list(q.old),
                    "subject": list(q.old),
                },
                {
                    **({"anchored": [anchor]} if anchor else {}),
                    **({"subject": [subject]} if subject else {}),
                },
            )
        )
        plan[q.qid] = {
            "subject": subject,
            "dated": bool(new_when),
            "change": change,
            "first_old": first.start,
            "generic": generic,
            "fragment_generic": fragment_generic,
            "anchor": anchor,
            "anchor_in": {
                kind: bool(anchor and _matcher([anchor]).keys(r.text))
                for kind, r in zip(("old-a", "old-b", "correction"), records[-3:], strict=True)
            },
        }
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
                parts=(q.question, q.answers[0], when.label if when else ""),
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
    now: list[list[str]]  # per hit, the newest corrections' ids: its ``now:`` lines
    now_docs: list[list[str]]
    shown: list[list[str]]  # per hit, every correction shown beneath it (superseded, then now)


def from_recall(rec: nowline.Recall) -> Context:
    """Turn a nowline Recall into a Context."""
    shown = []
    for h in rec.hits:
        newest = [c.id for c in h.now]
        shown.append([c.id for c in h.direct if c.id not in newest] + newest)
    return Context(
        [h.id for h in rec.hits],
        [h.document or "" for h in rec.hits],
        [h.role for h in rec.hits],
        [[c.id for c in h.now] for h in rec.hits],
        [[c.document for c in h.now] for h in rec.hits],
        shown,
    )


def from_query(res: Any) -> Context:
    """Turn a bare chromadb QueryResult (one query) into a Context."""
    ids = res["ids"][0]
    none: list[list[str]] = [[] for _ in ids]
    return Context(ids, list(res["documents"][0]), ["current"] * len(ids), none, none, none)


def presented(ctx: Context, m: Matcher[str], *, current_only: bool) -> bool:
    """Return whether an answer occurs in a hit (non-historical if asked) or a now-line."""
    for doc, role, nows in zip(ctx.docs, ctx.roles, ctx.now_docs, strict=True):
        if m.keys(doc) and not (current_only and role == "historical"):
            return True
        if any(m.keys(n) for n in nows):
            return True
    return False


def old_hits(ctx: Context, qid: str, only: set[str] | None = None) -> list[int]:
    """Return the positions of question ``qid``'s old-fact hits (only those in ``only``)."""
    mine = (f"{qid}:old-a", f"{qid}:old-b")
    return [i for i, rid in enumerate(ctx.ids) if rid in mine and (only is None or rid in only)]


def fix_of(qid: str, told_as: Mapping[str, str] | None = None) -> str:
    """Return the id of question ``qid``'s own correction.

    Its own record, or, where ``correct()`` answered it with a correction already stored (a
    repeat: a paraphrase of another question with the same strings, anchors and new values),
    that one (``told_as``: a correction's id -> the stored one that tells its change).
    """
    fix = f"{qid}:fix"
    return (told_as or {}).get(fix, fix)


def exposure(ctx: Context, qid: str, told_as: Mapping[str, str] | None = None) -> tuple[bool, bool]:
    """Return (strict, lenient) stale exposure of question ``qid`` in a context.

    Strict: an old fact of the question is shown without the question's own correction among
    the lines beneath it (a superseded or a now-line). Lenient: an old fact is shown and the
    own correction is nowhere in the context (not a hit, not a line).
    """
    fix = fix_of(qid, told_as)
    olds = old_hits(ctx, qid)
    strict = any(fix not in ctx.shown[i] for i in olds)
    seen = fix in ctx.ids or any(fix in n for n in ctx.shown)
    return strict, bool(olds) and not seen


def unneeded(ctx: Context, told_as: Mapping[str, str] | None = None) -> bool:
    """Return whether a hit carries a line from a correction of another question."""
    for rid, shown in zip(ctx.ids, ctx.shown, strict=True):
        owner, _, kind = rid.rpartition(":")
        needed = fix_of(owner, told_as) if kind.startswith("old") else None
        if any(c != needed for c in shown):
            return True
    return False


def _link_class(
    change_of: dict[str, tuple[frozenset[str], frozenset[str]]], qid: str, foreign: list[str]
) -> str:
    """Classify a memory's links to other questions' corrections (the worst one counts).

    ``same change``: every such question changed from the same old answers to the same new
    ones as the memory's own question (a paraphrase: the now-line tells its reader the truth);
    ``same old answer``: the old answers agree but the new ones differ for at least one;
    ``other``: at least one shares no change with the memory's question (an unchanged
    question's fact, or a different old answer that merely co-occurs with the anchor).
    """
    mine = change_of.get(qid)
    classes = set()
    for other in foreign:
        theirs = change_of.get(other)
        if mine is None or theirs is None or mine[0] != theirs[0]:
            classes.add("other")
        elif mine[1] != theirs[1]:
            classes.add("same old answer")
        else:
            classes.add("same change")
    for c in ("other", "same old answer", "same change"):
        if c in classes:
            return c
    return "other"


# Causes of a collateral link (one that is not a same-change paraphrase), in the order a
# memory with several such links is counted by (its first cause in this order).
CAUSES = {
    "date": "the old answer is named only in the memory's date (a year in its as-of date)",
    "no anchor": "the correction holds no anchor (none found, or nowline dropped it beside an "
    "old answer it reads as an identifier: 49ers, Abdul-Jabbar)",
    "in question": "the old answer is named in the memory's question, which names the anchor",
    "same value": "the old answer is the memory's answer to another question on the anchor",
    "paraphrase": "the old answer is the memory's answer to a near-paraphrase (the questions "
    "share at least half their content words) with another change",
    "other": "none of the above",
}
# Content-word overlap (Jaccard, function and frame words left out) from which two questions
# count as near-paraphrases.
PARAPHRASE_OVERLAP = 0.5


def _content_words(question: str) -> set[str]:
    """Return a question's words outside :data:`FUNCTION_WORDS` and :data:`FRAME_WORDS`."""
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)*", question.casefold().replace("\u2019", "'"))
    return {w for w in words if w not in FUNCTION_WORDS and w not in FRAME_WORDS}


def collateral_cause(
    memory: Record, deprecates: Sequence[str], about: Sequence[str], question: str
) -> str:
    """Return why a memory of another question is linked to a correction (a key of CAUSES).

    ``deprecates`` and ``about`` are the correction's strings and anchors as nowline stored
    them (an anchor it dropped is not among them); ``question`` is the correction's question.
    Where the deprecated string occurs in the memory decides: only in its date (``date``); in
    its question (``in question``); in its answer, by how many content words the two
    questions share (``paraphrase`` from :data:`PARAPHRASE_OVERLAP` on, else ``same
    value``). A correction without an anchor counts as ``no anchor`` unless the date explains
    the link.
    """
    asked, answer, when = memory.parts
    strings = _matcher(deprecates)
    named = [bool(strings.keys(part)) for part in (asked, answer, when)]
    if named == [False, False, True]:
        return "date"
    if not about:
        return "no anchor"
    if named[1]:
        mine, theirs = _content_words(asked), _content_words(question)
        union = mine | theirs
        overlap = len(mine & theirs) / len(union) if union else 0.0
        return "paraphrase" if overlap >= PARAPHRASE_OVERLAP else "same value"
    if named[0]:
        return "in question"
    return "other"


def _share(values: Sequence[bool]) -> float | None:
    """Return the share of true values (None for none)."""
    return sum(values) / len(values) if values else None


def _mean(values: Sequence[int]) -> float | None:
    """Return the mean (None for none)."""
    return sum(values) / len(values) if values else None


# --------------------------------------------------------------------------------- main


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Build the stores, ask every question, and score the contexts."""
    questions = load(args.data, args.limit)
    distractors = load(args.distractors, args.distractor_limit) if args.distractors else []
    records, plan = build(questions, distractors)
    changed = [q for q in questions if q.changed]
    others = [q for q in questions if not q.changed]

    if args.smoke or args.links_only:
        ef: Any = C.HashEmbedding()
        load_s, model = (
            0.0,
            "hash (links only: no question is asked)" if args.links_only else "hash (smoke)",
        )
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
        for p in args.policies:
            cols[p] = nowline.wrap(
                C.new_collection(client, f"nowline-{p}"),
                embedding_function=C.CachedEmbedding(q_vecs, ef),
            )
        plain = [i for i, r in enumerate(records) if not r.deprecates]
        fixes = sorted(
            (i for i, r in enumerate(records) if r.deprecates), key=lambda i: records[i].when
        )
        write_s: dict[str, float] = {}
        told_as: dict[str, dict[str, str]] = {name: {} for name in cols}
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
                    report = col.correct(
                        r.text,
                        deprecates=meta.pop("deprecates"),
                        about=r.about.get(name) or None,
                        id=r.id,
                        metadata=meta,
                        allow_generic=name in GENERIC_ALLOWED,
                    )
                    if not report.stored:  # a repeat: the stored one tells this change
                        told_as[name][r.id] = report.id
                except nowline.CorrectionTooBroad as exc:
                    refused.append(
                        {
                            "id": r.id,
                            "deprecates": r.deprecates[name],
                            "reason": "too broad",
                            "reach": exc.reach,
                            "limit": exc.limit,
                        }
                    )
                except nowline.InvalidCorrection as exc:
                    kind = getattr(exc, "kind", None)
                    refused.append(
                        {
                            "id": r.id,
                            "deprecates": r.deprecates[name],
                            "about": r.about.get(name, []),
                            "reason": type(exc).__name__ + (f" ({kind})" if kind else ""),
                            "detail": getattr(exc, "reason", None),
                            "message": str(exc)[:400],
                        }
                    )
            write_s[name] = time.perf_counter() - start
            if name != "bare":
                out["refused"][name] = refused
        out["write_s"] = write_s
        out["repeats"] = {name: len(found) for name, found in told_as.items() if name != "bare"}

        # Store-wide reach and collateral, from the stored links (read around the wrapper,
        # which hides its own keys).
        change_of = {
            q.qid: (
                frozenset(a.casefold() for a in q.old),
                frozenset(a.casefold() for a in q.answers),
            )
            for q in changed
        }
        reached: dict[str, set[str]] = {"bare": set()}
        record_of = {r.id: r for r in records}
        question_of = {q.qid: q.question for q in questions}
        for p in args.policies:
            got = cols[p].raw.get(include=["metadatas"])
            stored = {  # each correction's strings and anchors as nowline stored them
                rid: (list(meta.get("deprecates") or []), list(meta.get("about") or []))
                for rid, meta in zip(got["ids"], got["metadatas"], strict=True)
                if meta["kind"] == "correction"
            }
            cause_memories: Counter[str] = Counter()
            cause_links: Counter[str] = Counter()
            cause_examples: dict[str, list[dict[str, Any]]] = {}
            stale_total = stale_linked = 0
            linked_by_kind: Counter[str] = Counter()
            total_by_kind: Counter[str] = Counter()
            link_class: Counter[str] = Counter()
            hist_corrections = 0
            phrasing = {"old-a": [0, 0], "old-b": [0, 0]}
            reached[p] = set()
            for rid, meta in zip(got["ids"], got["metadatas"], strict=True):
                kind, qid = meta["kind"], meta["qid"]
                by = [b for b in meta.get("nowline_by") or []]
                if kind == "correction":
                    hist_corrections += bool(by)
                    continue
                own = fix_of(qid, told_as[p])
                if kind in phrasing:
                    stale_total += 1
                    phrasing[kind][1] += 1
                    if own in by:
                        stale_linked += 1
                        phrasing[kind][0] += 1
                        reached[p].add(rid)
                total_by_kind[kind] += 1
                foreign = [b.rpartition(":")[0] for b in by if b != own]
                if foreign:
                    linked_by_kind[kind] += 1
                    link_class[_link_class(change_of, qid, foreign)] += 1
                causes = []
                for other in foreign:
                    if _link_class(change_of, qid, [other]) == "same change":
                        continue
                    strings, anchors = stored[f"{other}:fix"]
                    cause = collateral_cause(record_of[rid], strings, anchors, question_of[other])
                    causes.append(cause)
                    cause_links[cause] += 1
                    examples = cause_examples.setdefault(cause, [])
                    if len(examples) < 3:
                        examples.append(
                            {
                                "question": question_of[other],
                                "deprecates": strings,
                                "about": anchors,
                                "memory": record_of[rid].text,
                            }
                        )
                if causes:
                    cause_memories[min(causes, key=list(CAUSES).index)] += 1
            memories_total = sum(total_by_kind.values())
            collateral = sum(linked_by_kind.values())
            other_change = collateral - link_class["same change"]
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
                "collateral_by_class": dict(sorted(link_class.items())),
                # Same-change paraphrases left out: per memory (its first cause in CAUSES'
                # order) and per link, with up to 3 example links per cause.
                "collateral_by_cause": {
                    c: {"memories": cause_memories[c], "links": cause_links[c]}
                    for c in CAUSES
                    if cause_links[c]
                },
                "collateral_cause_examples": {
                    c: cause_examples[c] for c in CAUSES if c in cause_examples
                },
                "collateral_other_change_memories": other_change,
                "collateral_other_change_share": (
                    other_change / memories_total if memories_total else None
                ),
                "corrections_made_historical": hist_corrections,
                "refused_corrections": len(out["refused"][p]),
                "refused_by_reason": dict(Counter(r["reason"] for r in out["refused"][p])),
            }

        if not args.links_only:  # the store-wide links need no question asked
            # Ask every question now, and the changed ones as of each dated answer.
            scores: dict[str, dict[str, Any]] = {}
            latency: dict[str, list[float]] = {n: [] for n in cols}
            examples: list[dict[str, Any]] = []
            for name, col in cols.items():
                ch: dict[str, list[bool]] = {
                    k: []
                    for k in (
                        "strict",
                        "lenient",
                        "current",
                        "no_line",
                        "only_other",
                        "own_not_now",
                        "now_wrong",
                        "reached_strict",
                    )
                }
                now_lines: list[int] = []
                all_lines: list[int] = []
                all_unneeded: list[bool] = []
                ot_ans, ot_wrong_now, ot_own_hist = [], [], []
                asof_ok, asof_ok_len, asof_old, asof_new = [], [], [], []
                for q in C.progress(questions, desc=f"ask {name}", unit="q"):
                    start = time.perf_counter()
                    ctx = _ask(col, name, q.question, q_vecs[q.question], None)
                    latency[name].append(time.perf_counter() - start)
                    new_m = _matcher(q.answers)
                    all_unneeded.append(unneeded(ctx, told_as[name]))
                    if q.changed:
                        fix = fix_of(q.qid, told_as[name])
                        strict, lenient = exposure(ctx, q.qid, told_as[name])
                        olds = old_hits(ctx, q.qid)
                        ch["strict"].append(strict)
                        ch["lenient"].append(lenient)
                        ch["current"].append(presented(ctx, new_m, current_only=False))
                        ch["no_line"].append(any(not ctx.shown[i] for i in olds))
                        ch["only_other"].append(
                            any(ctx.shown[i] and fix not in ctx.shown[i] for i in olds)
                        )
                        # The failure mode of "newest instead of direct": the now-lines beneath
                        # an old fact are all other questions' corrections (the question's own
                        # one, if linked, is shown above them as superseded).
                        ch["own_not_now"].append(
                            any(ctx.now[i] and fix not in ctx.now[i] for i in olds)
                        )
                        # What the reader is told is current: now-lines that do not name the
                        # question's current answer (another question's chain took over).
                        ch["now_wrong"].append(
                            any(
                                ctx.now[i] and not any(new_m.keys(d) for d in ctx.now_docs[i])
                                for i in olds
                            )
                        )
                        mine = old_hits(ctx, q.qid, reached[name])
                        if mine:
                            ch["reached_strict"].append(any(fix not in ctx.shown[i] for i in mine))
                        for i in olds:
                            if ctx.roles[i] == "historical":
                                now_lines.append(len(ctx.now[i]))
                                all_lines.append(len(ctx.shown[i]))
                        shown = [e for e in examples if e["store"] == name]
                        if name != "bare" and len(shown) < 2 and any(ctx.now):
                            examples.append(
                                {"store": name, "question": q.question, "rendered": _render(col, q)}
                            )
                    else:
                        ot_ans.append(presented(ctx, new_m, current_only=False))
                        ot_wrong_now.append(unneeded(ctx, told_as[name]))
                        ot_own_hist.append(
                            any(
                                rid == f"{q.qid}:fact" and ctx.shown[i]
                                for i, rid in enumerate(ctx.ids)
                            )
                        )
                for q in changed:
                    info = plan[q.qid]
                    if not info["dated"]:
                        continue
                    old_m, new_m = _matcher(q.old), _matcher(q.answers)
                    fix = fix_of(q.qid, told_as[name])
                    for when, expected in q.pairs:
                        if when.end < info["first_old"]:
                            continue  # nothing about the question was stored yet
                        as_of = epoch(when.end, end=True)
                        ctx = _ask(col, name, q.question, q_vecs[q.question], as_of)
                        fix_seen = fix in ctx.ids or any(fix in n for n in ctx.shown)
                        if expected == "old":
                            own_flagged = any(ctx.shown[i] for i in old_hits(ctx, q.qid))
                            ok = (
                                presented(ctx, old_m, current_only=True)
                                and not fix_seen
                                and not own_flagged
                            )
                            asof_old.append(ok)
                            ok_len = ok
                        else:
                            strict, lenient = exposure(ctx, q.qid, told_as[name])
                            has_new = presented(ctx, new_m, current_only=False)
                            ok = has_new and not strict
                            ok_len = has_new and not lenient
                            asof_new.append(ok)
                        asof_ok.append(ok)
                        asof_ok_len.append(ok_len)
                scores[name] = {
                    "changed": {
                        "questions": len(ch["strict"]),
                        "stale_exposure_strict": _share(ch["strict"]),
                        "stale_exposure_lenient": _share(ch["lenient"]),
                        "current_fact_presence": _share(ch["current"]),
                        "old_fact_unannotated": _share(ch["no_line"]),
                        "old_fact_only_other_corrections": _share(ch["only_other"]),
                        "old_fact_own_correction_not_a_now_line": _share(ch["own_not_now"]),
                        "old_fact_now_lines_lack_current_answer": _share(ch["now_wrong"]),
                        "reached_contexts": len(ch["reached_strict"]),
                        "stale_exposure_strict_reached": _share(ch["reached_strict"]),
                        "stale_hits": len(all_lines),
                        "now_lines_per_stale_hit": _mean(now_lines),
                        "lines_per_stale_hit": _mean(all_lines),
                        "stale_hits_with_several_lines": _share([n > 1 for n in all_lines]),
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
                        "after_change": {
                            "contexts": len(asof_new),
                            "correct_strict": _share(asof_new),
                        },
                    },
                }
            out["scores"] = scores
            out["examples"] = examples
            out["recall_latency"] = {n: C.summarize(v) for n, v in latency.items()}
    out["dataset"] = {
        "data": C.portable(args.data),
        "distractors": C.portable(args.distractors) if args.distractors else None,
        "questions": len(questions),
        "changed": len(changed),
        "changed_dated": sum(1 for p in plan.values() if p["dated"]),
        "unchanged": len(others),
        "distractor_questions": len(distractors),
        "records": len(records),
        "as_of_pairs": sum(len(q.pairs) for q in changed if plan[q.qid]["dated"]),
    }
    generic = [q for q in changed if plan[q.qid]["anchor"] is not None]
    out["anchors"] = {
        "corrections": len(changed),
        "generic_answer": sum(1 for q in changed if plan[q.qid]["generic"]),
        "anchored": len(generic),
        "fact_fragment_generic": sum(1 for q in changed if plan[q.qid]["fragment_generic"]),
        "no_anchor_found": sum(
            1 for q in changed if plan[q.qid]["generic"] and plan[q.qid]["anchor"] is None
        ),
        "anchor_absent_from": {
            kind: sum(1 for q in generic if not plan[q.qid]["anchor_in"][kind])
            for kind in ("old-a", "old-b", "correction")
        },
        "anchor_contains_old_answer": sum(
            1 for q in generic if _matcher(q.old).keys(plan[q.qid]["anchor"])
        ),
        "anchor_words": dict(
            sorted(Counter(len(plan[q.qid]["anchor"].split()) for q in generic).items())
        ),
        "examples": [
            {"question": q.question, "deprecates": q.old, "about": plan[q.qid]["anchor"]}
            for q in generic[:12]
        ],
        "subject_missing": sum(1 for q in changed if plan[q.qid]["subject"] is None),
        "subject_examples": [
            f"{q.question} → deprecates {q.old}, about [{plan[q.qid]['subject']!r}]"
            for q in changed[:12]
        ],
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


LABEL = {
    "bare": "bare Chroma",
    "answer": "nowline, deprecates=[old answer] (allow_generic)",
    "name": "nowline, deprecates=[old answer if a name, else fact fragment] (allow_generic)",
    "fact": "nowline, deprecates=[old fact fragment]",
    "anchored": "nowline, deprecates=[old answer], about=[subject] when generic",
    "subject": "nowline, deprecates=[old answer], about=[the question's subject as named]",
}


def _lines(v: float | None) -> str:
    """Format a mean line count."""
    return "–" if v is None else f"{v:.2f}"


def markdown(data: dict[str, Any], png: str) -> str:
    """Return the markdown summary."""
    s, ds = data["scores"], data["dataset"]
    policies = data["config"]["policies"]
    names = ["bare", *policies]
    label = LABEL
    rows = []
    for n in names:
        ch, ao = s[n]["changed"], s[n]["as_of"]
        st = data["stores"].get(n)
        rows.append(
            [
                label[n],
                _pct(ch["stale_exposure_strict"]),
                f"{_pct(ch['stale_exposure_strict_reached'])} of {ch['reached_contexts']}"
                if st
                else "–",
                f"{_pct(ch['old_fact_unannotated'])} / "
                f"{_pct(ch['old_fact_only_other_corrections'])}",
                _pct(ch["old_fact_own_correction_not_a_now_line"]) if st else "–",
                _pct(ch["old_fact_now_lines_lack_current_answer"]) if st else "–",
                _pct(ch["stale_exposure_lenient"]),
                _pct(ch["current_fact_presence"]),
                _pct(st["reach"]) if st else "–",
                f"{_pct(st['collateral_share'])} ({st['collateral_memories']})" if st else "–",
                f"{_pct(st['collateral_other_change_share'])} "
                f"({st['collateral_other_change_memories']})"
                if st
                else "–",
                f"{_lines(ch['now_lines_per_stale_hit'])} / {_lines(ch['lines_per_stale_hit'])}"
                if st
                else "–",
                f"{_pct(ao['correct_strict'])} / {_pct(ao['correct_lenient'])}",
            ]
        )
    table = C.md_table(
        [
            "store",
            "stale exposure (strict)",
            "strict, contexts with a reached old fact",
            "…old fact with no line / only other questions' lines",
            "own correction not a now-line (newest-only failure)",
            "now-lines without the current answer",
            "stale exposure (lenient)",
            "current answer present",
            "old facts reached",
            "collateral memories",
            "collateral, same-change paraphrases excluded",
            "now-lines / all lines per stale hit",
            "as_of correct (strict / lenient)",
        ],
        rows,
    )
    prow = []
    for p in policies:
        st = data["stores"][p]
        kinds = st["collateral_by_kind"]
        prow.append(
            [
                label[p],
                _pct(st["reach_by_phrasing"]["old-a"]),
                _pct(st["reach_by_phrasing"]["old-b"]),
                ", ".join(f"{k}: {v['linked']}/{v['total']}" for k, v in kinds.items()),
                ", ".join(f"{k}: {v}" for k, v in st["collateral_by_class"].items()) or "none",
                st["corrections_made_historical"],
                ", ".join(f"{v} {k}" for k, v in st["refused_by_reason"].items()) or "0",
                str(data.get("repeats", {}).get(p, 0)),
            ]
        )
    ptable = C.md_table(
        [
            "policy",
            'reach, phrasing "<q>? — <old>"',
            'reach, phrasing "Noted in …: <old> is the answer to …"',
            "collateral by memory kind (linked/total)",
            "collateral by the linking question's change",
            "corrections made historical by another question's correction",
            "corrections refused",
            "repeats",
        ],
        prow,
    )
    urow = []
    for n in names:
        ch, un = s[n]["changed"], s[n]["unchanged"]
        urow.append(
            [
                label[n],
                f"{ch['stale_hits']}",
                _pct(ch["stale_hits_with_several_lines"]) if data["stores"].get(n) else "–",
                _pct(un["contexts_with_unneeded_now_line"]),
                _pct(un["own_fact_marked_historical"]),
                _pct(un["answer_presence"]),
            ]
        )
    utable = C.md_table(
        [
            "store",
            "stale hits (changed Qs' own old facts, historical)",
            "stale hits with more than one line",
            "unchanged Qs: contexts with a line from another question",
            "unchanged Qs: own fact marked historical",
            "unchanged Qs: answer present",
        ],
        urow,
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
            "as_of after the change: new answer, every old fact with its own correction",
        ],
        arow,
    )
    an = data["anchors"]
    absent = an["anchor_absent_from"]
    anchors = (
        f"{an['generic_answer']} of {an['corrections']} corrections deprecate a generic old "
        f"answer (nowline.validate_correction raises GenericString); the anchored policy gives "
        f"{an['anchored']} of them an anchor ({an['no_anchor_found']} questions had no content "
        f"word, so their correction is refused). The anchor is absent from "
        f"{absent['old-a']} / {absent['old-b']} / {absent['correction']} of the old facts "
        f"(two phrasings) / corrections it should reach; it contains the old answer "
        f"{an['anchor_contains_old_answer']} times. Words per anchor: "
        + ", ".join(f"{k}: {v}" for k, v in an["anchor_words"].items())
        + ". Examples: "
        + "; ".join(
            f"{e['question']} → deprecates {e['deprecates']}, about [{e['about']!r}]"
            for e in an["examples"][:6]
        )
        + f". (nowline's rule also calls {an['fact_fragment_generic']} of the "
        f"{an['corrections']} whole fact fragments generic: a phrase of common words.)"
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
        "Strict stale exposure: share of a changed question's contexts in which one of its old "
        "facts appears without its own correction among the lines beneath it (superseded or "
        "now). Collateral: share of stored memories linked to another question's correction; "
        "the second count leaves out old facts of a question with the same old and new answers "
        "(a paraphrase, told the truth). Own correction not a now-line: an old fact shows its "
        "own correction only as superseded, under another chain's newest. Now-lines without the "
        "current answer: an old fact's now-lines (what it marks as current) do not name the "
        "question's current answer. Lines per stale hit: over the asked question's own old "
        "facts that are historical.\n\n"
        + table
        + "\n\n## Reach and precision of the deprecation policies\n\n"
        + ptable
        + "\n\n## Anchors (policy `anchored`)\n\n"
        + anchors
        + "\n\n## Reading cost and unchanged questions\n\n"
        + utable
        + "\n\n## as_of\n\n"
        + atable
        + "\n\nrecall latency p50: "
        + ", ".join(f"{n} {C.fmt_s(lat[n]['p50'])}" for n in names)
        + ".\n"
        + f"\n![policies]({png})\n"
        + ("\n## Examples\n\n" + ex + "\n" if ex else "")
    )


def plot(data: dict[str, Any], path: Path) -> None:
    """Draw the main shares per store as grouped bars (the reach/precision trade-off)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["bare", *data["config"]["policies"]]
    short = {
        "bare": "bare Chroma",
        "answer": "old answer",
        "name": "answer if a name",
        "fact": "fact fragment",
        "anchored": "old answer +\nabout=[subject]",
        "subject": "old answer +\nabout=[writer's subject]",
    }
    stores = data["stores"]
    series = [
        (
            "stale exposure (strict)",
            lambda n: data["scores"][n]["changed"]["stale_exposure_strict"],
        ),
        (
            "own correction not a now-line (newest-only failure)",
            lambda n: data["scores"][n]["changed"]["old_fact_own_correction_not_a_now_line"],
        ),
        ("old facts reached", lambda n: stores[n]["reach"] if n in stores else 0.0),
        (
            "collateral memories",
            lambda n: stores[n]["collateral_share"] if n in stores else 0.0,
        ),
        ("current answer present", lambda n: data["scores"][n]["changed"]["current_fact_presence"]),
        ("as_of correct (strict)", lambda n: data["scores"][n]["as_of"]["correct_strict"]),
    ]
    fig, ax = plt.subplots(figsize=(12, 4.5))
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


def links_markdown(data: dict[str, Any]) -> str:
    """Return the report of a ``--links-only`` run: reach, collateral and refusals by reason."""
    ds, an = data["dataset"], data["anchors"]
    head = C.run_header(
        "SituatedQA: reach, collateral and refusals of the deprecation policies (links only)",
        data["machine"],
        data["command"],
        data["seconds"],
    )
    policies = data["config"]["policies"]
    rows = []
    for p in policies:
        st = data["stores"][p]
        rows.append(
            [
                LABEL[p],
                f"{_pct(st['reach'])} ({st['stale_linked']}/{st['stale_memories']})",
                f"{_pct(st['collateral_share'])} ({st['collateral_memories']})",
                f"{_pct(st['collateral_other_change_share'])} "
                f"({st['collateral_other_change_memories']})",
                ", ".join(f"{v} {k}" for k, v in st["refused_by_reason"].items()) or "0",
                str(data.get("repeats", {}).get(p, 0)),
            ]
        )
    table = C.md_table(
        [
            "policy",
            "reach (old facts linked to their own correction)",
            "collateral memories",
            "collateral, same-change paraphrases excluded",
            "corrections refused, by reason",
            "repeats (answered with the stored correction of the same change)",
        ],
        rows,
    )
    causes = [
        c for c in CAUSES if any(c in data["stores"][p]["collateral_by_cause"] for p in policies)
    ]
    crows = []
    for p in policies:
        st = data["stores"][p]
        by = st["collateral_by_cause"]
        crows.append(
            [
                LABEL[p],
                *(
                    f"{_pct(by[c]['memories'] / st['memories'])} ({by[c]['memories']}; "
                    f"{by[c]['links']} links)"
                    if c in by
                    else "0"
                    for c in causes
                ),
            ]
        )
    ctable = C.md_table(["policy", *causes], crows) if causes else "none"
    cexamples = [
        f"- `{p}`, {c}: {e['question']} → deprecates {e['deprecates']}, about {e['about']}; "
        f"linked: {e['memory']}"
        for p in policies
        for c, examples in data["stores"][p]["collateral_cause_examples"].items()
        for e in examples[:1]
    ]
    refusals = []
    for p in policies:
        for r in data["refused"][p]:
            refusals.append(
                f"- `{p}`: {r['reason']}: deprecates {r['deprecates']}, about "
                f"{r.get('about') or []}: {r.get('message', '')[:220]}"
            )
    return (
        f"{head}\nData: {ds['questions']:,} questions of `{Path(ds['data']).name}` "
        f"({ds['changed']} changed); {ds['records']:,} records in one store per policy. Only "
        "the stored links are scored (no embedding model, no question asked): reach is the "
        "share of old-fact memories linked to their own question's correction; collateral the "
        "share of memories linked to another question's correction (the second count leaves "
        "out old facts of a question with the same old and new answers).\n\n"
        + table
        + f"\n\nAnchors of the `subject` policy: {an.get('subject_examples', [])[:8]}.\n\n"
        + "## Collateral by cause\n\n"
        + "Collateral memories with the same-change paraphrases left out (the second count "
        "above), each counted once, by its first cause in this order (share of all memories; "
        "then every such link counted):\n\n"
        + "".join(f"- {c}: {CAUSES[c]}\n" for c in causes)
        + "\n"
        + ctable
        + "\n\nAn example of each:\n\n"
        + ("\n".join(cexamples) or "none")
        + "\n\n## Refused corrections\n\n"
        + ("\n".join(refusals) or "none")
        + "\n"
    )


def report_name(data: Path) -> str:
    """Return the results' file name: ``situatedqa`` for the dev split, else with the split.

    ``temp.train.jsonl`` gives ``situatedqa.train``; any other file name its stem.
    """
    stem = Path(data).name.removesuffix(".jsonl").removeprefix("temp.")
    return "situatedqa" if stem == "dev" else f"situatedqa.{stem}"


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
    parser.add_argument(
        "--policies",
        default=",".join(POLICIES),
        help=f"comma-separated deprecation policies, of: {', '.join(POLICIES)} (default all)",
    )
    parser.add_argument(
        "--links-only",
        action="store_true",
        help="write the corrections and score only the stored links (reach, collateral, "
        "refusals): no embedding model, no question asked; writes <name>.links.*",
    )
    parser.add_argument("--limit", type=int, default=None, help="questions to load (all)")
    parser.add_argument(
        "--distractor-limit", type=int, default=None, help="distractor questions to load (all)"
    )
    args = parser.parse_args(argv)
    args.policies = [p for p in args.policies.split(",") if p]
    unknown = [p for p in args.policies if p not in POLICIES]
    if unknown:
        parser.error(f"unknown policies {unknown}; choose from {list(POLICIES)}")
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
            "policies": list(args.policies),
        },
        **result,
    }
    name = report_name(args.data)
    if args.links_only:
        C.write_report(args.out, f"{name}.links", data, links_markdown(data))
        return 0
    C.write_report(args.out, name, data, markdown(data, f"{name}.png"))
    plot(data, args.out / f"{name}.png")
    print(f"wrote {args.out / f'{name}.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
