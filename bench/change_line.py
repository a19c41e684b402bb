"""How often the tools' change line names the strings to deprecate, for a model that recalls.

Run ``.venv/bin/python bench/change_line.py`` (about two minutes) or ``--smoke``. Writes
``change_line.json`` and ``change_line.md`` to ``--out``.

A small model told of a change often calls ``recall`` (or ``remember``) instead of
``correct``; the writer benchmark (``bench/reader.py``) counts 6 to 10 such first calls in 30.
The recall tool asks for the user's own words, and where they state a change that memories
still name as current, its answer ends with a line that names the strings to deprecate (and
the anchor a number or a first name needs): "This states a change: ... call correct with body
'...' and deprecates [...]". The model's next call can copy it. This script measures that line
without a model: for every writer and act case of the writer benchmark with a gold call, it
recalls the user's message on a store with the case's memories and prior corrections, and
scores the line:

* *names the gold strings*: the line is there and names every string of the gold call's
  ``deprecates``;
* *names a wrong string*: the line proposes a string that is not among them (a new value, an
  unrelated one): worse than no line, as a model would copy it;
* *no line*: the wording gave nothing to propose, or no memory names it as current.

The splits are the writer benchmark's (``bench/_writer.py``); ``--splits`` picks them (the blind
ones only after their model runs, so that no choice is made on them).

Two more sets are recalled against a store of their own memories. The *negative arm* is texts
that state no change (status notes, logs, questions without their mark, plans, negations):
any line after one of them is a false one. ``bench/_nochange.py`` was written by the reviewer
of a withdrawn reading and is seen (its false lines were mended); ``bench/_nochange2.py`` was
written later by an engineer who read no library code, with a *positive arm* of its own (texts
that state a change, with the old strings), and is the held-out check of those mends.

The *chat arm* (``--chat``, on by default where the data is there) replays real conversation:
LoCoMo's ten two-person conversations (5,882 turns; Maharana et al., ACL 2024; CC BY-NC 4.0,
read from ``../shared/data/locomo/``, never copied here), turn by turn, as an agent that
remembers every message would. Before each turn is stored, the note the hook gives for a
user's message (``nowline.surfaces.tools.message_note``, the line ``recall`` and ``remember``
add) is asked for it, on a store of that conversation's turns so far (hashed vectors: the
note reads no embedding). Friends catching up state few changes of a thing a memory names,
so every note there is listed and read by hand: the arm counts what ordinary talk costs.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _nochange
import _nochange2
import _nochange3
import _writer as W
import locomo as LM
import reader
from _common import (
    add_common_args,
    command_line,
    default_data,
    machine_info,
    md_table,
    portable,
    write_report,
)

from nowline.surfaces.tools import message_note, run_tool

MARK = "This states a change:"
SMOKE_CASES = 4
SEEN = ("dev", "test", "fresh", "blind", "blind2", "blind3", "blind4", "blind5", "blind6")


def line_of(answer: str) -> str:
    """Return the change line of a recall tool's answer ("" where there is none)."""
    return answer.split(MARK, 1)[1] if MARK in answer else ""


def proposed(line: str) -> list[str]:
    """Return the strings a change line proposes for ``deprecates``."""
    if "deprecates [" not in line:
        return []
    # the list as Python writes it: quoted strings, which may hold commas ("¥28,000")
    quoted = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
    listed = re.match(
        rf"\s*((?:{quoted})(?:\s*,\s*(?:{quoted}))*)\s*\]", line.split("deprecates [", 1)[1]
    )
    if listed is None:
        return []
    return [q[1:-1] for q in re.findall(quoted, listed.group(1))]


def verdict(col: Any, text: str, gold: Sequence[str]) -> tuple[str, set[str]]:
    """Recall ``text`` on ``col``; return how its line does (right, wrong or none) and its strings.

    Right: the line names every gold string and no other; wrong: it names another (a model
    would copy it); none: no line, or one that misses a gold string.
    """
    got = {p.casefold() for p in proposed(line_of(run_tool(col, "recall", {"query": text}).text))}
    want = {g.casefold() for g in gold}
    if not got:
        return "none", got
    if got - want:
        return "wrong", got
    return ("right" if want <= got else "none"), got


