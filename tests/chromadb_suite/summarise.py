r"""Summarise JUnit XML reports of the chromadb suite as Markdown tables.

Usage::

    .venv/bin/python tests/chromadb_suite/summarise.py build/chromadb_suite/wrap.xml \\
        [--baseline build/chromadb_suite/off.xml] [--failures]

Prints, per test file, how many tests passed, failed, errored, were skipped or xfailed; with
``--baseline``, also which failures are new (fail here, pass in the baseline); with
``--failures``, each failing test id with the first line of its error.
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


@dataclass(frozen=True)
class Result:
    """One test case of a JUnit report."""

    file: str
    test_id: str
    outcome: str
    message: str
    wrapped: bool


def _file_of(classname: str) -> str:
    """Map a JUnit classname (``chromadb.test.property.test_add``) to its test file."""
    parts = classname.split(".")
    while parts and not parts[-1].startswith("test_"):
        parts.pop()
    return "/".join(parts[2:]) + ".py" if len(parts) > 2 else classname


def _first_line(text: str | None) -> str:
    """Return the first non-empty line of an error message, shortened."""
    for line in (text or "").splitlines():
        line = line.strip()
        if line:
            return line[:300]
    return ""


def read(path: Path) -> list[Result]:
    """Read the test cases of one JUnit XML report."""
    results = []
    for case in ET.parse(path).getroot().iter("testcase"):
        classname = case.get("classname", "")
        test_id = f"{_file_of(classname)}::{case.get('name', '')}"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed" if child.tag == "failure" else "error"
                message = _first_line(child.get("message")) or _first_line(child.text)
                break
            if child.tag == "skipped":
                kind = child.get("type", "")
                outcome = "xfailed" if kind == "pytest.xfail" else "skipped"
                message = _first_line(child.get("message"))
                break
        props = {p.get("name") for p in case.iter("property")}
        results.append(
            Result(_file_of(classname), test_id, outcome, message, "nowline_wrapped" in props)
        )
    return results


def table(results: list[Result], baseline: list[Result] | None) -> str:
    """Render the per-file table."""
    by_file: dict[str, Counter[str]] = defaultdict(Counter)
    base_pass = {r.test_id for r in baseline or [] if r.outcome in ("passed", "xfailed")}
    for r in results:
        by_file[r.file][r.outcome] += 1
        by_file[r.file]["wrapped"] += r.wrapped
        if baseline is not None and r.outcome in ("failed", "error") and r.test_id in base_pass:
            by_file[r.file]["new"] += 1
    columns = ["passed", "failed", "error", "skipped", "xfailed"]
    header = ["file", *columns, "total", "through nowline"]
    if baseline is not None:
        header.append("fail only here")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    total: Counter[str] = Counter()
    for name in sorted(by_file):
        counts = by_file[name]
        total.update(counts)
        lines.append(_row(name, counts, columns, baseline is not None))
    lines.append(_row("**all**", total, columns, baseline is not None))
    return "\n".join(lines)


def _row(name: str, counts: Counter[str], columns: list[str], with_new: bool) -> str:
    """Render one row of the table."""
    cells = [str(counts[c]) for c in columns]
    n = sum(counts[c] for c in OUTCOMES)
    row = [name, *cells, str(n), str(counts["wrapped"])]
    if with_new:
        row.append(str(counts["new"]))
    return "| " + " | ".join(row) + " |"


def main() -> None:
    """Print the summary of a report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--failures", action="store_true")
    args = parser.parse_args()
    results = read(args.report)
    baseline = read(args.baseline) if args.baseline else None
    print(table(results, baseline))
    if args.failures:
        print()
        for r in results:
            if r.outcome in ("failed", "error"):
                print(f"- `{r.test_id}` ({r.outcome}): {r.message}")


if __name__ == "__main__":
    main()
