"""Generic deprecated strings: common words and bare numbers.

The rule is explained in the README's "Generic strings and anchors".

A deprecated string that is a common word (``billing``, ``owner``, ``Michelle``) or a bare
number (``2018``, ``5``) names no particular thing: it occurs in unrelated history and, through
incidental mentions, chains unrelated corrections. :func:`is_generic` says whether a string is
such a string, and why. It is a pure function of the string; the caller decides what to do
(refuse it, unless the correction has an ``about`` anchor or the caller accepts it explicitly).

The decision has five steps, cheapest first:

1. **Shape.** The string is NFKC-normalised and split at whitespace into words. Closing
   punctuation (``. , ; : ! ? *``, quotes, brackets) at a word's end and opening quotes or
   brackets at its start are dropped; a word of punctuation alone (``&``, ``–``) only
   separates. A word that is then neither all letters (with their combining marks and inner
   apostrophes: ``don't``) nor a number nor a short version token makes the string an
   *identifier*, never generic: ``metalcraftai/ufo``, ``#ufo-dev``, ``billing@oldco.example``,
   ``v1.2``, ``.NET``, ``PROJ-1234``, ``DATABASE_URL``, ``ufo-ai``, ``T-Pain``, ``mp3``,
   ``10.0.0.1``. Any ``/ @ # _ : .`` inside a word, any hyphenated compound and any word
   that mixes letters and digits marks an identifier, except a short version token, a rate
   (``$80/hour``), an English ordinal (``4th``, ``21st``) and a quantity (``5GB``,
   ``3pm``): numbers, step 2. Measured on
   SituatedQA, an ordinal taken for an identifier dropped its anchor, and "21st" of a date
   in Poland marked "August 21st" of a TV series.
2. **Bare numbers and versions.** A string whose words are all numbers is generic: ``5``,
   ``2018``, ``1,000``, ``3.5``, ``-2``, ``$200,000``, ``4.25%``, ``2018-05-01``,
   ``17/08/2019``, ``10:30``, ``27–10``, ``1 000 000``. A number is digits with optional
   thousands groups and one decimal part, an optional sign, currency symbol or percent sign;
   numbers joined by ``-``, ``–``, ``—``, ``/`` or ``:`` (ranges, dates, times, scores) are one
   number. Dot-chained digits (``1.2.3``, ``10.0.0.1``) are versions and addresses, so step 1
   keeps them. Long digit strings (account or phone numbers) are numbers too: anchor them. A
   short version token (``v1``, ``V2``, ``v10``: a ``v`` and at most three digits) is as
   generic as a bare number: every API, schema and product has a ``v1``. Among words it
   counts as its number. So do an English ordinal (``1st``, ``22nd``, ``3rd``, ``4th``) and a
   rate, a number per a unit (``$80/hour``, ``€5/month``): measured on a blind writer case,
   a rate taken for an identifier dropped its anchor and marked another firm's price. So
   does a quantity, a number with its unit or scale written on (``5GB``, ``3pm``,
   ``3:00pm``, ``$200k``, ``100ms``, ``1990s``, ``2x``), and a quarter, a half or a fiscal
   year (``Q3``, ``H1``, ``FY24``): an adversarial review stored each without an anchor,
   where ``5 GB`` and ``3 pm`` were refused.
3. **Length.** A string of more than :data:`MAX_GENERIC_WORDS` words (numbers included) that
   is not all numbers is never generic: common words in that order name a particular thing.
4. **Frequency.** Otherwise the string is generic when wordfreq estimates its frequency at or
   above :data:`ZIPF_THRESHOLD` in any one of the languages wordfreq covers (42). A single
   word is looked up in each language's list, case-insensitively (``Apple`` is ``apple``).
   Several words are combined within one language the way wordfreq combines the tokens of a
   phrase (``1/f = 1/f1 + 1/f2 + ...``, so a phrase is rarer than its rarest word), and a
   number among words counts with wordfreq's own estimate for its digits. So ``the project``,
   ``new owner`` and ``March 2019`` are generic, while ``Elgin Baylor`` and ``Marina Bay
   Sands`` are not. This combination over-estimates how often a name made of common words
   occurs; it is kept because it errs towards asking for an anchor: on SituatedQA's old
   answers, treating the words as independent instead left three times the collateral links.
5. **Names.** A string of two or three words that step 4 finds common is still specific when
   it is written as a person's full name (:func:`_is_full_name`). A team's memory names few
   people, so ``John Smith`` or ``Maria Garcia`` names one particular person, however common
   the name is in a corpus; a given name alone (one word) stays generic. wordfreq keeps no
   case, so the rule reads the string's own writing:

   - *Scripts with case* (Latin, Cyrillic, Greek, ...): the first and the last word are
     capitalised (``Smith``, ``McDonald``, ``O'Brien``, ``Müller``; an initial such as ``J``
     counts), the words between are capitalised or lowercase particles (``da``, ``de``,
     ``van der``, ``bin``), at least two words are capitalised, and **not every capitalised
     word is an English title word**. An English title word is a word that is common in
     English (Zipf at least :data:`ZIPF_THRESHOLD` there) and concentrated in English: its
     English Zipf exceeds its median Zipf over wordfreq's other Latin-script languages by at
     least :data:`NAME_SPREAD`. Personal names travel between languages unchanged, so they
     are spread across the lists (``richard`` 4.79 in English against a median of 4.57,
     ``garcia`` 3.89 against 3.68), while English vocabulary is translated (``branch`` 4.58
     against 2.94, ``resources`` 4.91 against 3.12). Title Case for ordinary noun phrases
     (``Main Branch``, ``Human Resources``, ``Sales Team``) is an English habit; in the other
     languages wordfreq covers a run of capitalised words is a proper noun, so only English
     vocabulary is asked about. An all-capitals word (``API``, ``SMITH``) is not a name word.
   - *Scripts without case* (Arabic, Hebrew, Devanagari, Bengali, Thai, Han, kana, Hangul,
     ...): two or three words of such a script are a full name unless one of them is a
     function word, a word at or above Zipf :data:`FUNCTION_ZIPF` in some language (``في``,
     ``של``, ``के``). Chinese and Korean full names are usually written as one word; step 4
     judges them, and finds nearly all of them rare.

6. **Proper nouns.** With the correction's own text, a string the writer writes as a proper
   noun (every word capitalised, mid-sentence: ``Michigan``, ``Patriots``, ``Acme``) names a
   particular thing however common it is in a corpus, and is specific; a sentence's first
   word proves nothing on its own. Except **a given name alone** (``Michelle``, ``Priya``):
   it names anyone of that name, and stays generic, whatever the case, as kind ``name``
   (:mod:`nowline._rules.names`; a word that is a given name and also a place, such as
   ``Georgia`` or ``Victoria``, asks for an anchor too). A person's *full* name is specific
   (step 5), but asks for an anchor of its own (``nowline._rules.guards``): a person rarely
   stops existing.

   Known limits, measured in ``tests/guards/``: an English name made only of English title
   words is refused (a rare pairing, such as a given name that is also a month with a family
   name that is also a noun); capitalised ordinary phrases of other languages (``Recursos
   Humanos``) and of widely borrowed English words (tech terms that every language's list
   holds, such as ``Web App``) pass as names; so do two or three content words of a script
   without case. Anchor such a string, or check it with ``preview()``.

wordfreq (https://github.com/rspeer/wordfreq, code Apache-2.0, data CC BY-SA 4.0) is a frozen
snapshot of language use up to 2021; its author announced in 2024 that it will not be updated.
Which words are common changes slowly, so the snapshot serves this purpose.

Costs: the shape and number steps never import wordfreq (microseconds). The first frequency
lookup imports it and reads its 42 lists once per process (about one second), keeping only the
words at or above the threshold (about 820,000) as sorted 64-bit hashes (about 8 MiB; about
20 MiB resident with wordfreq's modules); later lookups take about 0.1 to 0.3 ms. The first
string that reaches step 5 in scripts with case reads the Latin-script lists again to find the
English title words (0.4 to 0.8 s once per process on an idle machine; the set it keeps
holds about 9,700 words). Word hashes are taken over UTF-8 bytes, which adds a little to the
first lookup.
"""

