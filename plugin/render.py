r"""Rendering recalled memories with their labelled lines, so that no stored text can forge one.

In the context block (:func:`render_block`), the stale memories come first, under a heading
that says what they are (:data:`OUTDATED_HEADING`), each starting with the mark ``[outdated]``;
the other memories follow under :data:`CURRENT_HEADING`. A block with no stale memory is a plain
list. A stale memory is followed by labelled lines, each indented by four spaces:

* ``now: <text>`` — the newest correction of a chain: what is true now;
* ``superseded correction: <text>`` — a correction that names the memory's string directly but
  was itself corrected later (its chain's ``now:`` line follows);
* ``retracted: ...`` — under a recalled correction that was withdrawn.

A current memory may carry one more kind of line, which changes nothing of its role:

* ``not covered: ...`` — it names a longer name that begins like a deprecated string of a
  correction shown in the same block (``metalcraftai/ufo-hosted`` beside a correction of
  ``metalcraftai/ufo``), which that correction does not reach (:data:`NOT_COVERED_TEXT`).

A document that comes back to a write exactly as nowline showed that record is stored as it was
(:func:`strip_annotation`); any other text is stored as given.

nowline writes labelled lines of its own beneath a hit (``    now: ...``). Text
from the store (a memory, a correction) must never produce a line that a reader could take for
one of them. The readers are a model, which reads the characters in order, and a person, who
sees glyphs in a terminal or a window. So a line of stored text *reads as a label line* when its
**skeleton** starts with a label word and a colon, or with a mark word (:data:`MARKS`: the
``[outdated]`` mark, whatever brackets surround it) (:func:`_looks_like_label_line`). The skeleton
of a line is what is left of it for such a reader:

- each character is compatibility-decomposed (NFKD) and case-folded, so full-width, circled,
  mathematical and accented letters count as the plain ones;
- only letters, digits and colons are kept; everything else a reader could skip over or not see
  at all is dropped: spaces of every kind (``White_Space``, and blanks such as U+2800 BRAILLE
  PATTERN BLANK, which is a symbol), punctuation, symbols, underscores (Markdown emphasis),
  combining marks, format and control characters, unassigned and private-use code points, and
  modifier letters (general category Lm: apostrophes, stress and length marks, U+0640 ARABIC
  TATWEEL), which read as marks or punctuation;
- letters that are ``Default_Ignorable_Code_Point`` (the Hangul fillers U+115F, U+1160, U+3164
  and U+FFA0, which render as nothing) are dropped too. That property comes from
  ``DerivedCoreProperties.txt`` and is not in :mod:`unicodedata`, so its ranges are shipped
  below; ``tests/core/test_render.py`` checks them against the ``regex`` package's
  ``\p{Default_Ignorable_Code_Point}``.

A line whose characters can be reordered for display (a right-to-left letter, or any explicit
bidirectional embedding, override or isolate) reads as a label line when a label word and a
colon occur *anywhere* in its skeleton, forwards or backwards, since a bidirectional display
can put any part of the line first. Quoting such a line puts a left-to-right word first, which
fixes the line's direction and keeps the mark in front.

Stored lines that read as label lines are marked with :data:`QUOTE_MARK`. Look-alike letters
from other scripts (a Cyrillic "о") and look-alike colons (U+0589 ARMENIAN FULL STOP) are not
mapped: that needs the confusables data of Unicode TR39.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import Any

from .matchers import Matcher

__all__ = [
    "CURRENT_HEADING",
    "CUT_MARK",
    "LABELS",
    "MARKS",
    "MAX_HIT_CHARS",
    "MIN_TERMINAL_WIDTH",
    "NOT_COVERED_TEXT",
    "NOW_PREFIX",
    "OUTDATED_HEADING",
    "OUTDATED_MARK",
    "PREFIXES",
    "QUOTE_MARK",
    "RETRACTED_TEXT",
    "TIME_KEYS",
    "Line",
    "Shown",
    "annotate_document",
    "cap_text",
    "correction_lines",
    "format_lines",
    "iso_time",
    "iso_times",
    "json_text",
    "line_text",
    "not_covered_line",
    "one_line",
    "render_block",
    "retracted_line",
    "sanitize",
    "strip_annotation",
    "terminal_safe",
]

Line = tuple[str, str]
"""A labelled line beneath a memory: (kind, text); the kind is a key of :data:`PREFIXES`."""

PREFIXES = {
    "now": "    now: ",
    "superseded": "    superseded correction: ",
    "retracted": "    retracted: ",
    "not covered": "    not covered: ",
}
"""How each kind of line starts: four spaces, the label, a colon and one space."""

NOW_PREFIX = PREFIXES["now"]
"""How a now-line starts: four spaces, ``now:`` and one space."""

RETRACTED_TEXT = "this correction was withdrawn; do not rely on it."
"""What the retracted mark says."""

LABELS: tuple[str, ...] = (
    "now",
    "superseded correction",
    "retracted",
    "current memories",
    "not covered",
)
"""The words of nowline's labels and headings; a stored line that reads as ``<word>:`` is quoted.

