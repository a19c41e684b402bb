"""Generic deprecated strings: common words and bare numbers.

The rule is explained in the README's "Generic strings and anchors".

A deprecated string that is a common word (``billing``, ``owner``, ``Michelle``) or a bare
number (``2018``, ``5``) names no particular thing: it occurs in unrelated history and, through
incidental mentions, chains unrelated corrections. :func:`is_generic` says whether a string is
such a string, and why. It is a pure function of the string; the caller decides what to do
(refuse it, unless the correction has an ``about`` anchor or the caller accepts it explicitly).

The decision has four steps, cheapest first:

1. **Shape.** The string is NFKC-normalised and split at whitespace into words. Closing
   punctuation (``. , ; : ! ? *``, quotes, brackets) at a word's end and opening quotes or
   brackets at its start are dropped; a word of punctuation alone (``&``, ``–``) only
   separates. A word that is then neither all letters (with their combining marks and inner
   apostrophes: ``don't``) nor a number makes the string an *identifier*, never generic:
   ``metalcraftai/ufo``, ``#ufo-dev``, ``billing@oldco.example``, ``v1.2``, ``.NET``,
   ``PROJ-1234``, ``DATABASE_URL``, ``ufo-ai``, ``T-Pain``, ``mp3``, ``4th``, ``10.0.0.1``.
   Any ``/ @ # _ : .`` inside a word, any hyphenated compound and any word that mixes
   letters and digits marks an identifier.
2. **Bare numbers.** A string whose words are all numbers is generic: ``5``, ``2018``,
   ``1,000``, ``3.5``, ``-2``, ``$200,000``, ``4.25%``, ``2018-05-01``, ``17/08/2019``,
   ``10:30``, ``27–10``, ``1 000 000``. A number is digits with optional thousands groups and
   one decimal part, an optional sign, currency symbol or percent sign; numbers joined by
   ``-``, ``–``, ``—``, ``/`` or ``:`` (ranges, dates, times, scores) are one number.
   Dot-chained digits (``1.2.3``, ``10.0.0.1``) are versions and addresses, so step 1 keeps
   them. Long digit strings (account or phone numbers) are numbers too: anchor them.
3. **Length.** A string of more than :data:`MAX_GENERIC_WORDS` words (numbers included) that
   is not all numbers is never generic: common words in that order name a particular thing.
4. **Frequency.** Otherwise the string is generic when wordfreq estimates its frequency at or
   above :data:`ZIPF_THRESHOLD` in any one of the languages wordfreq covers (42). A single
   word is looked up in each language's list, case-insensitively (``Apple`` is ``apple``).
   Several words are combined within one language the way wordfreq combines the tokens of a
   phrase (``1/f = 1/f1 + 1/f2 + ...``, so a phrase is rarer than its rarest word), and a
   number among words counts with wordfreq's own estimate for its digits. So ``the project``,
   ``March 2019`` and ``Tom Brady`` are generic, while ``Elgin Baylor`` and ``Marina Bay
   Sands`` are not. This combination over-estimates how often a name made of common words
   occurs; it is kept because it errs towards asking for an anchor: on SituatedQA's old
   answers, treating the words as independent instead left three times the collateral links.

wordfreq (https://github.com/rspeer/wordfreq, code Apache-2.0, data CC BY-SA 4.0) is a frozen
snapshot of language use up to 2021; its author announced in 2024 that it will not be updated.
Which words are common changes slowly, so the snapshot serves this purpose.

Costs: the shape and number steps never import wordfreq (microseconds). The first frequency
lookup imports it and reads its 42 lists once per process (about one second), keeping only the
words at or above the threshold (about 820,000) as sorted 64-bit hashes (about 8 MiB; about
20 MiB resident with wordfreq's modules); later lookups take about 0.1 to 0.3 ms.
"""

from __future__ import annotations

import functools
import math
import re
import threading
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["MAX_GENERIC_WORDS", "WORDLIST", "ZIPF_THRESHOLD", "is_generic"]

MAX_GENERIC_WORDS: Final = 3
"""The most words (numbers included) a string may have and still be judged generic.

wordfreq's phrase estimate (``1/f = 1/f1 + 1/f2 + ...``) is built for short phrases: for a
sentence of common words it stays close to the rarest word's frequency, so on SituatedQA 167
of 450 old-fact fragments of 10 to 14 words ("when did england last get to the semi final of
a world cup") scored above the threshold. Four or more words in a given order name a
particular thing however common each word is.
"""

ZIPF_THRESHOLD: Final = 3.5
"""A string is common when its estimated frequency is at least this, on the Zipf scale.

Zipf 3.5 is about three occurrences per million words (3.0 is one, 4.0 is ten). Chosen on
data: at 3.5 every identifier of the evaluation list stays accepted and every common word of
its common list is refused but one (``invoice``, 3.45), ``billing`` (3.59) included, and 28
of 30 common first names; at 4.0 ``billing``, ``staging``, ``Priya``, ``Ravi`` and ``Yuki``
pass; at 3.0 rare names collide with common words of some covered language far more often
(``Acme``: Lithuanian 3.22; ``Villanova``: Italian 3.15).
"""