from __future__ import annotations

import functools
import math
import re
import threading
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, Protocol

from .names import is_family_first_given_name, is_family_first_name, is_given_name
from .records import DECORATING_SCHEMES
from .units import PER_TIME

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "FUNCTION_ZIPF",
    "MAX_GENERIC_WORDS",
    "NAME_SPREAD",
    "WORDLIST",
    "ZIPF_THRESHOLD",
    "Kind",
    "assess",
    "is_function_word",
    "is_generic",
    "is_identifier",
    "is_person_name",
    "proper_noun_in",
    "strip_edges",
]

Kind = Literal["number", "word", "name", "phrase", "title"]
"""What kind of generic string: a bare number or version token, one common word, a given name
alone, a phrase of common words (or words with a number), or a capitalised phrase of English
title words."""

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

NAME_SPREAD: Final = 0.7
"""How much more common in English than elsewhere a word must be to read as English vocabulary.

A capitalised word is an *English title word* (step 5 of the module docstring) when its Zipf
in English is at least this much above its median Zipf over wordfreq's other Latin-script
languages (a word missing from a list, rarer than Zipf 3, counts as 3). 0.7 is a factor of
five. Chosen on data (``bench/guards.py``: 18,600 full names that Faker generates in 31
locales with two seeds, and 1,313 capitalised English phrases that wordfreq finds common): at
0.6 six names were refused, three of them English (``April Snyder``, ``Austin Heath``: the
given name is a month or a Texan city, the family name is common in American text only), so
one locale reached 1% of 300; at 0.7 four (``April White``, two famous Korean names that
wordfreq lists as words, a Hebrew name holding a function word). The capitalised phrases
that stay refused: 94%, 92% and 91% of the three sets at 0.6; 92%, 88% and 90% at 0.7.
"""

