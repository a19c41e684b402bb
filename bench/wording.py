"""How well nowline reads the old and new values a correction's wording states.

Run ``.venv/bin/python bench/wording.py`` (a second) or ``--smoke`` (the first statements only).
Writes ``wording.json`` and ``wording.md`` to ``--out``; ``--show dev`` lists a split's misses.

Where ``replaced_by`` is not given, nowline reads a correction's new values from its wording
(``nowline._rules.wording``): the new value is never deprecated, a rename back revives the old
name, a refusal names what to send instead. The goal: it never reads an old value as new, and
it reads the new value in at least 80% of the statements that name one.

Data, in ``bench/wording/`` (ours, made for this benchmark):

* ``changes.jsonl``: 233 change statements in several phrasings and kinds of value
  (repositories, URLs, hosts, channels, emails, people, numbers with a subject, tickets,
  products), with statements that name no new value and hard negatives. 167 are ``dev``, 66
  ``test``. The statements were written before any pattern existed; the patterns were tuned
  on dev only, and the test split was scored once, after tuning was frozen (its misses were
  left as they are). One author wrote both the statements and the patterns, so the test split
  is held out from tuning, not blind.
* ``writer_bodies.jsonl``: the 30 stated changes of the writer benchmark (``bench/reader.py``),
  their new value as given there and their old values read by hand from the stale memories.

Scoring. A read new value is *right* when it equals a gold new value (or a listed ``alt``
spelling, e.g. ``Atlas`` for ``Atlas team``); *old read as new* when it equals, contains or is
contained in (token-bounded) a gold old value; anything else read as new is *other wrong*. Old
values are scored the same way. Each split is read twice: by the wording alone, and with
``deprecates`` set to the gold old values (as a writer that got them right passes them).

Caveats: one author; English with a few German, French and Spanish forms; the statements are
short, one or two sentences, as corrections are.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import add_common_args, command_line, machine_info, md_table, write_report

from nowline._rules.wording import new_values, old_values
from nowline.matchers import Matcher

DATA = Path(__file__).resolve().parent / "wording"
SMOKE_ROWS = 12

Row = dict[str, Any]


def load(name: str) -> list[Row]:
    """Return the statements of one JSON Lines file of ``bench/wording/``."""
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _same(read: str, gold: str, alt: dict[str, list[str]]) -> bool:
    """Return whether a read value is the gold value (or one of its listed spellings)."""
    return read == gold or read in alt.get(gold, [])


def _overlaps(read: str, gold: str) -> bool:
    """Return whether one value occurs in the other (token-bounded, as matching reads)."""
    return bool(Matcher([(gold, 0)]).find(read) or Matcher([(read, 0)]).find(gold))


def score(rows: Sequence[Row], with_deprecates: bool) -> tuple[dict[str, int], list[str]]:
    """Return the counts of one split in one mode, and a line per statement with a miss."""
    keys = ("statements", "naming_new", "gold_new", "new_right", "old_as_new", "other_wrong")
    n = dict.fromkeys((*keys, "gold_old", "old_right", "old_read"), 0)
    misses: list[str] = []
    for row in rows:
        text, gold_old, gold_new = row["text"], row["old"], row["new"]
        alt: dict[str, list[str]] = row.get("alt", {})
        given = gold_old if with_deprecates else ()
        news, olds = new_values(text, given), old_values(text, given)
        right = [g for g in gold_new if any(_same(r, g, alt) for r in news)]
        unknown = [r for r in news if not any(_same(r, g, alt) for g in gold_new)]
        as_old = [r for r in unknown if any(_same(r, g, alt) or _overlaps(r, g) for g in gold_old)]
        other = [r for r in unknown if r not in as_old]
        n["statements"] += 1
        n["naming_new"] += bool(gold_new)
        n["gold_new"] += len(gold_new)
        n["new_right"] += len(right)
        n["old_as_new"] += len(as_old)
        n["other_wrong"] += len(other)
        n["gold_old"] += len(gold_old)
        n["old_right"] += sum(any(_same(r, g, alt) for r in olds) for g in gold_old)
        n["old_read"] += len(olds)
        if as_old or other or len(right) < len(gold_new) or len(olds) != len(gold_old):
            misses.append(
                f"- `{text}`: gold new {gold_new}, old {gold_old}; read new {list(news)}, "
                f"old {list(olds)}"
            )
    return n, misses


def _pct(part: int, whole: int) -> str:
    """Return ``part/whole`` as a percentage with the counts."""
    return f"{part / whole:.0%} ({part}/{whole})" if whole else "-"


def table(counts: dict[str, dict[str, int]]) -> str:
    """Return the Markdown table of every split's counts in one mode."""
    rows = [
        (
            name,
            n["statements"],
            n["naming_new"],
            _pct(n["new_right"], n["gold_new"]),
            n["old_as_new"],
            n["other_wrong"],
            _pct(n["old_right"], n["gold_old"]),
            _pct(n["old_right"], n["old_read"]),
        )
        for name, n in counts.items()
    ]
    headers = (
        "split",
        "statements",
        "naming a new value",
        "new values read",
        "old read as new",
        "other read as new",
        "old values read",
        "old reads right",
    )
    return md_table(headers, rows)


def main() -> None:
    """Score every split in both modes; write the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_args(parser, seed=0)
    parser.add_argument(
        "--show",
        choices=["dev", "test", "writer"],
        action="append",
        default=[],
        help="also print a split's statements with a miss",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    changes = load("changes.jsonl")
    splits = {
        "dev": [r for r in changes if r["split"] == "dev"],
        "test": [r for r in changes if r["split"] == "test"],
        "writer": load("writer_bodies.jsonl"),
    }
    if args.smoke:
        splits = {name: rows[:SMOKE_ROWS] for name, rows in splits.items()}
    data: dict[str, Any] = {"command": command_line(), "machine": machine_info(), "modes": {}}
    parts = ["# Reading old and new values from a correction's wording", ""]
    for mode, given in (("wording alone", False), ("with deprecates", True)):
        scored = {name: score(rows, given) for name, rows in splits.items()}
        data["modes"][mode] = {name: counts for name, (counts, _) in scored.items()}
        parts += [f"## {mode.capitalize()}", "", table({k: v for k, (v, _) in scored.items()})]
        parts.append("")
        if mode == "wording alone":
            misses = {name: m for name, (_, m) in scored.items()}
    data["seconds"] = time.perf_counter() - started
    parts.insert(1, f"\n`{data['command']}`: {data['seconds']:.1f} s.\n")
    for name, lines in misses.items():
        parts += [f"### {name}: statements with a miss ({len(lines)})", "", *lines, ""]
        if name in args.show:
            print("\n".join(lines))
    write_report(args.out, "wording", data, "\n".join(parts))


if __name__ == "__main__":
    main()
