"""Two aids for a small model's writes where nowline's wording reader reads no change, measured.

Run ``.venv/bin/python bench/second_pass.py --model PATH`` (the writer benchmark's GGUF model;
needs the ``reader`` extra; on one thread of the 2-core machine the confirm study takes about
15 minutes, the tail study about 18 per split and 30 for every second no-change text), or
``--smoke`` (a rule-based stand-in, seconds). Writes ``second_pass.json`` and
``second_pass.md`` to ``--out`` (``--name`` renames them).

With a note on the user's message (``nowline.tools.message_note``), the writer benchmark's
model stores a change right about 13 times in 15; without one, almost never. The note is
there where the wording reader reads the change: half of each held-out split. Two ways to
reach the other half were proposed (``bench/reader.md``, twelfth pass) and are measured here:

* ``--study confirm``, *a second model pass that confirms a candidate pair*: for a message the
  wording reads nothing in, the pairs of values of one sort (two repositories, two addresses,
  two channels...) of which memories name the first as current and no record names the
  second are candidates; the model is asked, one pair at a time, whether the message says
  that the first was replaced by the second (``--prompt``: ``yes-no``, ``happened`` or
  ``letters``). A confirmed pair would become the note. Scored on every split's silent
  writer messages with a gold call (right: the confirmed old values are the gold
  ``deprecates``), and on the texts that state no change (``bench/_nochange*.py``), where any
  confirmed pair is a false note: the writer benchmark's quiet task found that the model
  stores a false note's correction every time.
* ``--study tail``, *a line after the recall tool's answer*: where the model's first call was
  ``recall`` (its commonest first call on a silent message), its retry is asked again with a
  line added to the recall's answer that tells it to call ``correct`` (``--tails``: ``line``,
  and ``values``, which also lists the values the recalled memories name; ``none`` is the
  answer as shipped). The first replies are those of the committed writer runs
  (``results/reader.<split>.writer.<base|note>.json``), so only the retry is asked. The same
  tails are then put after a recall that the model calls first on a text that states no
  change (every ``--quiet-step``-th text of the no-change sets): a stored correction there is
  the harm.

Neither is adopted: see ``bench/reader.md`` (thirteenth pass) for the figures.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _nochange
import _nochange2
import _nochange3
import _writer as W
import _writer_prompts as WP
import reader
from _common import (
    RESULTS_DIR,
    add_common_args,
    command_line,
    machine_info,
    md_table,
    write_report,
)

import nowline
from nowline._rules.wording import stated_things, value_sort
from nowline.surfaces.tools import message_note, run_tool

MAX_PAIRS = 4
"""The model is asked about a message's first few pairs only."""
PROMPTS = {
    "yes-no": (
        "You check one claim against a message. Answer with one word: yes or no.",
        'Message:\n"""\n{text}\n"""\n\nClaim: this message says that {old} is no longer used, '
        "and {new} is used in its place.\nIs the claim what the message says? Answer yes or no.",
        "yes",
    ),
    "happened": (
        "You check one claim against a message. Answer with one word: yes or no.",
        'Message:\n"""\n{text}\n"""\n\nClaim: the message states, as something that has already '
        "happened, that {new} replaced {old} (a plan, a question, a log, a list or an example "
        "states no such thing).\nIs the claim what the message says? Answer yes or no.",
        "yes",
    ),
    "letters": (
        "You classify what a message says about one value. Answer with one letter.",
        'Message:\n"""\n{text}\n"""\n\nWhat does this message say about {old}?\nA) It was '
        "replaced by {new}: {old} is no longer in use.\nB) It asks a question about it.\nC) It "
        "plans, proposes or instructs a change that has not happened yet.\nD) It is a log, a "
        "command, a diff or a list.\nE) Something else: {old} is still in use.\nAnswer with A, "
        "B, C, D or E.",
        "a",
    ),
}
"""The confirming question: system prompt, user prompt, and the answer that confirms."""
LINE = (
    "\nIf the user's message says that one of these memories is no longer true, call correct "
    "now, not recall, with body: the user's words, naming the old and the new value; "
    "deprecates: [the old value, exactly as the memory writes it]; replaced_by: [the new value]."
)