FUNCTION_ZIPF: Final = 6.5
"""A word of a script without case at or above this Zipf, in some language, is a function word.

The commonest words of a language are its function words (``في`` 7.54, ``את`` 7.31, ``के``
7.58). Names in these scripts use very common words too (``علي`` 6.14, ``بن`` 6.07 in Arabic,
``בן`` 6.08 in Hebrew), so the line sits above them.
"""

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
_NUMBER: Final = re.compile(rf"{_ONE_NUMBER}(?:[-–—/:⁄]{_ONE_NUMBER})*")
_DIGIT_RUN: Final = re.compile(r"\d(?:[\d.,]*\d)?")
_VERSION: Final = re.compile(r"[vV]\d{1,3}")
_ORDINAL: Final = re.compile(r"\d+(?:st|nd|rd|th)", re.IGNORECASE)
# A rate: a number per a unit ("$80/hour", "5/month", "10/min"); its slash is no identifier's.
_RATE: Final = re.compile(rf"{_ONE_NUMBER}/[^\W\d_]{{1,12}}")
# A quantity: a number with its unit or scale written on ("5GB", "3pm", "$200k", "100ms",
# "1990s", "2x"), or a quarter, a half or a fiscal year ("Q3", "H1", "FY24"). An adversarial
# review stored each unanchored, where "5 GB", "3 pm" and "$200,000" are refused.
# One letter is a unit only where it rarely ends a version or a model's name: "19c", "11g"
# (Oracle's), "3D" and "5G" stay what they are (SituatedQA's train split held "19c").
_UNITS: Final = (
    r"k|m|b|x|s|h|mm|bn|kb|mb|gb|tb|pb|kib|mib|gib|tib|ms|µs|us|ns|sec|secs|hr|hrs|min|mins|"
    r"wk|wks|yr|yrs|am|pm|px|pt|em|rem|hz|khz|mhz|ghz|kg|lb|lbs|oz|km|cm|mi|ft|ml|kw|kwh|mw|"
    r"°c|°f"
)
_QUANTITY: Final = re.compile(
    rf"(?:{_ONE_NUMBER}(?:[-–—/:]{_ONE_NUMBER})*(?:{_UNITS}))|(?:q[1-4]|h[12]|fy\d{{2,4}})",
    re.IGNORECASE,
)
# a unit per time after a number ("300 req/min", "100 MB/s"): a unit, not an identifier
_PER_TIME: Final = re.compile(PER_TIME, re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Shape:
    """The words of a string that is not an identifier: letter words and numbers.

    Short version tokens (``v1``) are among the numbers, and counted in ``versions``.
    """

    words: tuple[str, ...]
    numbers: tuple[str, ...]
    versions: int = 0


def _shape(phrase: str) -> _Shape | None:
    """Return the letter words and numbers of ``phrase``, or None when it is an identifier."""
    words: list[str] = []
    numbers: list[str] = []
    versions = 0
    for raw in unicodedata.normalize("NFKC", phrase).split():
        word = strip_edges(raw)
        if not any(c.isalnum() for c in word):
            continue  # "&", "–", "/": a separator between words
        if _is_number(word) or _ORDINAL.fullmatch(word) or _is_rate(word) or _is_quantity(word):
            numbers.append(word)
        elif _VERSION.fullmatch(word):
            numbers.append(word)
            versions += 1
        elif _is_letter_word(word) or (numbers and _PER_TIME.fullmatch(word)):
            words.append(word.replace("’", "'"))
        else:
            return None
    return _Shape(tuple(words), tuple(numbers), versions)


def is_identifier(phrase: str) -> bool:
    """Return whether ``phrase`` is an identifier (step 1): ``org/repo``, ``#chan``, an email.

    An identifier names one thing wherever it is written, so a correction of it holds for
    every record that names it.
    """
    return _shape(phrase) is None


def strip_edges(word: str) -> str:
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


def _dollars(word: str) -> str:
    """Return ``word`` with each currency symbol (category Sc) written ``$``, as matched."""
    return "".join("$" if _category(c) == "Sc" else c for c in word)


def _is_number(word: str) -> bool:
    """Return whether ``word`` is a number, a range, a date or a time (see step 2)."""
    return _NUMBER.fullmatch(_dollars(word)) is not None


def _is_rate(word: str) -> bool:
    """Return whether ``word`` is a number per a unit: ``$80/hour``, ``€5/month``, ``10/min``."""
    return _RATE.fullmatch(_dollars(word)) is not None


def _is_quantity(word: str) -> bool:
    """Return whether ``word`` is a number with its unit on: ``5GB``, ``3pm``, ``$200k``, ``Q3``."""
    return _QUANTITY.fullmatch(_dollars(word)) is not None


def _is_letter_word(word: str) -> bool:
    """Return whether ``word`` is letters with their marks, apostrophes only inside."""
    if not word[0].isalpha() or not (word[-1].isalpha() or _is_mark(word[-1])):
        return False
    return all(c.isalpha() or _is_mark(c) or c in _APOSTROPHES for c in word)


def _is_mark(c: str) -> bool:
    """Return whether ``c`` is a combining mark (an accent, a Devanagari vowel sign, ...)."""
    return _category(c).startswith("M")


# ------------------------------------------------------------------------------ names


def _has_case(word: str) -> bool:
    """Return whether any letter of ``word`` has case (Latin, Cyrillic, Greek, ...)."""
    return any(c.isupper() or c.islower() for c in word)


def _is_name_word(word: str) -> bool:
    """Return whether ``word`` is written as a name: capitalised, or a one-letter initial.

    ``Smith``, ``McDonald``, ``O'Brien``, ``Ñúñez`` and ``J`` are; ``smith`` and the
    all-capitals ``API`` are not.
    """
    if not (word[0].isupper() or word[0].istitle()):
        return False
    return len(word) == 1 or any(c.islower() for c in word[1:])


def _is_full_name(words: tuple[str, ...], lexicon: _Lexicon) -> bool:
    """Return whether two or three letter words are written as a person's full name.

    Step 5 of the module docstring: in scripts with case, capitalised words (lowercase
    particles between them) that are not all English title words; in scripts without case,
    words none of which is a function word.
    """
    if len(words) < 2:
        return False
    if not any(_has_case(w) for w in words):
        return all(lexicon.max_zipf(w) < FUNCTION_ZIPF for w in words)
    if not (_is_name_word(words[0]) and _is_name_word(words[-1])):
        return False
    if not all(_is_name_word(w) or w.islower() for w in words[1:-1]):
        return False  # a word without case among cased ones, or an all-capitals word
    names = [w for w in words if _is_name_word(w)]
    if len(names) < 2:
        return False
    return any(len(w) > 1 and not lexicon.is_english_title_word(w) for w in names)


# ------------------------------------------------------------------------------ frequencies


class _Table(Protocol):
    """One language's list: a word as wordfreq stores it -> its bucket, or None."""

    def get(self, word: str, /) -> int | None:
        """Return the word's bucket (Zipf = 9 - bucket / 100), or None if it is rarer."""


def _key_hash(word: str) -> int:
    """Return the 64-bit hash of a word's UTF-8 bytes.

    Not ``hash(word)``: CPython hashes a string's internal buffer, so one character of a
    two-byte script can hash like two ASCII letters (``hash("浩") == hash("im")``: U+6D69 is
    stored as the bytes ``69 6D``), and a Han character would read as a common German word.
    A string's UTF-8 bytes are its own.
    """
    return hash(word.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class _HashTable:
    """A compact read-only word -> bucket table: sorted 64-bit hashes and their buckets.

    Words are hashed as their UTF-8 bytes (:func:`_key_hash`). ``hash`` is salted per process,
    so a table is built and used in one process and never pickled. Two different words share
    a 64-bit hash with negligible probability (the lists hold under a million words at the
    threshold), and a false match could only make a string look common.
    """

    hashes: npt.NDArray[np.int64]
    buckets: npt.NDArray[np.uint16]

    @classmethod
    def build(cls, buckets: list[list[str]]) -> _HashTable:
        """Return the table of every word in ``buckets`` (wordfreq's bucket lists)."""
        import numpy as np

        sizes = [len(bucket) for bucket in buckets]
        hashes = np.fromiter(
            (_key_hash(w) for bucket in buckets for w in bucket),
            dtype=np.int64,
            count=sum(sizes),
        )
        index = np.repeat(np.arange(len(buckets), dtype=np.uint16), sizes)
        order = np.argsort(hashes, kind="stable")
        return cls(hashes[order], index[order])

    def get(self, word: str, /) -> int | None:
        """Return the word's bucket, or None when the table does not hold it."""
        import numpy as np

        key = _key_hash(word)
        i = int(np.searchsorted(self.hashes, key))
        if i < len(self.hashes) and int(self.hashes[i]) == key:
            return int(self.buckets[i])
        return None


class _Lexicon:
    """wordfreq's words at or above a Zipf floor, one table per language.

    Keeping only the words at or above the floor is exact for the decision at that floor: a
    phrase's combined frequency never exceeds that of its rarest word.
    """

    def __init__(
        self,
        tables: Mapping[str, _Table],
        key: Callable[[str, str], str],
        title_words: Callable[[], frozenset[str]] = frozenset,
    ) -> None:
        """Hold the tables (language -> table), the lookup key and the English title words.

        Args:
            tables: one table per language.
            key: (word, language) -> the word as that language's list stores it.
            title_words: returns the English title words (step 5), built at first use.
        """
        self.tables = tables
        self.key = key
        self._title_words = functools.cache(title_words)

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

        return cls(tables, key, lambda: _english_title_words(files, floor, NAME_SPREAD))

    def max_zipf(self, word: str) -> float:
        """Return the highest Zipf of one word over every language (0 when rarer than the floor)."""
        best = 0.0
        for lang, table in self.tables.items():
            bucket = table.get(self.key(word, lang))
            if bucket is not None:
                best = max(best, 9.0 - bucket / 100)
        return best

    def is_english_title_word(self, word: str) -> bool:
        """Return whether ``word`` is common English vocabulary (see :data:`NAME_SPREAD`)."""
        return self.key(word, "en") in self._title_words()

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


def _english_title_words(files: Mapping[str, str], floor: float, spread: float) -> frozenset[str]:
    """Return the English words at Zipf ``floor`` or above that are concentrated in English.

    A word's Zipf in English must exceed its median Zipf over the other Latin-script
    languages by ``spread``; a word missing from a list (rarer than the list's own floor,
    Zipf 3) counts at that floor.
    """
    import statistics

    import wordfreq
    from langcodes import Language

    lowest = 9.0 - (len(wordfreq.read_cBpack(files["en"])) - 1) / 100
    english: dict[str, float] = {}
    for i, bucket in enumerate(wordfreq.read_cBpack(files["en"])):
        zipf = 9.0 - i / 100
        if zipf < floor:
            break
        english.update(dict.fromkeys(bucket, zipf))
    others: dict[str, list[float]] = {w: [] for w in english}
    latin = [
        lang
        for lang in sorted(files)
        if lang != "en" and Language.get(lang).maximize().script == "Latn"
    ]
    for lang in latin:
        for i, bucket in enumerate(wordfreq.read_cBpack(files[lang])):
            zipf = 9.0 - i / 100
            for w in bucket:
                values = others.get(w)
                if values is not None:
                    values.append(zipf)
    out = []
    for word, zipf in english.items():
        values = others[word]
        values += [lowest] * (len(latin) - len(values))
        if zipf - statistics.median(values) >= spread:
            out.append(word)
    return frozenset(out)


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


_DECORATION = re.compile(rf"(?:{DECORATING_SCHEMES}:/{{0,2}}|www\.|\.git)+")
"""What only decorates an address: a scheme (``https://``, ``git+ssh:``), ``www.``, ``.git``.

Deprecated alone, it would mark every memory that writes an address so (an adversarial
review stored ``https://`` and ``.git``, and the hook then denied every clone)."""


def _assess(
    phrase: str, lexicon: Callable[[], _Lexicon], threshold: float, text: str | None = None
) -> tuple[Kind, str] | None:
    """Return the kind of generic string ``phrase`` is and why, or None (module docstring)."""
    if _DECORATION.fullmatch(phrase.strip().strip("\"'`/").lower()):
        return "word", "a URL's scheme or suffix alone (every address written so holds it)"
    shape = _shape(phrase)
    if shape is None or not (shape.words or shape.numbers):
        return None
    if not shape.words:
        return "number", "a short version token" if shape.versions else "a bare number"
    if len(shape.words) + len(shape.numbers) > MAX_GENERIC_WORDS:
        return None
    single = shape.words[0] if len(shape.words) == 1 and not shape.numbers else None
    if single is not None and _is_name_word(single) and is_given_name(single):
        return "name", "a given name alone (it names anyone of that name)"
    if text is not None and not shape.numbers and proper_noun_in(phrase, text):
        return None  # step 6: a proper noun, as the writer writes it
    lex = lexicon()
    zipf = {lang: lex.zipf(shape, lang) for lang in lex.tables}
    # Name English when it is common there (the likeliest reader), else the commonest language.
    lang = "en" if zipf.get("en", 0.0) >= threshold else max(zipf, key=zipf.__getitem__)
    best = zipf[lang]
    if best < threshold:
        return None
    if not shape.numbers and _is_full_name(shape.words, lex):
        return None
    kind: Kind
    if shape.numbers:
        kind, what = "phrase", "common words with a number"
    elif single is not None:
        kind, what = "word", "a common word"
    elif _is_name_word(shape.words[0]) and _is_name_word(shape.words[-1]):
        kind = "title"
        what = "a capitalised phrase of common English words, not a person's full name,"
    else:
        kind, what = "phrase", "a phrase of common words"
    return kind, f"{what} (wordfreq Zipf {best:.2f} in '{lang}', at least {threshold})"


_SENTENCE_END: Final = frozenset(".!?:;\n")


def proper_noun_in(phrase: str, text: str) -> bool:
    """Return whether ``text`` writes ``phrase`` as a proper noun: capitalised, mid-sentence.

    Every word of an occurrence starts with a capital letter, and the occurrence does not
    start a sentence (where any word is capitalised), unless a later word of it is
    capitalised too (``Human Resources`` at a sentence's start is still written so). Words
    of a script without case never count.
    """
    from ..matchers import Matcher

    for match in Matcher([(phrase, 0)]).find(text):
        words = [strip_edges(w) for w in text[match.start : match.end].split()]
        if not words or not all(w and _is_name_word(w) for w in words):
            continue
        before = text[: match.start].rstrip()
        starts_sentence = not before or before[-1] in _SENTENCE_END
        if not starts_sentence or len(words) > 1:
            return True
    return False


def is_person_name(phrase: str, text: str | None = None) -> bool:
    """Return whether ``phrase`` is a person's full name: a given name, then a family name.

    Two or three words written as a full name (step 5 of the module docstring) that hold a
    given name where one stands (:func:`_has_given_name`, :mod:`nowline._rules.names`):
    ``Michelle Rivera``, ``Tomasz Kowalczyk``, ``Wang Wei``, ``Min-jun Kim``; four after a
    family name written first (``Nguyễn Thị Minh Anh``); not ``Acme Corp``, ``Main Branch``
    or ``Marina Bay`` written without one (``Marina`` is one: such a string is taken for a
    person, and asks for an anchor).

    With the correction's ``text``, a full name whose given name the list lacks (``Casimir
    Volkonsky``, ``Oluwaseun Adeyemi``) is a person's where the text speaks of it as of one
    (:func:`_spoken_of_as_person`): measured on the blind writer sets, such names were taken
    for a thing's and stored unanchored, marking everything about the person.
    """
    if phrase.isupper():  # MICHELLE RIVERA: a name written in capitals is still a name
        phrase = phrase.title()
    phrase = phrase.translate(_HYPHENS)
    words = _name_words(_name_order(phrase))
    if not words:
        return False
    if _TITLE.fullmatch(words[0]) and len(words) > 2:
        words = words[1:]  # Dr. Michelle Rivera: the name after the title
    names = [w for w in words if not w.islower()]  # particles (de la, van) aside
    most = 4 if is_family_first_name(words[0]) else 3  # Nguyễn Thị Minh Khai
    if not 2 <= len(names) <= most or len(words) > len(names) + 3:
        return False
    if not _is_full_name(words, _default_lexicon()):
        return False
    return _has_given_name(words) or (
        text is not None and _spoken_of_as_person(phrase.strip(), text)
    )


_TITLE = re.compile(r"(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sir|Dame)\.?", re.IGNORECASE)
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})  # a hyphen, a non-breaking one
_INVERTED = re.compile(r"^\s*([^,]+?)\s*,\s*([^,]+?)\s*$")


