"""The token-bounded, case- and normalisation-insensitive multi-phrase matcher."""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Generic, TypeVar

# pyahocorasick ships no type information.
import ahocorasick  # type: ignore[import-not-found, unused-ignore]

from ._errors import InvalidPhrase
from ._gcpause import paused
from ._normalize import fold, fold_text, is_token_char

__all__ = ["Match", "Matcher"]

K = TypeVar("K", bound=Hashable)

# Phrases added since the last full build go to a small second automaton, so that adding one
# phrase to a large matcher costs a rebuild of the small one only. It is merged into the main
# automaton when it outgrows this share of the main one (or this many phrases).
_DELTA_SHARE = 8
_DELTA_MIN = 256


@dataclass(frozen=True, slots=True)
class Match(Generic[K]):
    """One occurrence of a phrase in a text.

    Attributes:
        phrase: the phrase exactly as it was added.
        key: the key the phrase was added under.
        start: offset of the occurrence's first code point in the original text.
        end: offset just past its last code point (half-open), so ``text[start:end]`` is the
            occurrence.
    """

    phrase: str
    key: K
    start: int
    end: int


# What the matcher knows of each folded phrase (see _value): the phrase, its length, whether
# the text needs a boundary before and after it, and whether it is a dotted name that a "."
# plus a token character after it continues. The automata themselves store integers (an index
# into their word list), which pyahocorasick builds and loads faster than Python objects; the
# values are worked out at a phrase's first hit, so building for 100k phrases stays cheap.
_Value = tuple[str, int, bool, bool, bool]


@dataclass(slots=True)
class _Automaton:
    """A pyahocorasick automaton over ``words``, whose value for a word is its index."""

    automaton: Any
    words: list[str]
    values: list[_Value | None]


# What separates the segments of a phrase; a dotted name is a phrase whose last segment has a ".".
_SEGMENT_SEPARATOR = re.compile(r"[/@:\s]")

_by_span = itemgetter(0, 1)


def _git_suffix(folded: str, end: int) -> bool:
    """Return whether ``.git`` ends a name at ``end`` (then the end of the text or no token)."""
    if not folded.startswith(".git", end):
        return False
    after = end + 4
    if after >= len(folded):
        return True
    c = folded[after]
    if c == "." and after + 1 < len(folded):  # ".git.bak" goes on; ".git." ends a sentence
        c = folded[after + 1]
    return not (c.isalnum() or c == "_" or c == "-")