def score_case(stores: Any, case: Any) -> str:
    """Return how the recall tool's line does on one case: right, wrong or none."""
    col = reader.writer_store(stores, case)
    return verdict(col, case.message, case.gold.get("deprecates", ()))[0]


def score_split(stores: Any, split: str, smoke: bool) -> dict[str, dict[str, Any]]:
    """Return the counts of one split's writer and act cases, with the keys of the misses."""
    writer = [c for c in W.writer_cases(split) if c.gold]
    act = [a.writer for a in W.act_cases(split, 30)]
    out: dict[str, dict[str, Any]] = {}
    for kind, cases in (("writer", writer), ("act", act)):
        cases = cases[:SMOKE_CASES] if smoke else cases
        counts = {"cases": 0, "right": 0, "wrong": 0, "none": 0, "misses": []}
        for case in cases:
            got = score_case(stores, case)
            counts["cases"] += 1
            counts[got] += 1
            if got != "right":
                counts["misses"].append(f"{case.key} ({got})")
        out[kind] = counts
    return out


NEGATIVE_SETS = {"first": _nochange, "second": _nochange2, "third": _nochange3}
"""The negative arm's sets, in the order they were written and then seen (see the docstring)."""
POSITIVE_SETS = {"second": _nochange2, "third": _nochange3}
"""The sets with texts that state a change (``CHANGES``), the positive arm."""


def score_negatives(stores: Any, module: Any, smoke: bool) -> dict[str, Any]:
    """Return how many texts that state no change get a line anyway (the negative arm).

    The texts (``module.NO_CHANGE``) are recalled against one store of ``module.MEMORIES``; a
    line after any of them proposes deprecating a current value.
    """
    col = reader.texts_store(stores, module)
    out: dict[str, Any] = {"texts": 0, "with a line": 0, "false lines": []}
    for kind, texts in module.NO_CHANGE.items():
        for text in texts[:1] if smoke else texts:
            out["texts"] += 1
            if line_of(run_tool(col, "recall", {"query": text}).text):
                out["with a line"] += 1
                out["false lines"].append(f"{kind}: {text!r}")
    return out


def score_changes(stores: Any, module: Any, smoke: bool) -> dict[str, Any]:
    """Return how the line does on texts that state a change (the positive arm).

    Each text of ``module.CHANGES`` is recalled against one store of ``module.MEMORIES`` (a
    recall writes nothing) and scored as a writer case is: right, wrong or none.
    """
    col = reader.texts_store(stores, module)
    out: dict[str, Any] = {"cases": 0, "right": 0, "wrong": 0, "none": 0, "misses": []}
    for text, gold in module.CHANGES[:SMOKE_CASES] if smoke else module.CHANGES:
        kind, got = verdict(col, text, gold)
        out["cases"] += 1
        out[kind] += 1
        if kind != "right":
            out["misses"].append(f"{text!r} ({kind}{': ' + ', '.join(sorted(got)) if got else ''})")
    return out


def score_chat(stores: Any, path: Path, smoke: bool) -> dict[str, Any]:
    """Replay LoCoMo's conversations turn by turn; return every note a turn got (the chat arm).

    Each conversation gets a store of its own; each turn is asked for its note, then stored
    as a memory (``"<speaker>: <text>"``), so every note reads the turns before it.
    """
    samples = json.loads(path.read_text())[: 1 if smoke else None]
    out: dict[str, Any] = {"conversations": len(samples), "turns": 0, "notes": []}
    for sample in samples:
        conv, col = sample["conversation"], stores.fresh("chat")
        sessions = LM.session_numbers(conv)[: 1 if smoke else None]
        for turn in (t for n in sessions for t in conv[f"session_{n}"]):
            key = f"{sample['sample_id']}:{turn['dia_id']}"
            out["turns"] += 1
            note = message_note(col, turn["text"])
            if note:
                out["notes"].append({"turn": key, "text": turn["text"], "proposed": proposed(note)})
            col.add(ids=[key], documents=[LM.document(turn)])
    return out