def _name_order(phrase: str) -> str:
    """Return a name written family name first with a comma (``Rivera, Michelle``) in order."""
    inverted = _INVERTED.match(phrase)
    if inverted is None or len(inverted[2].split()) > 2:
        return phrase
    family, given = inverted[1], inverted[2]
    if not family.split() or not given.split():  # " ,_": no name on one side
        return phrase
    if is_given_name(strip_edges(family.split()[0])):  # Paris, France: a place, not a name
        return phrase
    return f"{given} {family}"


def _has_given_name(words: tuple[str, ...]) -> bool:
    """Return whether a full name's words hold a given name where one stands.

    First (``Michelle Rivera``; each part of ``Mary-Jane``), after an initial (``J. Smith``
    names one by its initial), last after a family name of a language that writes it first
    when it is one of that language's given names or of two short syllables (``Wang Wei``,
    ``Nguyễn Văn An``, ``Kim Min-jun``: :func:`.names.is_family_first_name`), first before
    such a family name when of two syllables (``Min-jun Kim``), or, in a script without case,
    last too (``佐藤 陽子``).
    """
    first, last = words[0], words[-1]
    parts = [part for part in first.split("-") if part]
    if all(_is_name_word(p) for p in parts) and any(is_given_name(p) for p in parts):
        return True  # Michelle, Mary-Jane; not Ray-ban or Jo-ann written as one word
    if len(strip_edges(first)) == 1 and first[0].isupper():
        return True
    if _is_hyphenated_given(first) and is_family_first_name(last):  # Min-jun Kim
        return True
    if is_family_first_name(first):  # Wang Wei, Tanaka Hiroshi, Kim Min-jun
        return _is_hyphenated_given(last) or any(
            is_family_first_given_name(part) for part in last.split("-")
        )
    return not _has_case(last) and is_given_name(last)


