"""Case- and normalisation-folding of text, keeping a map back to the original offsets."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["FoldedText", "fold", "fold_text", "is_token_char"]

T = TypeVar("T")

# Code points with combining class 0 that can still compose with the character before them
# (they are the second half of a canonical pair), plus the Hangul vowel and trailing jamo that
# compose algorithmically. A segment must not start at one of them. If this list ever lags the
# Unicode tables, `_fold_run` notices and falls back to a coarser (still exact) segmentation.
# fmt: off
_COMPOSES_BACKWARD = frozenset(
    [chr(c) for c in (
        0x09BE, 0x09D7, 0x0B3E, 0x0B56, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6,
        0x0D3E, 0x0D57, 0x0DCF, 0x0DDF, 0x0FB5, 0x0FB7, 0x102E, 0x1B35, 0x11127, 0x1133E,
        0x11357, 0x114B0, 0x114BA, 0x114BD, 0x115AF, 0x11930,
    )]
    + [chr(c) for c in range(0x1161, 0x1176)]
    + [chr(c) for c in range(0x11A8, 0x11C3)]
)
# fmt: on

_ASCII_CHAR = re.compile(r"[\x00-\x7f]")


def fold(s: str) -> str:
    """Return ``s`` as nowline compares it: NFKC-normalised, then casefolded."""
    if s.isascii():  # ASCII is NFKC-stable, and casefolding it is lowercasing
        return s.lower()
    return unicodedata.normalize("NFKC", s).casefold()


def is_token_char(c: str) -> bool:
    """Return whether ``c`` is a token character: a Unicode letter or digit, ``_`` or ``-``."""
    return c.isalnum() or c == "_" or c == "-"


@dataclass(frozen=True, slots=True)
class FoldedText:
    """A folded text and the map from its offsets back to the original text's offsets.

    The map is a sorted list of segments. A *linear* segment maps offsets one to one (ASCII,
    where folding is lowercasing); an *atomic* segment is one original character cluster whose
    folded form has another length, so every folded offset inside it maps to its whole extent.
    """

    folded: str
    _folded_starts: tuple[int, ...]
    _original_starts: tuple[int, ...]
    _original_ends: tuple[int, ...]
    _linear: tuple[bool, ...]

    @property
    def identity(self) -> bool:
        """Whether folded offsets equal original offsets (every code point folds to one)."""
        return not self._folded_starts

    def original_spans(self, spans: list[tuple[int, int, T]]) -> list[tuple[int, int, T]]:
        """Map half-open ``(start, end, payload)`` folded spans to the original text's offsets.

        A span that begins or ends inside the folded form of one original cluster (``ß`` folds
        to ``ss``) is widened to cover that whole cluster.
        """
        if not self._folded_starts:
            return spans
        f_starts, o_starts, o_ends = self._folded_starts, self._original_starts, self._original_ends
        linear = self._linear
        out = []
        for start, end, payload in spans:
            # The segment holding the first character, then the one holding the last.
            i = bisect_right(f_starts, start) - 1
            o_start = o_starts[i] + (start - f_starts[i]) if linear[i] else o_starts[i]
            last = end - 1
            i = bisect_right(f_starts, last, i) - 1
            o_end = o_starts[i] + (last - f_starts[i]) + 1 if linear[i] else o_ends[i]
            out.append((o_start, o_end, payload))
        return out


def fold_text(text: str) -> FoldedText:
    """Fold ``text`` (see :func:`fold`) and keep the map back to its original offsets.

    ASCII text takes a fast path (lowercasing, identity offsets). Otherwise the whole text is
    folded at once, and only its non-ASCII runs are segmented into character clusters, to find
    where offsets shift; runs in which every code point folds to one code point keep the
    offsets as they are and leave no segment.
    """
    if text.isascii():
        return FoldedText(text.lower(), (), (), (), ())
    # Every run starts and ends next to an ASCII character (or the text's ends), and ASCII
    # characters are NFKC-stable: they never compose or reorder with a neighbour. So folding
    # the whole text equals folding the runs and the ASCII between them one by one.
    folded = fold(text)
    f_starts: list[int] = []
    o_starts: list[int] = []
    o_ends: list[int] = []
    linear: list[bool] = []
    shift = 0  # folded offset minus original offset, after the runs seen so far
    linear_from = 0  # original offset where the current one-to-one stretch began
    for run_start, r_end in _non_ascii_runs(text):
        # Take the character before the run too: it may be the starter that the run's first
        # combining marks attach to ("e" + U+0301). It is ASCII (runs are maximal).
        r_start = max(run_start - 1, 0)
        clusters, growth = _run_clusters(text[r_start:r_end])
        if not clusters:
            continue
        if r_start > linear_from:
            f_starts.append(linear_from + shift)
            o_starts.append(linear_from)
            o_ends.append(r_start)
            linear.append(True)
        for c_start, c_end, c_folded_start, c_linear in clusters:
            f_starts.append(r_start + shift + c_folded_start)
            o_starts.append(r_start + c_start)
            o_ends.append(r_start + c_end)
            linear.append(c_linear)
        shift += growth
        linear_from = r_end
    if not f_starts:
        return FoldedText(folded, (), (), (), ())
    if linear_from < len(text):
        f_starts.append(linear_from + shift)
        o_starts.append(linear_from)
        o_ends.append(len(text))
        linear.append(True)
    return FoldedText(folded, tuple(f_starts), tuple(o_starts), tuple(o_ends), tuple(linear))


def _non_ascii_runs(text: str) -> Iterator[tuple[int, int]]:
    """Yield (start, end) of every maximal run of non-ASCII code points in ``text``."""
    # Encoding with errors="replace" turns each non-ASCII code point into one b"?" at C speed,
    # so bytes.find locates the runs about five times faster than a regex scan of the text.
    marked = text.encode("ascii", "replace")
    n = len(text)
    i = marked.find(b"?")
    while i != -1:
        if text[i] == "?":  # a real question mark
            i = marked.find(b"?", i + 1)
            continue
        ascii_char = _ASCII_CHAR.search(text, i + 1)
        end = ascii_char.start() if ascii_char else n
        yield i, end
        i = marked.find(b"?", end)


@functools.lru_cache(maxsize=4096)
def _run_clusters(run: str) -> tuple[tuple[tuple[int, int, int, bool], ...], int]:
    """Return a run's clusters and how much longer its folded form is than the run.

    Each cluster is (start, end, folded start, linear), relative to the run. The tuple is
    empty when every code point of the run folds to exactly one code point (the common case:
    em dashes, curly quotes, precomposed accented letters), so offsets need no map there. Runs
    repeat a lot in real text, hence the cache.
    """
    segs = _fold_run(run, 0, len(run))
    if all(b - a == 1 and len(s) == 1 for a, b, s in segs):
        return (), 0
    clusters = []
    f_pos = 0
    for a, b, s in segs:
        clusters.append((a, b, f_pos, len(s) == b - a == 1))
        f_pos += len(s)
    return tuple(clusters), f_pos - len(run)


def _fold_run(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """Split ``text[start:end]`` into clusters that fold independently; fold each one."""
    bounds = [start]
    for i in range(start + 1, end):
        c = text[i]
        if unicodedata.combining(c) == 0 and c not in _COMPOSES_BACKWARD:
            bounds.append(i)
    bounds.append(end)
    segs = [(a, b, fold(text[a:b])) for a, b in itertools.pairwise(bounds)]
    # Folding must commute with the segmentation; if some composition crosses a boundary we
    # did not foresee, fold the run as one cluster (coarser offsets, identical matches).
    if "".join(s for _, _, s in segs) != fold(text[start:end]):
        return [(start, end, fold(text[start:end]))]
    # Empty folds (a lone default-ignorable char) are merged into the previous cluster.
    merged: list[tuple[int, int, str]] = []
    for seg in segs:
        if not seg[2] and merged:
            a, _, s = merged[-1]
            merged[-1] = (a, seg[1], s)
        else:
            merged.append(seg)
    return merged