Each must hold a letter or a digit; spaces and punctuation in it are not significant.
"""

MARKS: tuple[str, ...] = ("outdated",)
"""The words of nowline's marks; a stored line whose skeleton starts with one is quoted.

A mark stands at the start of a memory's line in the context block, with no colon, so a stored
line that starts with the word (in any brackets, or none) is quoted.
"""

OUTDATED_MARK = "[outdated] "
"""Put before the first line of each stale memory (one with lines beneath it) in the block."""

OUTDATED_HEADING = (
    "Outdated memories (no longer true, kept as history; the now: line beneath each says what "
    "is true now):"
)
"""Heads the stale memories of a context block, which come first, in rank order."""

CURRENT_HEADING = "Current memories:"
"""Heads the other memories of a block that holds a stale one, after the stale ones.

How the block is laid out was chosen with a small local model (``bench/reader.md``, the format
study). On 30 dev variations of the incident's clone task, the mark with a one-line legend led
it to the moved repository 19 of 30 times, and the stale memories grouped first under
:data:`OUTDATED_HEADING` 22 of 30, with the question whose answer must not change (the sibling
repository) right 30 of 30 in both. Current memories first gave 26 of 30 but sent the sibling
question to a made-up repository 5 times, so it was not chosen. On 30 fresh test variations:
27 of 30 with this layout, 20 with the mark and legend, 5 with the ``now:`` line alone.
"""

QUOTE_MARK = "(quoted) "
"""Put before any line of a memory's own text that could pass for a label line."""

MIN_TERMINAL_WIDTH = 20
"""The narrowest terminal :func:`terminal_safe` wraps for."""

MAX_HIT_CHARS = 2000
"""Most characters of a memory's own text that a rendered hit shows (about 500 tokens).

A memory is meant to be a fact in a sentence or two; an agent that stored a whole log or file
as one memory would otherwise fill the model's context with it (a 1.1 MB memory made a
1.1-million-character recall). Past the cap the text is cut (at a space when one is near) and
ends with :data:`CUT_MARK`, which names the record's id, so a program can read the whole
record (``Collection.hits([id])`` or ``get(ids=[id])``). The labelled lines beneath a hit are
never cut: a now-line is shown in full under every stale hit.
"""

CUT_MARK = " [… {more:,} more characters cut; the whole memory is record {id!r}]"
"""Ends a memory's text cut at :data:`MAX_HIT_CHARS` (``more`` and ``id`` are filled in)."""

_WS = re.compile(r"\s+")
# Every character that starts a new line for a reader (the boundaries of str.splitlines).
_LINE_BREAK = re.compile(r"(\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])")

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt) as inclusive ranges. On a
# mismatch, tests/core/test_render.py::test_default_ignorable_table_matches_unicode prints the new
# table.
_DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_DI_STARTS = tuple(start for start, _ in _DEFAULT_IGNORABLE)