# a given name of two syllables as English text writes it after a Korean or Chinese family
# name: Min-jun, Ji-Sung, Yun-fat (a syllable has at most six letters, as Hyeong: the
# Grand-Saconnex of Le Grand-Saconnex is no given name)
_HYPHENATED_GIVEN = re.compile(r"([A-Z][a-z]{1,5})-([A-Za-z][a-z]{0,5})")
# the second part of an English compound (Drive-in, Co-op, Plug-ins, Sign-up), where the
# first part is an English word or a prefix (Moon Jae-in stays a name)
_COMPOUND_ENDS = frozenset(
    ("in", "ins", "on", "ons", "op", "ops", "up", "ups", "out", "outs", "off", "by", "over")
)


def _is_hyphenated_given(word: str) -> bool:
    """Return whether ``word`` is shaped as a two-syllable given name (``Min-jun``)."""
    shaped = _HYPHENATED_GIVEN.fullmatch(word)
    if shaped is None:
        return False
    head, tail = shaped[1], shaped[2].casefold()
    english = len(head) <= 2 or _default_lexicon().is_english_title_word(head)
    return not (tail in _COMPOUND_ENDS and english)


_PERSON_ROLE = (
    r"(?:manager|owner|lead|chair|contact|officer|head|director|ceo|cto|cfo|coo|admin|"
    r"administrator|maintainer|reviewer|editor|champion|coordinator|representative|liaison|"
    r"steward|assignee|approver|president|secretary|treasurer|founder|"
    r"accountant|lawyer|counsel|doctor|teacher|coach|mentor|buddy)s?"
)
_HE_SHE = re.compile(r"\b(?:he|she|him|his|hers)\b|\bher\b(?!\s*\.)", re.IGNORECASE)
_PERSON_AROUND = (
    # what a person does: steps down, hands over, takes over, is elected, ...
    r"{n}\s+(?:has\s+|have\s+|had\s+)?(?:stepped\s+down|resigned|retired|left\s+(?:the\s+)?"
    r"(?:company|team|firm|us|group)|took\s+over|has\s+taken|handed|was\s+(?:elected|"
    r"appointed|promoted|hired|fired|let\s+go)|moved\s+over\s+to|joined|is\s+on\s+leave)\b",
    r"\b(?:took|taken|takes|take)\s+(?:[\w'-]+\s+){{0,3}}?over\s+(?:[\w'-]+\s+){{0,5}}?from\s+{n}",
    r"\bhanded\s+(?:[\w'-]+\s+){{0,5}}?(?:over\s+)?to\s+{n}",
    r"\b(?:from|to|by|than)\s+{n}\s*,\s*who\b",
    r"{n}['\u2019]s\s+(?:job|role|place|desk|seat|duties|position|team)\b",
    r"\b{role}\s+(?:is|was|are|were)\s+(?:now\s+|no\s+longer\s+|not\s+)?{n}",
    r"\b{role}\s+(?:has\s+|have\s+)?(?:changed|moved|passed|switched|went|gone|transferred)"
    r"\s+(?:[\w'-]+\s+){{0,3}}?from\s+{n}",
    r"{n}\s+(?:is|was)\s+(?:now\s+|no\s+longer\s+)?(?:the|our|their|its|a)\s+(?:new\s+)?"
    r"(?:[\w-]+\s+){{0,3}}?{role}\b",
)