WORDLIST: Final = "small"
"""The wordfreq list read: the words at Zipf 3 and above, in each of wordfreq's languages."""

# Dropped at a word's end / start: closing or opening punctuation, quotes and brackets.
_TRAILING: Final = frozenset(".,;:!?…*\"'’”»)]}†‡")
_LEADING: Final = frozenset("\"'‘“«([{¡¿")
_EDGE_CATEGORIES: Final = frozenset({"Ps", "Pe", "Pi", "Pf"})
_APOSTROPHES: Final = frozenset("'’")
# One number: an optional sign and currency symbol, digits (with thousands groups) and one
# decimal part, an optional percent sign or currency symbol. Currency symbols (category Sc)
# are replaced by "$" before matching. Numbers joined by a range, date or time separator are
# one number.
_ONE_NUMBER: Final = r"[+\-−]?\$?(?:\d{1,3}(?:[,.'’]\d{3})+|\d+)(?:[.,]\d+)?[%‰$]?"
_NUMBER: Final = re.compile(rf"{_ONE_NUMBER}(?:[-–—/:]{_ONE_NUMBER})*")
_DIGIT_RUN: Final = re.compile(r"\d(?:[\d.,]*\d)?")


@dataclass(frozen=True, slots=True)
class _Shape:
    """The words of a string that is not an identifier: letter words and numbers."""

    words: tuple[str, ...]
    numbers: tuple[str, ...]


def _shape(phrase: str) -> _Shape | None:
    """Return the letter words and numbers of ``phrase``, or None when it is an identifier."""
    words: list[str] = []
    numbers: list[str] = []
    for raw in unicodedata.normalize("NFKC", phrase).split():
        word = _strip_edges(raw)
        if not any(c.isalnum() for c in word):
            continue  # "&", "–", "/": a separator between words
        if _is_number(word):
            numbers.append(word)
        elif _is_letter_word(word):
            words.append(word.replace("’", "'"))
        else:
            return None
    return _Shape(tuple(words), tuple(numbers))


def _strip_edges(word: str) -> str:
    """Return ``word`` without opening punctuation at its start and closing at its end."""
    start, end = 0, len(word)
    while start < end and (word[start] in _LEADING or _category(word[start]) in _EDGE_CATEGORIES):
        start += 1
    while end > start and (
        word[end - 1] in _TRAILING or _category(word[end - 1]) in _EDGE_CATEGORIES
    ):
        end -= 1
    return word[start:end]


def _category(c: str) -> str:
    """Return the Unicode general category of ``c``."""
    return unicodedata.category(c)


def _is_number(word: str) -> bool:
    """Return whether ``word`` is a number, a range, a date or a time (see step 2)."""
    dollars = "".join("$" if _category(c) == "Sc" else c for c in word)
    return _NUMBER.fullmatch(dollars) is not None


def _is_letter_word(word: str) -> bool:
    """Return whether ``word`` is letters with their marks, apostrophes only inside."""
    if not word[0].isalpha() or not (word[-1].isalpha() or _is_mark(word[-1])):
        return False
    return all(c.isalpha() or _is_mark(c) or c in _APOSTROPHES for c in word)


def _is_mark(c: str) -> bool:
    """Return whether ``c`` is a combining mark (an accent, a Devanagari vowel sign, ...)."""
    return _category(c).startswith("M")


# ------------------------------------------------------------------------------ frequencies


class _Table(Protocol):
    """One language's list: a word as wordfreq stores it -> its bucket, or None."""

    def get(self, word: str, /) -> int | None:
        """Return the word's bucket (Zipf = 9 - bucket / 100), or None if it is rarer."""


@dataclass(frozen=True, slots=True)
class _HashTable:
    """A compact read-only word -> bucket table: sorted 64-bit hashes and their buckets.

    ``hash(str)`` is salted per process, so a table is built and used in one process and never
    pickled. Two different words share a 64-bit hash with negligible probability (the lists
    hold under a million words at the threshold), and a false match could only make a string
    look common.
    """

    hashes: npt.NDArray[np.int64]
    buckets: npt.NDArray[np.uint16]

    @classmethod
    def build(cls, buckets: list[list[str]]) -> _HashTable:
        """Return the table of every word in ``buckets`` (wordfreq's bucket lists)."""
        import numpy as np

        sizes = [len(bucket) for bucket in buckets]
        hashes = np.fromiter(
            (hash(w) for bucket in buckets for w in bucket), dtype=np.int64, count=sum(sizes)
        )
        index = np.repeat(np.arange(len(buckets), dtype=np.uint16), sizes)
        order = np.argsort(hashes, kind="stable")
        return cls(hashes[order], index[order])

    def get(self, word: str, /) -> int | None:
        """Return the word's bucket, or None when the table does not hold it."""
        import numpy as np

        key = hash(word)
        i = int(np.searchsorted(self.hashes, key))
        if i < len(self.hashes) and int(self.hashes[i]) == key:
            return int(self.buckets[i])
        return None