def table(results: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Return the Markdown table of every split's counts."""
    rows = []
    for split, kinds in results.items():
        for kind, n in kinds.items():
            rows.append((split, kind, n["cases"], n["right"], n["wrong"], n["none"]))
    headers = (
        "split",
        "cases of",
        "n",
        "line names the gold strings",
        "names a wrong one",
        "no line",
    )
    return md_table(headers, rows)


def main(argv: Sequence[str] | None = None) -> None:
    """Score the chosen splits; write the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_args(parser, seed=0)
    parser.add_argument(
        "--splits",
        default=",".join(SEEN),
        help=f"comma-separated writer benchmark splits (default {','.join(SEEN)})",
    )
    parser.add_argument(
        "--chat",
        type=Path,
        default=default_data("locomo/locomo10.json"),
        help="LoCoMo's locomo10.json for the chat arm (default: ../shared/data/locomo/)",
    )
    parser.add_argument("--no-chat", action="store_true", help="leave the chat arm out")
    args = parser.parse_args(argv)
    if args.chat is not None and not args.chat.exists():
        parser.error(f"{args.chat} not found: pass --chat .../locomo10.json, or --no-chat")
    started = time.perf_counter()
    splits = [s for s in args.splits.split(",") if s]
    stores = reader.Stores()
    try:
        results = {split: score_split(stores, split, args.smoke) for split in splits}
        negatives = {
            name: score_negatives(stores, module, args.smoke)
            for name, module in NEGATIVE_SETS.items()
        }
        changes = {
            name: score_changes(stores, module, args.smoke)
            for name, module in POSITIVE_SETS.items()
        }
        # without the data (not beside the repository, and no --chat), the arm is left out
        chat = (
            None if args.no_chat or args.chat is None else score_chat(stores, args.chat, args.smoke)
        )
    finally:
        stores.close()
    data: dict[str, Any] = {
        "command": command_line(),
        "machine": machine_info(),
        "splits": results,
        "negatives": negatives,
        "changes": changes,
        "chat": chat if chat is None else {**chat, "data": portable(args.chat)},
        "seconds": time.perf_counter() - started,
    }
    parts = [
        "# The tools' change line, for a model that recalls the user's words",
        "",
        f"`{data['command']}`: {data['seconds']:.1f} s.",
        "",
        table(results),
        "",
    ]
    for split, kinds in results.items():
        for kind, n in kinds.items():
            if n["misses"]:
                parts += [f"- {split} {kind}, not right: {', '.join(n['misses'])}"]
    parts += ["", "## The negative arm: texts that state no change", ""]
    for name, module in NEGATIVE_SETS.items():
        n = negatives[name]
        parts += [
            f"{name.capitalize()}: {n['with a line']} of {n['texts']} texts that state no "
            f"change (`bench/{module.__name__}.py`) get a change line anyway:",
            "",
            *[f"- {line}" for line in n["false lines"]],
            "",
        ]
    parts += ["## The positive arm: texts that state a change", ""]
    for name, module in POSITIVE_SETS.items():
        n = changes[name]
        parts += [
            f"{name.capitalize()}: of {n['cases']} texts that state a change "
            f"(`bench/{module.__name__}.py`), the line names the old strings after {n['right']}, "
            f"a wrong string after {n['wrong']}, and nothing after {n['none']}:",
            "",
            *[f"- {miss}" for miss in n["misses"]],
            "",
        ]
    if chat is not None:
        parts += [
            "## The chat arm: real conversation (LoCoMo)",
            "",
            f"Of {chat['turns']} turns of {chat['conversations']} conversations, "
            f"{len(chat['notes'])} got a note:",
            "",
            *[f"- {n['turn']}: {n['text']!r} (proposed: {n['proposed']})" for n in chat["notes"]],
            "",
        ]
    write_report(args.out, "change_line", data, "\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
