"""Read DIFFERENCES.md: the tests of chromadb's suite listed as expected failures."""

from __future__ import annotations

import re
from pathlib import Path

DIFFERENCES = Path(__file__).with_name("DIFFERENCES.md")
TEST_ROOT = "chromadb/test/"


def read_differences(path: Path = DIFFERENCES) -> dict[str, dict[str, str]]:
    """Read the listed tests of DIFFERENCES.md, by section.

    Returns ``{"environment": {test: reason}, "deliberate": {test: reason}}``. A listed test is
    a bullet ``- `file.py::test_name` reason`` under a ``## Environment ...`` or
    ``## Deliberate differences ...`` heading; other sections and lines are prose.
    """
    sections: dict[str, dict[str, str]] = {"environment": {}, "deliberate": {}}
    current: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            title = line[3:].lower()
            current = next((key for key in sections if title.startswith(key)), None)
            continue
        match = re.match(r"- `([^`]+\.py::[^`]+)`\s*[-:—]*\s*(.*)", line)
        if current is not None and match:
            sections[current][match.group(1)] = match.group(2).strip() or "listed"
    return sections


def listed_reason(nodeid: str, listed: dict[str, str]) -> str | None:
    """Return the reason a node id is listed (any parametrisation of a listed test)."""
    test = nodeid.removeprefix(TEST_ROOT)
    for pattern, reason in listed.items():
        if test == pattern or test.startswith(pattern + "["):
            return reason
    return None