def _values_line(answer: str) -> str:
    """The line, and the values the recalled memories name (at most eight)."""
    memories = "\n".join(line for line in answer.splitlines() if line.startswith("- "))
    values = list(dict.fromkeys(stated_things(memories)))[:8]
    listed = f" The values these memories name: {', '.join(map(repr, values))}." if values else ""
    return LINE + listed


TAILS: dict[str, Callable[[str], str]] = {
    "none": lambda answer: "",
    "line": lambda answer: LINE,
    "values": _values_line,
}
"""What each tail adds after the recall tool's answer."""
TAIL_SPLITS = ("blind6", "blind7", "blind8", "blind9")
NEGATIVE_SETS = (_nochange, _nochange2, _nochange3)


def sort_of(value: str) -> str:
    """Return the sort of a value (``nowline._rules.wording.value_sort``).

    One difference: a Mattermost channel (``~town-square``, in blind7 and blind9) is a
    channel here, while the wording reader, which reads no such channel, sorts it ``other``.
    """
    return "channel" if value.startswith("~") else value_sort(value)


def store_pairs(col: Any, text: str) -> list[tuple[str, str]]:
    """Return the candidate (old, new) pairs of a text on a store.

    Old: a value of the text that memories still name as current. New: one of the same sort
    that no record names. A pull request's number (``#123``) is no value.
    """
    values = [v for v in dict.fromkeys(stated_things(text)) if not re.fullmatch(r"#\d+", v)]
    current: list[str] = []
    unnamed: list[str] = []
    for value in values:
        try:
            ids = col.preview([value])
        except nowline.InvalidCorrection:  # a value no correction could name (too long)
            continue
        if not ids:
            unnamed.append(value)
        elif any(h.role == "current" for h in col.hits(list(ids))):
            current.append(value)
    return [(o, n) for o in current for n in unnamed if sort_of(o) == sort_of(n)]


def confirmed(
    model: reader.Model, prompt: str, text: str, pairs: Sequence[tuple[str, str]]
) -> list[str]:
    """Return the old values of the pairs the model confirms."""
    system, user, yes = PROMPTS[prompt]
    out = []
    for old, new in pairs[:MAX_PAIRS]:
        messages = [
            {"role": "system", "content": system},
            {"role": "user", "content": user.format(text=text, old=old, new=new)},
        ]
        answer = model.chat(messages, max_tokens=3).strip().strip("() .").lower()
        if answer.startswith(yes):
            out.append(old)
    return out


def confirm_study(
    model: reader.Model, stores: reader.Stores, prompt: str, splits: Sequence[str], smoke: bool
) -> dict[str, Any]:
    """Score the confirmed pairs on the silent writer messages and the no-change texts."""
    cases: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    for split in splits:
        for case in [c for c in W.writer_cases(split) if c.gold][: 3 if smoke else None]:
            col = reader.writer_store(stores, case)
            if message_note(col, case.message):
                cases["noted"] += 1
                continue
            pairs = store_pairs(col, case.message)
            gold = {g.casefold() for g in case.gold.get("deprecates", ())}
            olds = {o.casefold() for o in confirmed(model, prompt, case.message, pairs)}
            if not pairs:
                got = "no pair"
            elif not olds:
                got = "none confirmed"
            else:
                got = "right" if olds == gold else ("wrong" if olds - gold else "partial")
            cases[got] += 1
            rows.append({"split": split, "case": case.key, "pairs": pairs, "outcome": got})
    negatives: Counter[str] = Counter()
    for module in NEGATIVE_SETS:
        col = reader.texts_store(stores, module)
        texts = [t for kind in module.NO_CHANGE.values() for t in (kind[:1] if smoke else kind)]
        for text in texts:
            if message_note(col, text):
                negatives["noted"] += 1
                continue
            pairs = store_pairs(col, text)
            olds = confirmed(model, prompt, text, pairs)
            got = "no pair" if not pairs else ("false note" if olds else "none confirmed")
            negatives[got] += 1
            if olds:
                rows.append({"set": module.__name__, "text": text, "confirmed": olds})
    return {"prompt": prompt, "cases": dict(cases), "negatives": dict(negatives), "rows": rows}