class Matcher(Generic[K]):
    """Finds every token-bounded occurrence of many phrases in a text, in one linear scan.

    A phrase *occurs* in a text when its folded form (NFKC, then casefold) is a substring of the
    text's folded form and, where the phrase begins (ends) with a token character (a letter,
    digit, ``_`` or ``-``), the folded character before (after) the occurrence is not a token
    character. A *dotted name*, a phrase whose last segment (what follows its last ``/``,
    ``@``, ``:`` or whitespace, trailing dots left out) contains a ``.`` (an e-mail address, a
    host, a version, a file name), continues through dots: where it ends with a token
    character, a ``.`` followed by a token character after it means the name goes on, so
    ``v1.2`` does not occur in ``v1.2.3`` nor ``oldco.example`` in ``oldco.example.net``; where
    it ends with a ``.``, a token character after it does the same (``v1.2.`` is not in
    ``v1.2.3``); where it ends with another character (``v1.2)``), the name ends there. A
    clone URL's ``.git`` after a dotted name is not part of it (``acme/widget.js`` occurs in
    ``github.com/acme/widget.js.git``, not in ``acme/widget.js.github``). Other
    phrases keep ``.`` as a separator (``metalcraftai/ufo`` occurs in ``metalcraftai/ufo.git``).
    All these checks look at the folded text, so a full-width ``．`` counts as a ``.``.

    Every occurrence is reported, overlapping ones included: boundaries are checked
    on all the overlapping hits of one pyahocorasick automaton, never on a leftmost-longest
    stream, so a phrase can never hide another.

    Offsets are half-open code-point offsets into the original text. Folding can change a
    text's length (``ß`` folds to ``ss``, ``ﬁ`` to ``fi``); when an occurrence begins or ends
    inside the folded form of one original character cluster, its offsets are widened to cover
    that whole cluster. A combining mark folds together with the letter before it.

    Keys are any hashable values. Several keys may share a phrase and one key may have several
    phrases; ``remove(key)`` removes that key's phrases only.

    Cost: ``find`` is linear in the text's length plus the number of automaton hits, whatever
    the number of phrases. Adding phrases rebuilds a small secondary automaton lazily, at the
    next scan; it is merged into the main one as it grows.

    Pickling: a Matcher pickles as its (phrase, key) pairs and rebuilds its automaton when
    loaded. ``bench/matcher.py`` measures the rebuild (``bench/results/matcher.md``): about
    0.03 s for 10k phrases and 0.7 s for 100k on a quiet 2-CPU machine.
    """

    def __init__(self, pairs: Iterable[tuple[str, K]] = ()) -> None:
        """Build a matcher from ``(phrase, key)`` pairs.

        Raises:
            InvalidPhrase: a phrase is not a ``str``, is empty or is only whitespace.
        """
        # folded phrase -> [(phrase as given, key)], in insertion order
        self._entries: dict[str, list[tuple[str, K]]] = {}
        self._by_key: dict[K, list[str]] = {}
        self._main: _Automaton | None = None
        self._main_words: set[str] = set()
        self._delta: _Automaton | None = None
        self._delta_words: set[str] = set()
        self._dirty = False
        self.add_many(pairs)

    # ----------------------------------------------------------------- mutation

    def add(self, phrase: str, key: K) -> None:
        """Add one phrase under ``key``. Adding a pair that is already present does nothing.

        Raises:
            InvalidPhrase: ``phrase`` is not a ``str``, is empty or is only whitespace.
            TypeError: ``key`` is not hashable.
        """
        folded = _check_phrase(phrase)
        hash(key)  # an unhashable key must fail before anything is stored
        self._insert(phrase, folded, key)

    def _insert(self, phrase: str, folded: str, key: K) -> None:
        """Add a checked phrase with its folded form under ``key``."""
        pair = (phrase, key)
        entries = self._entries.get(folded)
        if entries is None:
            self._entries[folded] = [pair]
        elif pair in entries:
            return
        else:
            entries.append(pair)
        phrases = self._by_key.get(key)
        if phrases is None:
            self._by_key[key] = [phrase]
        else:
            phrases.append(phrase)
        if folded not in self._main_words and folded not in self._delta_words:
            self._delta_words.add(folded)
            self._dirty = True

    def add_many(self, pairs: Iterable[tuple[str, K]]) -> None:
        """Add several ``(phrase, key)`` pairs; all are checked before any is added.

        Raises:
            InvalidPhrase: a phrase is not a ``str``, is empty or is only whitespace.
            TypeError: a key is not hashable.
        """
        # A few containers per phrase, none of them garbage: the collector's passes over the
        # whole process would cost more than the adding (nowline._gcpause).
        with paused():
            self._add_checked(pairs)

    def _add_checked(self, pairs: Iterable[tuple[str, K]]) -> None:
        """Check every pair, then add them all (see :meth:`add_many`)."""
        checked = []
        for phrase, key in pairs:
            folded = _check_phrase(phrase)
            hash(key)  # an unhashable key must fail before anything is stored
            checked.append((phrase, folded, key))
        # _insert, inlined: a registry adds 100k phrases at once when a process starts.
        all_entries, by_key = self._entries, self._by_key
        main_words, delta_words = self._main_words, self._delta_words
        for phrase, folded, key in checked:
            pair = (phrase, key)
            entries = all_entries.get(folded)
            if entries is None:
                all_entries[folded] = [pair]
            elif pair in entries:
                continue
            else:
                entries.append(pair)
            phrases = by_key.get(key)
            if phrases is None:
                by_key[key] = [phrase]
            else:
                phrases.append(phrase)
            if folded not in main_words and folded not in delta_words:
                delta_words.add(folded)
                self._dirty = True

    def remove(self, key: K) -> None:
        """Remove every phrase added under ``key``.

        Raises:
            KeyError: no phrase was added under ``key``.
        """
        phrases = self._by_key.pop(key)
        # Two phrases of one key can fold alike ("Foo", "foo"); visit each folded form once.
        for folded in dict.fromkeys(fold(phrase) for phrase in phrases):
            entries = [e for e in self._entries[folded] if e[1] != key]
            if entries:
                self._entries[folded] = entries
            else:
                # The automaton keeps the word until the next merge; hits on it are skipped.
                del self._entries[folded]

    def prepare(self) -> None:
        """Build the automata now rather than at the next scan (in another thread, say)."""
        self._build()

    def discard(self, key: K) -> None:
        """Remove every phrase added under ``key``, if there are any."""
        if key in self._by_key:
            self.remove(key)

    # ------------------------------------------------------------------ queries

    def __len__(self) -> int:
        """Return the number of (phrase, key) pairs."""
        return sum(len(v) for v in self._by_key.values())

    def __contains__(self, key: object) -> bool:
        """Return whether any phrase was added under ``key``."""
        return key in self._by_key

    def __iter__(self) -> Iterator[tuple[str, K]]:
        """Iterate over the (phrase, key) pairs, in insertion order per key."""
        for key, phrases in list(self._by_key.items()):
            for phrase in phrases:
                yield phrase, key

    def phrases(self, key: K) -> tuple[str, ...]:
        """Return the phrases added under ``key`` (empty if none)."""
        return tuple(self._by_key.get(key, ()))

    def find(self, text: str) -> list[Match[K]]:
        """Return every occurrence of every phrase in ``text``, ordered by start, then end.

        Raises:
            TypeError: ``text`` is not a ``str``.
        """
        if not isinstance(text, str):
            raise TypeError(f"Matcher.find() needs a str, not {type(text).__name__}")
        if not self._entries:
            return []
        self._build()
        ft = fold_text(text)
        folded = ft.folded
        n = len(folded)
        entries_of = self._entries.get
        spans: list[tuple[int, int, list[tuple[str, K]]]] = []
        # The hot loop: one pass per automaton over every overlapping hit. is_token_char is
        # inlined here because a function call per hit costs more than the rest of the check.
        for part in (self._main, self._delta):
            if part is None:
                continue
            words, values = part.words, part.values
            for last, index in part.automaton.iter(folded):
                value = values[index]
                if value is None:
                    value = values[index] = _value(words[index])
                word, length, bound_start, bound_end, dotted = value
                end = last + 1
                start = end - length
                if bound_start and start:
                    c = folded[start - 1]
                    if c.isalnum() or c == "_" or c == "-":
                        continue
                if bound_end and end < n:
                    c = folded[end]
                    if c.isalnum() or c == "_" or c == "-":
                        continue
                    # A dotted name continues through ".": "v1.2" is not in "v1.2.3";
                    # a clone URL's ".git" is no part of it ("acme/widget.js.git").
                    if c == "." and dotted and end + 1 < n:
                        c = folded[end + 1]
                        if (c.isalnum() or c == "_" or c == "-") and not _git_suffix(folded, end):
                            continue
                entries = entries_of(word)
                if entries:  # None or empty: removed since the automaton was built
                    spans.append((start, end, entries))
        if not ft.identity:
            spans = ft.original_spans(spans)
        spans.sort(key=_by_span)
        return [Match(phrase, key, s, e) for s, e, entries in spans for phrase, key in entries]

    def keys(self, text: str) -> set[K]:
        """Return the keys of every phrase that occurs in ``text``.

        Raises:
            TypeError: ``text`` is not a ``str``.
        """
        return {m.key for m in self.find(text)}

    # ---------------------------------------------------------------- internals

    def _build(self) -> None:
        """Rebuild the delta automaton (or merge everything into the main one) if stale."""
        if not self._dirty:
            return
        live = set(self._entries)
        if len(self._delta_words) >= max(_DELTA_MIN, len(self._main_words) // _DELTA_SHARE):
            self._main_words = live
            self._main = _automaton(live)
            self._delta_words = set()
            self._delta = None
        else:
            self._delta_words &= live
            self._delta = _automaton(self._delta_words)
        self._dirty = False

    def __getstate__(self) -> list[tuple[str, K]]:
        """Pickle as the (phrase, key) pairs; the automaton is rebuilt on load."""
        return list(self)

    def __setstate__(self, state: list[tuple[str, K]]) -> None:
        """Rebuild from pickled (phrase, key) pairs."""
        self.__init__(state)  # type: ignore[misc]

    def __repr__(self) -> str:
        """Return a short summary."""
        return f"Matcher({len(self._by_key)} keys, {len(self._entries)} distinct phrases)"


def _check_phrase(phrase: object) -> str:
    """Return the folded form of a valid phrase, or raise InvalidPhrase."""
    if not isinstance(phrase, str):
        raise InvalidPhrase(
            f"A phrase must be a str, not {type(phrase).__name__} ({phrase!r}); "
            "convert it with str() or leave it out."
        )
    if not phrase.strip():
        raise InvalidPhrase(
            f"A phrase must contain a non-whitespace character, got {phrase!r}; "
            "give the exact outdated string to look for."
        )
    return fold(phrase)


def _automaton(words: Iterable[str]) -> _Automaton | None:
    """Build an automaton over ``words`` (each stores its index); None when there are none."""
    listed = list(words)
    if not listed:
        return None
    automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
    add_word = automaton.add_word
    for index, word in enumerate(listed):
        add_word(word, index)
    automaton.make_automaton()
    return _Automaton(automaton, listed, [None] * len(listed))


def _value(word: str) -> _Value:
    """Return what the automata store for a folded phrase: the rules its occurrences obey."""
    # Dotted names (the README's "Matching"). The last segment is what follows the last "/",
    # "@", ":" or whitespace; its trailing dots are left out, so "ufo." (a sentence's full
    # stop) is no dotted name while "v1.2." and ".net" are.
    dotted = "." in word and "." in _SEGMENT_SEPARATOR.split(word)[-1].rstrip(".")
    last = word[-1]
    ends_in_token = is_token_char(last)
    # A dotted name that ends with a "." continues when a token character follows it
    # ("v1.2." is not in "v1.2.3"), so it needs a boundary after it like a token ending does.
    # One that ends with any other non-token character (")") ends there.
    bound_end = ends_in_token or (dotted and last == ".")
    return (word, len(word), is_token_char(word[0]), bound_end, dotted and ends_in_token)
