"""Case- and normalisation-folding of text, keeping a map back to the original offsets."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

__all__ = ["FoldedText", "fold", "fold_text", "is_token_char"]

# Code points with combining class 0 that can still compose with the character before them
# (they are the second half of a canonical pair), plus the Hangul vowel and trailing jamo that
# compose algorithmically. A segment must not start at one of them. If this list ever lags the
# Unicode tables, `_fold_run` notices and falls back to a coarser (still exact) segmentation.
_COMPOSES_BACKWARD = frozenset(
    [chr(c) for c in (
        0x09BE, 0x09D7, 0x0B3E, 0x0B56, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6,
        0x0D3E, 0x0D57, 0x0DCF, 0x0DDF, 0x0FB5, 0x0FB7, 0x102E, 0x1B35, 0x11127, 0x1133E,
        0x11357, 0x114B0, 0x114BA, 0x114BD, 0x115AF, 0x11930,
    )]
    + [chr(c) for c in range(0x1161, 0x1176)]
    + [chr(c) for c in range(0x11A8, 0x11C3)]
)

# A run of non-ASCII characters together with the one character before it, which may be the
# starter that following combining marks attach to ("e" + U+0301).
_NON_ASCII_RUN = re.compile(r".?[^\x00-\x7f]+", re.DOTALL)


def fold(s: str) -> str:
    """Return ``s`` as nowline compares it: NFKC-normalised, then casefolded."""
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

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Map the half-open folded span ``[start, end)`` to the original text's offsets.

        A span that begins or ends inside the folded form of one original cluster (``ß`` folds
        to ``ss``) is widened to cover that whole cluster.
        """
        if not self._folded_starts:
            return start, end
        return self._map(start, is_end=False), self._map(end - 1, is_end=True)

    def _map(self, pos: int, *, is_end: bool) -> int:
        """Map one folded offset (of a first or last character) to an original offset."""
        i = bisect_right(self._folded_starts, pos) - 1
        if self._linear[i]:
            return self._original_starts[i] + (pos - self._folded_starts[i]) + (1 if is_end else 0)
        return self._original_ends[i] if is_end else self._original_starts[i]


def fold_text(text: str) -> FoldedText:
    """Fold ``text`` (see :func:`fold`) and keep the map back to its original offsets.

    ASCII text takes a fast path (lowercasing, identity offsets). Elsewhere only the non-ASCII
    runs are segmented into character clusters and folded one cluster at a time.
    """
    if text.isascii():
        return FoldedText(text.lower(), (), (), (), ())
    parts: list[str] = []
    f_starts: list[int] = []
    o_starts: list[int] = []
    o_ends: list[int] = []
    linear: list[bool] = []
    f_pos = 0
    o_pos = 0

    def linear_piece(o_end: int) -> None:
        nonlocal f_pos, o_pos
        if o_end > o_pos:
            parts.append(text[o_pos:o_end].lower())
            f_starts.append(f_pos)
            o_starts.append(o_pos)
            o_ends.append(o_end)
            linear.append(True)
            f_pos += o_end - o_pos
            o_pos = o_end

    for run in _NON_ASCII_RUN.finditer(text):
        linear_piece(run.start())
        for seg_start, seg_end, seg_folded in _fold_run(text, run.start(), run.end()):
            parts.append(seg_folded)
            f_starts.append(f_pos)
            o_starts.append(seg_start)
            o_ends.append(seg_end)
            linear.append(len(seg_folded) == seg_end - seg_start == 1)
            f_pos += len(seg_folded)
        o_pos = run.end()
    linear_piece(len(text))
    return FoldedText(
        "".join(parts), tuple(f_starts), tuple(o_starts), tuple(o_ends), tuple(linear)
    )


def _fold_run(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """Split ``text[start:end]`` into clusters that fold independently; fold each one."""
    bounds = [start]
    for i in range(start + 1, end):
        c = text[i]
        if unicodedata.combining(c) == 0 and c not in _COMPOSES_BACKWARD:
            bounds.append(i)
    bounds.append(end)
    segs = [(a, b, fold(text[a:b])) for a, b in zip(bounds, bounds[1:])]
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