def _retry(
    model: reader.Model,
    messages: list[dict[str, str]],
    reply: str,
    answer: str,
    tools: list[dict[str, Any]],
) -> str:
    """Ask again after the tool's ``answer`` to ``reply``, greedily, as the writer task does."""
    turn = reader.retry_turn(messages, reply, answer)
    return model.chat(turn, tools=tools, temperature=0.0, seed=0, max_tokens=256)


def _recall_args(reply: str) -> dict[str, Any] | None:
    """The arguments of a reply's single ``recall`` call, else None."""
    call = reader.instead_call(reply)
    return call[1] if call is not None and call[0] == "recall" else None


def tail_study(
    model: reader.Model,
    stores: reader.Stores,
    splits: Sequence[str],
    tails: Sequence[str],
    results: Path,
    quiet_step: int,
    smoke: bool,
) -> dict[str, Any]:
    """Ask the retries after a first recall again, with each tail; then the no-change texts."""
    system, tools = WP.variant("library")
    writer: dict[str, Counter[str]] = {
        f"{t}, {m}": Counter() for t in tails for m in ("base", "note")
    }
    rows: list[dict[str, Any]] = []
    for split in splits:
        cases = {c.key: c for c in W.writer_cases(split)}
        for mode in ("base", "note"):
            path = results / f"reader.{split}.writer.{mode}.json"
            if not path.exists():
                continue
            run = next(iter(json.loads(path.read_text())["tasks"]["writer"]["runs"].values()))
            firsts = [r for r in run if r["outcome"] == "called recall"][: 1 if smoke else None]
            for row in firsts:
                case, args = cases[row["case"]], _recall_args(row["reply"])
                if args is None:
                    continue
                messages = reader._write_turn(system, case.message, row.get("note", ""))
                got = {}
                for tail in tails:
                    col = reader.writer_store(stores, case)
                    answer = run_tool(col, "recall", args).text
                    retry = _retry(
                        model, messages, row["reply"], answer + TAILS[tail](answer), tools
                    )
                    got[tail] = reader.writer_score(stores, case, retry, col=col)["outcome"]
                    writer[f"{tail}, {mode}"][got[tail]] += 1
                rows.append({"split": split, "mode": mode, "case": case.key, **got})
    quiet: dict[str, Counter[str]] = {t: Counter() for t in tails}
    first: Counter[str] = Counter()
    n = 0
    for module in NEGATIVE_SETS:
        if not quiet_step:
            break
        texts = [t for kind in module.NO_CHANGE.values() for t in kind]
        for text in texts[::quiet_step][: 2 if smoke else None]:
            n += 1
            messages = reader._write_turn(system, text)
            reply = model.chat(messages, tools=tools, temperature=0.0, seed=0, max_tokens=256)
            first[reader._quiet_outcome(stores, module, reply)] += 1
            args = _recall_args(reply)
            if args is None:
                continue
            for tail in tails:
                answer = run_tool(reader.texts_store(stores, module), "recall", args).text
                retry = _retry(model, messages, reply, answer + TAILS[tail](answer), tools)
                quiet[tail][reader._quiet_outcome(stores, module, retry)] += 1
    return {
        "tails": list(tails),
        "writer": {k: dict(v) for k, v in writer.items()},
        "rows": rows,
        "quiet texts": n,
        "quiet first calls": dict(first),
        "quiet after a recall": {k: dict(v) for k, v in quiet.items()},
    }


