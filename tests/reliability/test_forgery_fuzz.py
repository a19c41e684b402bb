"""Fuzzing the forgery rule: random Unicode around labels, read as a reader would.

See the README's "What a stale hit shows".

The oracle here is written from Unicode properties through the ``regex`` package, apart from
``nowline.render``, which takes them from :mod:`unicodedata` and a shipped table:

- a *reader line* ends at every character of line-break class BK, CR, LF or NL and every
  paragraph separator (bidirectional class B); this is also every boundary of
  :meth:`str.splitlines`;
- a reader does not see ``Default_Ignorable_Code_Point``, control, format, unassigned,
  private-use or surrogate code points, nor combining marks (an accented letter reads as the
  letter), reads modifier letters (Lm: apostrophes, length marks, tatweel) as marks, and reads
  text NFKD-decomposed and case-folded;
- a reader line *reads as a label* when, after any characters that are not letters or digits,
  it spells a label word (its letters may be spread out by blanks: ``White_Space`` and U+2800
  BRAILLE PATTERN BLANK) followed by blanks or Markdown emphasis and a colon.

The property: in every output of nowline (``render_block``, ``annotate_document``, and
``terminal_safe`` of the block as a terminal shows it, emulated by ``pyte``), the only lines
that read as a label are nowline's own now-lines. A line that a bidirectional display could
reorder must be quoted if a label occurs anywhere in it, forwards or backwards.

The default budget is small, for CI. For a long run::

    NOWLINE_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/reliability/test_forgery_fuzz.py
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence

import pytest
import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from nowline.render import (
    CURRENT_HEADING,
    LABELS,
    NOW_PREFIX,
    QUOTE_MARK,
    annotate_document,
    render_block,
    sanitize,
    terminal_safe,
)

EXAMPLES = int(os.environ.get("NOWLINE_FUZZ_EXAMPLES", "100"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_ALL = "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp < 0xE000)

# --- The reader (oracle) ---------------------------------------------------------------------

_READER_BREAK = regex.compile(
    r"\r\n|[\p{Line_Break=BK}\p{Line_Break=CR}\p{Line_Break=LF}\p{Line_Break=NL}\p{Bidi_Class=B}]"
)
_UNSEEN = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{C}\p{M}\p{Lm}]")
_BLANK = r"[\p{White_Space}\u2800]"
# Surrogates are excluded: regex gives them class R, Unicode's DerivedBidiClass.txt gives L.
_REORDERING = regex.compile(
    r"[[\p{Bidi_Class=R}\p{Bidi_Class=AL}\p{Bidi_Class=LRE}\p{Bidi_Class=RLE}\p{Bidi_Class=LRO}"
    r"\p{Bidi_Class=RLO}\p{Bidi_Class=PDF}\p{Bidi_Class=LRI}\p{Bidi_Class=RLI}"
    r"\p{Bidi_Class=FSI}\p{Bidi_Class=PDI}]--\p{Cs}]",
    regex.V1,
)


def _lined(items: list[tuple[str, list[str]]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Return (memory, correction texts) pairs as render_block() takes them: now-lines."""
    return [(doc, [("now", c) for c in corrections]) for doc, corrections in items]


def _spelled(word: str) -> str:
    """Return a pattern for ``word`` with blanks allowed between its letters."""
    return f"{_BLANK}*".join(regex.escape(c) if c != " " else f"{_BLANK}+" for c in word)


_LABEL = "(?:" + "|".join(_spelled(w) for w in LABELS) + f")(?:{_BLANK}|[*_~`])*:"
_READS_AS_LABEL = regex.compile(r"^[^\p{L}\p{N}]*" + _LABEL)
_LABEL_ANYWHERE = regex.compile(r"(?<![\p{L}\p{N}])" + _LABEL)


def reader_lines(text: str) -> list[str]:
    """Return the lines of ``text`` as a reader splits them."""
    return _READER_BREAK.split(text)


def reader_view(line: str) -> str:
    """Return ``line`` as a reader reads it: decomposed, case-folded, unseen characters gone."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", line).casefold())
    return _UNSEEN.sub("", decomposed)


def reads_as_label(line: str) -> bool:
    """Return whether a reader could take ``line`` for one of nowline's label lines."""
    return bool(_READS_AS_LABEL.match(reader_view(line)))


def label_anywhere(line: str) -> bool:
    """Return whether a label occurs anywhere in ``line``, forwards or backwards."""
    view = reader_view(line)
    return bool(_LABEL_ANYWHERE.search(view) or _LABEL_ANYWHERE.search(view[::-1]))


