"""Rendering recalled memories with their now-lines, so that no stored text can forge one."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from nowline.matchers import fold

__all__ = [
    "NOW_PREFIX",
    "QUOTE_MARK",
    "annotate_document",
    "one_line",
    "render_block",
    "sanitize",
    "strip_annotation",
]

NOW_PREFIX = "    now: "
"""How a now-line starts: four spaces, ``now:`` and one space (DESIGN.md §5)."""

QUOTE_MARK = "(quoted) "
"""Put before any line of a memory's own text that could pass for a now-line."""

_WS = re.compile(r"\s+")
# Every character that starts a new line for a reader (the boundaries of str.splitlines).
_LINE_BREAK = re.compile(r"(\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])")
# A line that reads as a now-line once invisible characters are gone and it is folded.
_NOW_LIKE = re.compile(r"^\W*now\s*:")


def one_line(text: str) -> str:
    """Return ``text`` on one line: every run of whitespace becomes one space."""
    return _WS.sub(" ", text).strip()


def _looks_like_now_line(line: str) -> bool:
    """Return whether a line of stored text could be read as a now-line.

    Format and control characters (zero-width spaces, joiners, BOM, soft hyphen) are ignored,
    the line is NFKC-folded (full-width letters, exotic spaces), and any leading punctuation
    or space and any space before the colon are allowed. A line that starts with the quote
    mark counts too, so stored text cannot pre-quote itself.
    """
    visible = "".join(c for c in line if c == "\t" or unicodedata.category(c) not in ("Cf", "Cc"))
    folded = fold(visible)
    return bool(_NOW_LIKE.match(folded)) or folded.lstrip().startswith(QUOTE_MARK.strip())


def sanitize(document: str) -> str:
    """Return ``document`` with every line that looks like a now-line marked as quoted.

    Text without such lines is returned unchanged. A line that already starts with the quote
    mark is marked again, so the marking cannot be undone by the stored text itself.
    """
    parts = _LINE_BREAK.split(document)  # lines at even indexes, their breaks in between
    lines = parts[::2]
    if not any(_looks_like_now_line(line) for line in lines):
        return document
    return "".join(
        QUOTE_MARK + part if i % 2 == 0 and _looks_like_now_line(part) else part
        for i, part in enumerate(parts)
    )


def annotate_document(document: str, corrections: Sequence[str]) -> str:
    """Return ``document`` (sanitized) with one now-line per correction text beneath it."""
    return sanitize(document) + "".join("\n" + NOW_PREFIX + one_line(c) for c in corrections)


def strip_annotation(document: str, corrections: Iterable[str]) -> str:
    """Remove now-lines that nowline appended to ``document`` for these correction texts.

    Used on every write, so that a read-modify-write through ``query()`` can never store an
    annotation: trailing now-lines whose text is a known correction are removed.
    """
    known = {one_line(c) for c in corrections}
    lines = document.split("\n")
    while len(lines) > 1 and lines[-1].startswith(NOW_PREFIX):
        if lines[-1][len(NOW_PREFIX) :] not in known:
            break
        lines.pop()
    return "\n".join(lines)


def render_block(items: Iterable[tuple[str, Sequence[str]]]) -> str:
    """Render (memory text, now-line texts) pairs as the context block of DESIGN.md §5.

    A memory's further lines are indented by two spaces, and any line of it that looks like a
    now-line is marked as quoted, so only nowline's own lines read as now-lines.
    """
    out = ["Relevant memory:"]
    for document, corrections in items:
        lines = sanitize(document).splitlines() or [""]
        out.append("- " + lines[0])
        out.extend("  " + line for line in lines[1:])
        out.extend(NOW_PREFIX + one_line(c) for c in corrections)
    if len(out) == 1:
        out.append("(none)")
    return "\n".join(out)