def _spoken_of_as_person(phrase: str, text: str) -> bool:
    """Return whether ``text`` speaks of ``phrase`` as of a person.

    It names a role held by it (``the security contact is Oluwaseun Adeyemi``), an act only a
    person does (``Casimir Volkonsky stepped down``, ``took them over from Casimir
    Volkonsky``, ``handed the role to ...``, ``..., who stays on``, ``Adeyemi's job``), or a
    personal pronoun (``he``, ``her``: a correction that says "his place" is about a person).
    """
    if _HE_SHE.search(text):
        return True
    n = re.escape(phrase)
    cues = (cue.format(n=n, role=_PERSON_ROLE) for cue in _PERSON_AROUND)
    return any(re.search(cue, text, re.IGNORECASE) for cue in cues)


def _name_words(phrase: str) -> tuple[str, ...] | None:
    """Return the words of ``phrase`` if they could be a name's, else None.

    Its letter words, where a hyphenated family name (``Abdul-Jabbar``, ``Zeta-Jones``: every
    part capitalised) counts as one word, though it makes the string an identifier (step 1);
    None where a number or another identifier's word is among them. Measured on SituatedQA,
    "Kareem Abdul-Jabbar" taken for an identifier asked for no anchor and kept none.
    """
    shape = _shape(phrase)
    if shape is not None:
        return None if shape.numbers else shape.words
    words: list[str] = []
    for raw in unicodedata.normalize("NFKC", phrase).split():
        word = strip_edges(raw)
        if not any(c.isalnum() for c in word):
            continue
        parts = word.split("-")
        # a given name of two syllables (Kim Min-jun, Min-jun Kim) is a name's word; whether
        # the name is a person's is then the given names' or the text's to say (Chow Yun-fat)
        hyphenated_name = all(
            p and _is_letter_word(p) and _is_name_word(p) for p in parts
        ) or _is_hyphenated_given(word)
        if not hyphenated_name and (len(parts) > 1 or not _is_letter_word(word)):
            return None
        words.append(word)
    return tuple(words)