# Bidirectional classes of characters that let a display reorder a line (UAX #9); "" is the
# class unicodedata gives an unassigned code point.
_REORDERING = frozenset(
    {"", "R", "AL", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
)


def one_line(text: str) -> str:
    """Return ``text`` on one line: every run of whitespace becomes one space."""
    return _WS.sub(" ", text).strip()


def _is_default_ignorable(c: str) -> bool:
    """Return whether the character ``c`` is a Unicode ``Default_Ignorable_Code_Point``."""
    cp = ord(c)
    i = bisect.bisect_right(_DI_STARTS, cp) - 1
    return i >= 0 and cp <= _DEFAULT_IGNORABLE[i][1]


@functools.lru_cache(maxsize=8192)
def _skeleton_of_char(c: str) -> str:
    """Return what is left of one non-ASCII character in a line's skeleton (often nothing)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", c).casefold())
    return "".join(
        d
        for d in folded
        if d == ":"
        or (d.isalnum() and unicodedata.category(d) != "Lm" and not _is_default_ignorable(d))
    )


_ASCII_SKELETON = tuple(c.lower() if c.isalnum() or c == ":" else "" for c in map(chr, range(128)))


def _skeleton(line: str, limit: int | None = None, *, leading_colons: bool = False) -> str:
    """Return the skeleton of ``line`` (see the module docstring), or its first ``limit`` chars.

    Colons before the first letter or digit are dropped too, unless ``leading_colons``.
    """
    out: list[str] = []
    n = 0
    for c in line:
        kept = _ASCII_SKELETON[ord(c)] if c < "\x80" else _skeleton_of_char(c)
        if not kept or (not n and kept == ":" and not leading_colons):
            continue
        out.append(kept)
        n += len(kept)
        if limit is not None and n >= limit:
            break
    return "".join(out)[:limit]


def _reorders(line: str) -> bool:
    """Return whether a bidirectional display could reorder the characters of ``line``.

    A code point unassigned in this Python's Unicode data (bidirectional class "") counts
    too: a display with newer data may know it as a right-to-left letter.
    """
    return not line.isascii() and any(
        b in _REORDERING for b in map(unicodedata.bidirectional, line)
    )


@functools.lru_cache(maxsize=16)
def _label_skeletons(labels: tuple[str, ...]) -> tuple[str, ...]:
    """Return the skeleton of each label followed by its colon, and of each mark word."""
    return tuple(_skeleton(word) + ":" for word in labels) + tuple(map(_skeleton, MARKS))


def _looks_like_label_line(line: str, labels: tuple[str, ...] = LABELS) -> bool:
    """Return whether a reader could take a line of stored text for one of nowline's labels.

    See the module docstring for the skeleton. A line that starts with the quote mark counts
    too, so stored text cannot pre-quote itself.
    """
    words = _label_skeletons(labels)
    if _reorders(line):
        skeleton = _skeleton(line, leading_colons=True)
        backwards = skeleton[::-1]
        if any(w in skeleton or w in backwards for w in words):
            return True
    elif _skeleton(line, max(map(len, words), default=0)).startswith(words):
        return True
    return _skeleton(line, len("quoted")) == "quoted" and _visible(line).lstrip().startswith(
        QUOTE_MARK.strip()
    )


def _visible(line: str) -> str:
    """Return ``line`` NFKC-casefolded without format, control and default-ignorable chars."""
    kept = "".join(
        c
        for c in line
        if not _is_default_ignorable(c) and unicodedata.category(c) not in ("Cc", "Cf", "Cn")
    )
    return unicodedata.normalize("NFKC", kept).casefold()


def sanitize(document: str, labels: tuple[str, ...] = LABELS) -> str:
    """Return ``document`` with every line that reads as a label line marked as quoted.

    Lines end at every line boundary of :meth:`str.splitlines`. Text without such lines is
    returned unchanged. A line that already starts with the quote mark is marked again, so the
    marking cannot be undone by the stored text itself.

    Args:
        document: stored text.
        labels: the label words (see :data:`LABELS`).

    Returns:
        The text with :data:`QUOTE_MARK` before each such line.
    """
    parts = _LINE_BREAK.split(document)  # lines at even indexes, their breaks in between
    lines = parts[::2]
    if not any(_looks_like_label_line(line, labels) for line in lines):
        return document
    return "".join(
        QUOTE_MARK + part if i % 2 == 0 and _looks_like_label_line(part, labels) else part
        for i, part in enumerate(parts)
    )


NOT_COVERED_TEXT = "{name} did not move; use {name} as written."
"""What a ``not covered:`` line says (``name`` is filled in).

Beneath a current memory that names a longer name beginning like a shown correction's
deprecated string (``metalcraftai/ufo-hosted`` beside a correction of ``metalcraftai/ufo``).
Chosen on the reader benchmark's broad sibling cases (bench/reader.md): told "use ufo-ai/ufo
for all UFO work", a small model moved the untouched sibling to the new owner without it. The
line does not repeat the old string: an earlier wording that named it ("the correction of
metalcraftai/ufo does not apply to ...") kept as many siblings and cost clone answers, since
the old string was then written again among the current memories.
"""


def not_covered_line(name: str) -> Line:
    """Return the line that says the corrections shown leave ``name`` as it is."""
    return ("not covered", NOT_COVERED_TEXT.format(name=name))


def retracted_line() -> Line:
    """Return the mark shown beneath a recalled correction that was retracted."""
    return ("retracted", RETRACTED_TEXT)


def line_text(text: str, replaced_by: Sequence[str] = ()) -> str:
    """Return what a correction's line shows: its text, and the new values the text omits.

    A writer sometimes says only the end of the old value ("legal@x.example will bounce from
    now on") and gives the new one in ``replaced_by`` alone; the line then ends "(replaced by
    legal.desk@x.example)", so that a reader has the value to act on. Measured on the third
    blind act set: three such corrections were stored, and the model mailed the old address
    each time. A text that names every new value (token-bounded, as matching reads) is shown
    as it is.
    """
    missing = [v for v in replaced_by if v.strip() and not Matcher([(v, 0)]).find(text)]
    return f"{text} (replaced by {', '.join(missing)})" if missing else text


Shown = tuple[str, str, Sequence[str]]
"""A correction as its line shows it: its id, its text and its new values (``replaced_by``)."""


def correction_lines(
    retracted: bool, direct: Sequence[Shown], newest: Sequence[Shown]
) -> list[Line]:
    """Return the lines beneath a memory, in order, from its (id, text, new values) corrections.

    The one rule of what a stale hit, a trip and a recalled correction show (DESIGN §5): each
    direct correction that is not itself among the newest (its chain moved on), oldest first,
    as ``superseded``; then each newest correction, oldest first, as ``now``. A retracted
    correction (``retracted``) shows the retracted mark instead. Each line is the
    correction's text and the new values it omits (:func:`line_text`).
    """
    if retracted:
        return [retracted_line()]
    current = {cid for cid, _, _ in newest}
    lines: list[Line] = [
        ("superseded", line_text(text, news)) for cid, text, news in direct if cid not in current
    ]
    lines += [("now", line_text(text, news)) for _, text, news in newest]
    return lines


def _format(line: Line) -> str:
    """Return one labelled line as it is written."""
    kind, text = line
    return PREFIXES[kind] + one_line(text)


def format_lines(lines: Sequence[Line]) -> list[str]:
    """Return labelled lines as they are written (each indented by four spaces)."""
    return [_format(line) for line in lines]


def annotate_document(document: str, lines: Sequence[Line]) -> str:
    """Return ``document`` (sanitized) with its labelled lines beneath it."""
    return sanitize(document) + "".join("\n" + _format(line) for line in lines)


def strip_annotation(document: str, stored: str) -> str:
    """Return the text to store for ``document``, written over a record that holds ``stored``.

    A document that comes back to a write exactly as nowline showed that record (its stored
    text with label-like lines quoted, then only nowline's own lines beneath it) is stored as
    it was: nothing of nowline's is ever stored by a read-modify-write. Any other text is
    stored as given, quote marks and label-like lines included: only text nowline itself
    added is removed, and only where that is certain.

    Args:
        document: the text to write.
        stored: the record's stored text.
    """
    shown = sanitize(stored)
    if document == shown:
        return stored
    if not document.startswith(shown + "\n"):
        return document
    tail = document[len(shown) + 1 :].split("\n")
    if all(
        any(line.startswith(p) and line[len(p) :].strip() for p in PREFIXES.values())
        for line in tail
    ):
        return stored
    return document


def cap_text(text: str, record_id: str, limit: int = MAX_HIT_CHARS) -> str:
    """Return ``text`` cut to at most ``limit`` characters of its own, marked with its id.

    The cut falls at the last whitespace of the final tenth before the limit when there is
    one, never before a combining mark; :data:`CUT_MARK` says how much was cut and which
    record holds the rest. Text within the limit is returned unchanged.
    """
    if len(text) <= limit:
        return text
    cut = limit
    space = max(text.rfind(" ", limit - limit // 10, limit), text.rfind("\n", 0, limit))
    if space > limit - limit // 10:
        cut = space
    while cut > 1 and unicodedata.category(text[cut])[0] == "M":
        cut -= 1
    head = text[:cut].rstrip()
    return head + CUT_MARK.format(more=len(text) - len(head), id=record_id)


def render_block(items: Iterable[tuple[str, Sequence[Line]]]) -> str:
    r"""Render (memory text, labelled lines) pairs as the context block.

    A stale memory (one with ``now:`` or ``superseded correction:`` lines) starts with
    :data:`OUTDATED_MARK`. A block that holds one lists the stale memories first, under
    :data:`OUTDATED_HEADING`, then the others under :data:`CURRENT_HEADING`, each group in the
    order given; a block without one is the memories in order. A memory's further lines are
    indented by two spaces, and any line of it that reads as a label line (or starts with a
    mark word) is marked as quoted, so only nowline's own lines read as labels; the headings
    stand at the start of a line, where no memory text can. Every ``"\n"`` of the result is
    nowline's own: the memory is split at every line boundary and each correction is put on
    one line.
    """
    stale: list[str] = []
    current: list[str] = []
    for document, lines in items:
        text = sanitize(document).splitlines() or [""]
        old = any(kind in ("now", "superseded") for kind, _ in lines)
        into = stale if old else current
        into.append("- " + (OUTDATED_MARK if old else "") + text[0])
        into.extend("  " + line for line in text[1:])
        into.extend(_format(line) for line in lines)
    out = ["Relevant memory:"]
    if stale:
        out += [OUTDATED_HEADING, *stale]
        out += [CURRENT_HEADING, *current] if current else []
    else:
        out += current or ["(none)"]
    return "\n".join(out)


# What a terminal acts on instead of printing: C0 controls but newline and tab, DEL, C1
# controls, surrogates (which surrogateescape would write out as raw bytes), and the Unicode
# line and paragraph separators.
# ...and the explicit bidirectional controls, which would reorder what a terminal shows.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]"
)


def _escape(match: re.Match[str]) -> str:
    """Return a visible, printable stand-in for one unprintable character."""
    cp = ord(match.group())
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}"


def _columns(c: str) -> int:
    """Return at least the number of terminal columns ``c`` advances the cursor by."""
    if c == "\t":
        return 8
    return 1 if c < "\x80" else 2


def _fit(text: str, budget: int) -> int:
    """Return how many leading characters of ``text`` fit in ``budget`` columns (at least 1).

    A cut never falls just before a combining mark or a default-ignorable character (joiners,
    variation selectors) when it can fall earlier in the row instead.
    """
    used = 0
    for i, c in enumerate(text):
        used += _columns(c)
        if used > budget:
            cut = max(i, 1)
            j = cut
            while j > 1 and (
                unicodedata.category(text[j])[0] == "M" or _is_default_ignorable(text[j])
            ):
                j -= 1
            return j
    return len(text)


def _wrap(line: str, width: int) -> list[str]:
    """Return ``line`` cut into rows of at most ``width`` columns (counted generously).

    A row after the first that reads as a label line is shortened to make room for the quote
    mark, and starts with it.
    """
    cut = _fit(line, width)
    rows = [line[:cut]]
    rest = line[cut:]
    while rest:
        cut = _fit(rest, width)
        prefix = ""
        if _looks_like_label_line(rest[:cut]):
            prefix = QUOTE_MARK
            cut = _fit(rest, width - len(QUOTE_MARK))
        rows.append(prefix + rest[:cut])
        rest = rest[cut:]
    return rows


def terminal_safe(text: str, *, width: int | None = None) -> str:
    r"""Return ``text`` so that printing it to a terminal moves to a new line only at its ``\n``.

    Every character a terminal would act on instead of printing is replaced by a visible
    escape: C0 controls other than ``\n`` and ``\t`` (``ESC`` becomes ``\x1b``, so an escape
    sequence prints as text), DEL, C1 controls (``\x9b`` is a one-character CSI), surrogates,
    and U+2028/U+2029. A printed ``\r`` or backspace could otherwise overwrite a line's start.

    Call it on finished output whose ``\n`` are all nowline's own, such as
    :func:`render_block`'s: memory text must already be split into lines and sanitized there.
    It keeps every other character, including invisible ones, which sanitizing took into
    account.

    A terminal also starts a new row where a long line wraps, and a stored line can be padded
    so that a forged label starts that row. Pass the terminal's ``width`` (columns) to cut long
    lines into rows that fit (counting two columns for every non-ASCII character and eight for
    a tab, so the terminal itself never wraps) and to quote every continuation row that reads
    as a label line. Without ``width`` (output to a file or a pipe), lines are left whole.

    Args:
        text: rendered output, for example ``Recall.render()``.
        width: the terminal's width in columns, or None not to wrap.

    Returns:
        The text to print.

    Raises:
        ValueError: if ``width`` is smaller than :data:`MIN_TERMINAL_WIDTH`.
    """
    if width is not None and width < MIN_TERMINAL_WIDTH:
        raise ValueError(f"width must be at least {MIN_TERMINAL_WIDTH} columns, got {width}")
    safe = _UNPRINTABLE.sub(_escape, text)
    if width is None:
        return safe
    return "\n".join(row for line in safe.split("\n") for row in _wrap(line, width))


# ------------------------------------------------------------------------ JSON output

# Inside a JSON string the C0 controls are already escaped by json.dumps; the rest are not.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")

TIME_KEYS = ("time", "retracted", "as_of")
"""The keys of nowline's models that hold times (epoch seconds)."""


def iso_time(seconds: float | None) -> str | None:
    """Return epoch seconds as ISO 8601 text in UTC (``...Z``), or None (none, or unusable)."""
    if seconds is None:
        return None
    try:
        stamp = datetime.fromtimestamp(seconds, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
    text = stamp.isoformat(timespec="milliseconds" if stamp.microsecond else "seconds")
    return text.replace("+00:00", "Z")


def iso_times(data: Any) -> Any:
    """Return JSON data whose nowline times are ISO 8601, each with its epoch as ``<key>_epoch``.

    The times are those of nowline's models (:data:`TIME_KEYS`: a correction's ``time`` and
    ``retracted``, a packet's ``as_of``); user metadata is left as stored.
    """
    if isinstance(data, list):
        return [iso_times(item) for item in data]
    if not isinstance(data, dict):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "metadata":
            out[key] = value
        elif key in TIME_KEYS and (value is None or isinstance(value, (int, float))):
            out[key] = iso_time(value)
            out[f"{key}_epoch"] = value
        else:
            out[key] = iso_times(value)
    return out


def json_text(data: Any) -> str:
    """Return ``data`` as indented JSON that is safe to print: controls inside strings escaped.

    ``json.dumps`` escapes the C0 controls; the C1 controls and the characters that reorder
    or hide text in a terminal (bidirectional controls, line and paragraph separators) are
    written as JSON unicode escapes too.
    """
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