def markdown(data: dict[str, Any]) -> str:
    """Return the report: a table per study."""
    parts = [
        "# Aids for silent writes: a second model pass, a line after recall",
        "",
        f"`{data['command']}`: {data['seconds']:.0f} s; model `{data['model']}`.",
        "",
    ]
    if "confirm" in data:
        c = data["confirm"]
        cols = ("noted", "no pair", "none confirmed", "right", "partial", "wrong", "false note")
        rows = [
            ("writer messages with a gold call", *(c["cases"].get(k, "") for k in cols)),
            ("texts that state no change", *(c["negatives"].get(k, "") for k in cols)),
        ]
        parts += [
            f"## A second pass that confirms a candidate pair (prompt `{c['prompt']}`)",
            "",
            "A message or text with a note (`noted`) is not asked; the others are asked about "
            f"their first {MAX_PAIRS} candidate pairs.",
            "",
            md_table(("", *cols), rows),
            "",
        ]
    if "tail" in data:
        t = data["tail"]
        rows = []
        for key, got in t["writer"].items():
            wrong = sum(n for k, n in got.items() if k in _WRONG)
            rows.append((key, sum(got.values()), got.get("right", 0), wrong))
        quiet = [
            (tail, sum(got.values()), got.get("stored a correction", 0))
            for tail, got in t["quiet after a recall"].items()
        ]
        stored = t["quiet first calls"].get("stored a correction", 0)
        parts += ["## A line after the recall tool's answer", ""]
        if t["rows"]:
            parts += [
                "The retry after each first `recall` of the committed writer runs "
                f"({', '.join(sorted({r['split'] for r in t['rows']}))}), asked again with "
                "each tail:",
                "",
                md_table(("tail, run", "retries", "right", "a stored wrong correction"), rows),
                "",
            ]
        if t["quiet texts"]:
            parts += [
                f"Texts that state no change: {t['quiet texts']} asked; the first call stored a "
                f"correction after {stored} of them; after the first calls that were `recall`, "
                "with each tail:",
                "",
                md_table(("tail", "retries", "stored a correction"), quiet),
                "",
            ]
    return "\n".join(parts) + "\n"


_WRONG = ("new value in deprecates", "marked unrelated memories")
"""Outcomes of a stored correction that marks what is current (the harm)."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run the chosen studies; write the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_args(parser, seed=0)
    parser.add_argument("--model", type=Path, help="the GGUF model (not needed with --smoke)")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads (default 1)")
    parser.add_argument("--study", choices=("confirm", "tail", "both"), default="both")
    parser.add_argument("--prompt", choices=tuple(PROMPTS), default="yes-no")
    parser.add_argument(
        "--splits", default=",".join(W._SPLITS), help="writer splits of the confirm study"
    )
    parser.add_argument("--tails", default="none,line,values", help="tails of the tail study")
    parser.add_argument(
        "--tail-splits", default=",".join(TAIL_SPLITS), help="writer splits of the tail study"
    )
    parser.add_argument(
        "--quiet-step", type=int, default=2, help="every n-th no-change text (0: none)"
    )
    parser.add_argument(
        "--results", type=Path, default=RESULTS_DIR, help="the committed writer runs' folder"
    )
    parser.add_argument("--name", default="second_pass", help="the report's file name")
    args = parser.parse_args(argv)
    if not args.smoke and args.model is None:
        raise SystemExit("give --model PATH (the writer benchmark's GGUF model), or --smoke")
    tails = [t for t in args.tails.split(",") if t]
    unknown = [t for t in tails if t not in TAILS]
    if unknown:
        raise SystemExit(f"unknown tails {unknown}: choose from {list(TAILS)}")
    model: reader.Model = (
        reader.FakeModel() if args.smoke else reader.LlamaModel(args.model, threads=args.threads)
    )
    started = time.perf_counter()
    stores = reader.Stores()
    data: dict[str, Any] = {"command": command_line(), "machine": machine_info()}
    data["model"] = (
        model.name if args.smoke else f"{model.name} sha256 {reader.sha256_of(args.model)}"
    )
    try:
        if args.study in ("confirm", "both"):
            splits = [s for s in args.splits.split(",") if s]
            data["confirm"] = confirm_study(model, stores, args.prompt, splits, args.smoke)
        if args.study in ("tail", "both"):
            data["tail"] = tail_study(
                model,
                stores,
                [s for s in args.tail_splits.split(",") if s],
                tails,
                args.results,
                args.quiet_step,
                args.smoke,
            )
    finally:
        stores.close()
    data["seconds"] = time.perf_counter() - started
    write_report(args.out, args.name, data, markdown(data))


if __name__ == "__main__":
    main()