def is_function_word(phrase: str) -> bool:
    """Return whether every word of ``phrase`` is a function word (``the``, ``of``, ``und``).

    A function word is at or above :data:`FUNCTION_ZIPF` in some language: an anchor made of
    them narrows nothing, for every text holds one. A word written in capitals (``UN``,
    ``OS``, ``IT``) is an acronym, not the function word it folds to (French ``un``,
    Portuguese ``os``): measured on SituatedQA, folding refused the anchor ``UN``.
    """
    words = unicodedata.normalize("NFKC", phrase).split()  # ｔｈｅ is the (the matcher folds it)
    if not words:
        return False
    lex = _default_lexicon()
    for word in words:
        bare = strip_edges(word) or word
        if (len(bare) > 1 and bare.isupper()) or lex.max_zipf(bare) < FUNCTION_ZIPF:
            return False
    return True


def assess(phrase: str, text: str | None = None) -> tuple[Kind, str] | None:
    """Return the kind of generic string ``phrase`` is and the reason, or None when specific.

    :func:`is_generic` with the kind too, for messages that give the way forward that fits
    (a full name for a given name, an anchor for a number). With ``text`` (the correction's
    own), a string the text writes as a proper noun is specific (step 6), except a given name
    alone.
    """
    return _assess(phrase, _default_lexicon, ZIPF_THRESHOLD, text)


def is_generic(phrase: str, text: str | None = None) -> str | None:
    """Say whether a deprecated string is generic: a common word or a bare number.

    The rules, and their costs, are in the module docstring: identifiers are never generic;
    bare numbers always are; other strings are when wordfreq finds them common in any of its
    languages (Zipf at least :data:`ZIPF_THRESHOLD`). The first call that needs a frequency
    reads wordfreq's lists (about a second); later calls take microseconds.

    Args:
        phrase: a deprecated string (or an ``about`` anchor), already checked to be a
            non-blank ``str``.
        text: the correction's own text, if known: a string it writes as a proper noun is
            specific (step 6).

    Returns:
        None when the string names something particular (an identifier, a rare word or name,
        a phrase wordfreq does not find common); otherwise a short reason to put in an error
        message, such as ``"a bare number"`` or ``"a common word (wordfreq Zipf 4.83 in
        'en', at least 3.5)"``.

    Raises:
        ModuleNotFoundError: wordfreq is not installed (only when a frequency is needed).
    """
    found = assess(phrase, text)
    return None if found is None else found[1]
