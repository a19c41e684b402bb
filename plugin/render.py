"""Writing recalled memories with their correction lines, so that no stored text can forge one.

A stale memory is followed by labelled lines, each indented by four spaces:

* ``now: <text>`` — the newest correction of a chain: what is true now;
* ``superseded correction: <text>`` — a correction that names the memory's string directly but
  was itself corrected later (its ``now:`` line follows);
* ``retracted: ...`` — under a recalled correction that was withdrawn.

Any line of stored text that could be read as one of these is marked ``(quoted)``, and a
document that comes back to a write with nowline's lines still on it is stored without them
(:func:`unannotate`): both are decided from the text alone.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from .matchers import fold

__all__ = [
    "LABELS",
    "NOW_PREFIX",
    "QUOTE_MARK",
    "Line",
    "annotate_document",
    "correction_lines",
    "format_lines",
    "one_line",
    "render_block",
    "retracted_line",
    "sanitize",
    "unannotate",
]

Line = tuple[str, str]
"""A labelled line beneath a memory: (label, text); the label is a key of :data:`LABELS`."""

LABELS = {
    "now": "    now: ",
    "superseded": "    superseded correction: ",
    "retracted": "    retracted: ",
}
"""How each kind of line starts: four spaces, the label, a colon and one space."""

NOW_PREFIX = LABELS["now"]
"""How a now-line starts: four spaces, ``now:`` and one space."""

RETRACTED_TEXT = "this correction was withdrawn; do not rely on it."
"""What the retracted mark says."""

QUOTE_MARK = "(quoted) "
"""Put before any line of a memory's own text that could pass for a now-line."""

_WS = re.compile(r"\s+")
# Every character that starts a new line for a reader (the boundaries of str.splitlines).
_LINE_BREAK = re.compile(r"(\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])")
# A line that reads as a nowline line once invisible characters are gone and it is folded.
_NOW_LIKE = re.compile(r"^\W*(?:now|superseded\s*correction|retracted)\s*:")


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


def retracted_line() -> Line:
    """Return the mark shown beneath a recalled correction that was retracted."""
    return ("retracted", RETRACTED_TEXT)


def correction_lines(
    role: str, direct: Sequence[tuple[str, str]], newest: Sequence[tuple[str, str]]
) -> list[Line]:
    """Return the lines beneath a memory, in order, from its (id, text) corrections.

    Each direct correction that is not itself among the newest (its chain moved on), oldest
    first, as ``superseded``; then each newest correction, oldest first, as ``now``. A
    retracted correction shows the retracted mark instead.
    """
    if role == "retracted":
        return [retracted_line()]
    current = {cid for cid, _ in newest}
    lines: list[Line] = [("superseded", text) for cid, text in direct if cid not in current]
    lines += [("now", text) for _, text in newest]
    return lines


def _format(line: Line) -> str:
    """Return one labelled line as it is written."""
    label, text = line
    return LABELS[label] + one_line(text)


def format_lines(lines: Sequence[Line]) -> list[str]:
    """Return labelled lines as they are written (each indented by four spaces)."""
    return [_format(line) for line in lines]


def annotate_document(document: str, lines: Sequence[Line]) -> str:
    """Return ``document`` (sanitized) with its labelled lines beneath it."""
    return sanitize(document) + "".join("\n" + _format(line) for line in lines)


def unannotate(document: str) -> str:
    """Return the stored text that an annotated document was made from.

    Used on every write, so that a read-modify-write through ``query()`` never stores an
    annotation, in any process: trailing lines that start exactly with a nowline label are
    nowline's (stored text that looks like one is always shown quoted), and one quote mark is
    removed from every quoted line. Text without either comes back unchanged.
    """
    lines = document.split("\n")
    while len(lines) > 1 and any(lines[-1].startswith(p) for p in LABELS.values()):
        lines.pop()
    parts = _LINE_BREAK.split("\n".join(lines))
    return "".join(
        part[len(QUOTE_MARK) :]
        if i % 2 == 0 and part.startswith(QUOTE_MARK) and _looks_like_now_line(part)
        else part
        for i, part in enumerate(parts)
    )


def render_block(items: Iterable[tuple[str, Sequence[Line]]]) -> str:
    """Render (memory text, labelled lines) pairs as the context block.

    A memory's further lines are indented by two spaces, and any line of it that looks like a
    nowline line is marked as quoted, so only nowline's own lines read as such.
    """
    out = ["Relevant memory:"]
    for document, lines in items:
        text = sanitize(document).splitlines() or [""]
        out.append("- " + text[0])
        out.extend("  " + line for line in text[1:])
        out.extend(_format(line) for line in lines)
    if len(out) == 1:
        out.append("(none)")
    return "\n".join(out)