def own_now_lines(items: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """Return the now-lines nowline itself writes for ``items``, in order."""
    return [NOW_PREFIX + " ".join(c.split()) for _, corrections in items for c in corrections]


def own_block_labels(items: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """Return the label lines render_block() itself writes for ``items``, in order.

    The stale memories (those with now-lines) come first, so their now-lines do; the heading of
    the current memories follows them when the block holds both kinds.
    """
    both = any(c for _, c in items) and not all(c for _, c in items)
    return own_now_lines(items) + ([CURRENT_HEADING] if both else [])


# --- Random documents ------------------------------------------------------------------------

_CATEGORIES = sorted({unicodedata.category(c) for c in _ALL} - {"Cs"})
_SPLITLINES_BREAKS = sorted(
    {c for line in _ALL.splitlines(keepends=True) for c in line[len(line.splitlines()[0]) :]}
)
_LINE_BREAKS = sorted(set(_READER_BREAK.findall(_ALL)) | set(_SPLITLINES_BREAKS) | {"\r\n"})
_UNSEEN_CHARS = sorted(
    set(regex.findall(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]", _ALL))
    | set(regex.findall(_BLANK, _ALL))
)
# What moves a terminal's cursor to another line or back over a line's start.
_TERMINAL = [
    "\r", "\b" * 12, "\x1b[1E", "\x1b[B\x1b[G", "\x1bE", "\x1bD", "\x1bM", "\x9bE", "\x9b1;1H",
    "\x84", "\x85", "\x8d", "\x1b[2K\r", "\x1b[1;1H", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
    "\x1b[A", "\x1b7\x1b8", "\x0b", "\x0c", "\t", "\ud83d", "\udc1b",
]  # fmt: skip
_BIDI = ["\u202e", "\u202d", "\u202b", "\u2067", "\u2068", "\u2069", "\u202c", "\u200f", "א", "ب"]
_PREFIXES = ["", "    ", "\t", "- ", "> ", "**", "__", " * ", NOW_PREFIX, QUOTE_MARK, "\u3000"]
# What may stand between a label's letters: blanks, marks and letters that read as nothing.
_BETWEEN = ["\u115f", "\u1160", "\u3164", "\uffa0", "\u034f", "\u02bc", "\u0640", "\u02d0",
            "\u2800", "\u200d", "\U000e0041", "\ufe0f", "\u17b4", "\u0301"]  # fmt: skip
_between = st.one_of(st.just(""), st.sampled_from(_BETWEEN), st.sampled_from(_UNSEEN_CHARS))
_COLONS = [":", "：", "﹕", "︓", " :", "**:", "\u2009:", "\u200b:"]


@st.composite
def label_like(draw: st.DrawFn) -> str:
    """Return a label word dressed up to look like a label line (or nearly)."""
    word = draw(st.sampled_from([*LABELS, "quoted", "know", "nowhere"]))
    out = []
    for c in word:
        form = draw(
            st.sampled_from(["plain", "upper", "wide", "bold", "circled", "mark", "precomposed"])
        )
        if c == " " or form == "plain":
            out.append(c)
        elif form == "upper":
            out.append(c.upper())
        elif form == "wide":
            out.append(chr(ord(c) + 0xFEE0))
        elif form == "bold":
            out.append(chr(0x1D41A + ord(c) - ord("a")))
        elif form == "circled":
            out.append(chr(0x24D0 + ord(c) - ord("a")))
        else:
            mark = draw(st.sampled_from(["\u0300", "\u0301", "\u0303", "\u0308", "\u0338"]))
            out.append(c + mark if form == "mark" else unicodedata.normalize("NFC", c + mark))
        out.append(draw(_between))
    prefix = draw(st.sampled_from(_PREFIXES)) + draw(_between)
    colon = draw(st.sampled_from(_COLONS))
    return prefix + "".join(out) + colon + draw(st.text(max_size=6))


_piece = st.one_of(
    st.text(max_size=8),
    st.sampled_from(_CATEGORIES).flatmap(
        lambda cat: st.text(st.characters(categories=[cat]), min_size=1, max_size=3)
    ),
    st.sampled_from(_LINE_BREAKS),
    st.sampled_from(_UNSEEN_CHARS),
    st.sampled_from(_TERMINAL),
    st.sampled_from(_BIDI),
    label_like(),
    label_like(),
    st.just(" " * 37),
)
documents = st.lists(_piece, max_size=14).map("".join)
items_strategy = st.lists(
    st.tuples(documents, st.lists(documents, max_size=2)), min_size=1, max_size=3
)


# --- Properties ------------------------------------------------------------------------------


def _assert_only_own_labels(text: str, own: list[str]) -> None:
    """Assert that the reader lines of ``text`` reading as labels are exactly ``own``."""
    assert [line for line in reader_lines(text) if reads_as_label(line)] == own, text


@FUZZ
@given(items_strategy)
def test_render_block_shows_only_own_now_lines(items: list[tuple[str, list[str]]]) -> None:
    """In render_block(), only nowline's own now-lines read as labels, bidi lines included."""
    block = render_block(_lined(items))
    _assert_only_own_labels(block, own_block_labels(items))
    own = set(own_block_labels(items))
    for line in block.split("\n"):
        if _REORDERING.search(line) and label_anywhere(line) and line not in own:
            assert line.startswith(
                ("- " + QUOTE_MARK, "- [outdated] " + QUOTE_MARK, "  " + QUOTE_MARK)
            ), line


@FUZZ
@given(documents, st.lists(documents, max_size=2))
def test_annotated_documents_show_only_own_now_lines(doc: str, corrections: list[str]) -> None:
    """annotate_document() (query() documents) shows no label but its own now-lines."""
    _assert_only_own_labels(
        annotate_document(doc, [("now", c) for c in corrections]),
        own_now_lines([(doc, corrections)]),
    )


@FUZZ
@given(documents)
def test_sanitize_only_adds_quote_marks(doc: str) -> None:
    """sanitize() keeps the text and its line breaks; it only puts quote marks in."""
    out = sanitize(doc)
    assert out.replace(QUOTE_MARK, "") == doc.replace(QUOTE_MARK, "")
    assert len(out.splitlines()) == len(doc.splitlines())


_UNPRINTABLE = regex.compile(r"[\p{Cc}\p{Cs}\p{Zl}\p{Zp}--[\n\t]]", regex.V1)


@FUZZ
@given(items_strategy, st.sampled_from([None, 20, 33, 80]))
def test_terminal_safe_prints_nothing_a_terminal_acts_on(
    items: list[tuple[str, list[str]]], width: int | None
) -> None:
    """terminal_safe() leaves only printable characters, newlines and tabs."""
    block = render_block(_lined(items))
    out = terminal_safe(block, width=width)
    assert not _UNPRINTABLE.search(out)
    if width is None:
        assert out.count("\n") == block.count("\n")


def _screen(text: str, columns: int) -> tuple[list[str], int]:
    """Return the rows a terminal of ``columns`` shows for ``text``, and the cursor's row."""
    pytest.importorskip("pyte", reason="pyte emulates the terminal (dev extra)")
    from tests.reliability.terminal import show

    return show(text, columns)


@FUZZ
@given(items_strategy)
@example([("now\uffa0here\t:", [])])  # pyte 0.8 alone would drop "here" (see terminal.py)
def test_terminal_shows_only_own_now_lines(items: list[tuple[str, list[str]]]) -> None:
    """Printed to a terminal wide enough, the only rows that read as labels are nowline's own."""
    out = terminal_safe(render_block(_lined(items)))
    columns = max(map(len, out.split("\n"))) * 2 + 8 * out.count("\t") + 8
    rows, cursor = _screen(out, columns)
    assert cursor == out.count("\n")  # the terminal wrapped nothing and moved nowhere else
    labelled = [i for i, row in enumerate(rows) if reads_as_label(row)]
    own = [
        i
        for i, line in enumerate(out.split("\n"))
        if line.startswith(NOW_PREFIX) or line == CURRENT_HEADING
    ]
    assert labelled == own, rows
    assert len(own) == len(own_block_labels(items))


@FUZZ
@given(items_strategy, st.sampled_from([20, 27, 41, 80]))
def test_narrow_terminal_shows_only_own_now_lines(
    items: list[tuple[str, list[str]]], columns: int
) -> None:
    """Wrapped for a narrow terminal, no continuation row reads as a label."""
    out = terminal_safe(render_block(_lined(items)), width=columns)
    rows, cursor = _screen(out, columns)
    assert cursor == out.count("\n")  # every row fit: the terminal never wrapped one itself
    labelled = [row for row in rows if reads_as_label(row)]
    assert len(labelled) == len(own_block_labels(items)), rows
    assert all(
        row.startswith(NOW_PREFIX.rstrip()) or row.rstrip() == CURRENT_HEADING for row in labelled
    ), rows