class _Lexicon:
    """wordfreq's words at or above a Zipf floor, one table per language.

    Keeping only the words at or above the floor is exact for the decision at that floor: a
    phrase's combined frequency never exceeds that of its rarest word.
    """

    def __init__(self, tables: Mapping[str, _Table], key: Callable[[str, str], str]) -> None:
        """Hold ``tables`` (language -> table) and ``key`` ((word, language) -> lookup key)."""
        self.tables = tables
        self.key = key

    @classmethod
    def load(cls, floor: float) -> _Lexicon:
        """Read every wordfreq list, keeping the words at or above Zipf ``floor``."""
        try:
            import wordfreq
            from langcodes import Language
            from wordfreq.preprocess import preprocess_text
        except ModuleNotFoundError as exc:  # pragma: no cover - a declared dependency
            raise ModuleNotFoundError(
                "nowline needs wordfreq to tell common words: pip install wordfreq"
            ) from exc

        files = wordfreq.available_languages(WORDLIST)
        last = round((9 - floor) * 100)
        tables = {
            lang: _HashTable.build(wordfreq.read_cBpack(files[lang])[: last + 1])
            for lang in sorted(files)
        }

        @functools.lru_cache(maxsize=8192)
        def key(word: str, lang: str) -> str:
            # wordfreq's own normalisation of a token for ``lang`` (casefolding and more).
            return str(preprocess_text(word, Language.get(lang)))

        return cls(tables, key)

    def zipf(self, shape: _Shape, lang: str) -> float:
        """Return wordfreq's Zipf estimate for the words and numbers of ``shape`` in ``lang``."""
        table = self.tables[lang]
        inverse = 0.0  # 1/f = 1/f1 + 1/f2 + ..., wordfreq's combination of tokens
        for word in shape.words:
            bucket = table.get(self.key(word, lang))
            if bucket is None:
                return 0.0
            inverse += math.pow(10.0, bucket / 100)
        for number in shape.numbers:
            for run in _DIGIT_RUN.findall(number):
                freq = _number_frequency(run, table)
                if freq == 0.0:
                    return 0.0
                inverse += 1.0 / freq
        return 9.0 - math.log10(inverse) if inverse else 0.0


def _number_frequency(run: str, table: _Table) -> float:
    """Return wordfreq's estimate for a digit run: its digits smashed to 0, then scaled."""
    from wordfreq.numbers import digit_freq, smash_numbers

    smashed = str(smash_numbers(run))
    bucket = table.get(smashed)
    if bucket is None:
        return 0.0
    freq = math.pow(10.0, -bucket / 100)
    return freq * float(digit_freq(run)) if smashed != run else freq


_lock = threading.Lock()
_lexicon: _Lexicon | None = None


def _default_lexicon() -> _Lexicon:
    """Return the process-wide lexicon at :data:`ZIPF_THRESHOLD`, loading it on first use."""
    global _lexicon
    with _lock:
        if _lexicon is None:
            _lexicon = _Lexicon.load(ZIPF_THRESHOLD)
        return _lexicon


def _assess(phrase: str, lexicon: Callable[[], _Lexicon], threshold: float) -> str | None:
    """Return why ``phrase`` is generic at ``threshold``, or None (see the module docstring)."""
    shape = _shape(phrase)
    if shape is None or not (shape.words or shape.numbers):
        return None
    if not shape.words:
        return "a bare number"
    if len(shape.words) + len(shape.numbers) > MAX_GENERIC_WORDS:
        return None
    lex = lexicon()
    zipf = {lang: lex.zipf(shape, lang) for lang in lex.tables}
    # Name English when it is common there (the likeliest reader), else the commonest language.
    lang = "en" if zipf.get("en", 0.0) >= threshold else max(zipf, key=zipf.__getitem__)
    best = zipf[lang]
    if best < threshold:
        return None
    if shape.numbers:
        what = "common words with a number"
    elif len(shape.words) == 1:
        what = "a common word"
    else:
        what = "a phrase of common words"
    return f"{what} (wordfreq Zipf {best:.2f} in '{lang}', at least {threshold})"


def is_generic(phrase: str) -> str | None:
    """Say whether a deprecated string is generic: a common word or a bare number.

    The rules, and their costs, are in the module docstring: identifiers are never generic;
    bare numbers always are; other strings are when wordfreq finds them common in any of its
    languages (Zipf at least :data:`ZIPF_THRESHOLD`). The first call that needs a frequency
    reads wordfreq's lists (about a second); later calls take microseconds.

    Args:
        phrase: a deprecated string (or an ``about`` anchor), already checked to be a
            non-blank ``str``.

    Returns:
        None when the string names something particular (an identifier, a rare word or name,
        a phrase wordfreq does not find common); otherwise a short reason to put in an error
        message, such as ``"a bare number"`` or ``"a common word (wordfreq Zipf 4.83 in
        'en', at least 3.5)"``.

    Raises:
        ModuleNotFoundError: wordfreq is not installed (only when a frequency is needed).
    """
    return _assess(phrase, _default_lexicon, ZIPF_THRESHOLD)
