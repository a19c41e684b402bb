"""Chroma-side prefilter for a correction's candidates: a regex that can never cause a miss.

To find every record a new correction reaches without reading every document into Python,
nowline asks Chroma for the documents that match one ``$regex`` and lets the matcher decide.
The regex must match every document in which a deprecated string *occurs* (the README's "Matching"),
although Chroma's ``(?i)`` folds only simple cases. It is the alternation of:

* for each phrase, an *anchor* under ``(?i)``: the phrase itself when its folded form is ASCII,
  else the longest run of ASCII letters, digits, ``_``, ``-`` and ``/`` in its folded form
  (any ASCII substring of the folded phrase works: wherever the phrase occurs, so does it);
* one character class of every non-ASCII code point whose folded form shares a character with
  an anchor (full-width letters, ligatures, ``ẞ``, the Kelvin sign, ...), and every combining
  mark. A folded text contains an ASCII anchor either as a plain case variant of raw ASCII, or
  through a raw character that folds into one of the anchor's characters, or through a mark.
* a phrase without a usable anchor (no ASCII run of two or more such characters) adds its own
  characters to the class instead: any document it occurs in contains one of them, or a
  character that folds into one.

Dotted names (the README's "Matching") need nothing here: that rule only takes occurrences
away (a ``.`` and a token character after a dotted name end none), and the regex only has to
find a superset of the documents that hold an occurrence.

The class is built from a table of every code point that folding changes. The table for the
running Python's Unicode version is computed once per process (about 0.6 s), unless it is the
version shipped in ``foldtable.txt`` (then it is parsed in milliseconds).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from ..matchers import fold

__all__ = ["candidate_regex"]


@functools.cache
def _fold_table() -> tuple[dict[str, str], frozenset[str]]:
    """Return {char: folded} for chars that folding changes, and the set of combining marks."""
    # The table is data (foldtable.txt): read it only when a prefilter is first built.
    from . import foldtable as _foldtable

    version, folds, marks = _foldtable.load()
    if unicodedata.unidata_version == version:
        return folds, marks
    return _foldtable.compute()


def candidate_regex(phrases: Iterable[str]) -> str:
    """Return a Chroma ``$regex`` matching every document in which any phrase could occur."""
    return _candidate_regex(frozenset(phrases))


@functools.lru_cache(maxsize=1024)
def _candidate_regex(phrases: frozenset[str]) -> str:
    """Build the regex of ``candidate_regex`` (memoised: a scan of the fold table per call)."""
    folds, marks = _fold_table()
    anchors: set[str] = set()
    wanted: set[str] = set()
    klass: set[str] = set(marks)
    for phrase in phrases:
        folded = fold(phrase)
        anchor = folded if folded.isascii() else _anchor(folded)
        if anchor:
            anchors.add(anchor)
            wanted.update(anchor)
        else:
            wanted.update(folded)
            klass.update(c for c in folded if not c.isascii())
    klass.update(c for c, f in folds.items() if wanted.intersection(f))
    parts = sorted(_escape(a) for a in anchors) + ([_char_class(klass)] if klass else [])
    return "(?i)(?:" + "|".join(parts) + ")"


def _anchor(folded: str) -> str:
    """Return the longest identifier-like ASCII run of a folded phrase ("" if none of 2+)."""
    runs = re.findall(r"[a-z0-9_/-]{2,}", folded)
    return max(runs, key=len) if runs else ""


def _escape(s: str) -> str:
    """Escape ``s`` for Rust's regex syntax: ASCII letters and digits stay, the rest is hex."""
    return "".join(c if c.isascii() and c.isalnum() else f"\\x{{{ord(c):X}}}" for c in s)


def _char_class(chars: Iterable[str]) -> str:
    """Return a compact Rust regex character class of ``chars`` (consecutive runs as ranges)."""
    cps = sorted({ord(c) for c in chars})
    ranges: list[tuple[int, int]] = []
    for cp in cps:
        if ranges and cp == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    body = "".join(f"\\x{{{a:X}}}" if a == b else f"\\x{{{a:X}}}-\\x{{{b:X}}}" for a, b in ranges)
    return f"[{body}]"
