"""Property tests: the Matcher against a slow, obvious oracle and a reference model."""

from __future__ import annotations

import pickle
import unicodedata
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from nowline.matchers import Matcher, _matcher

# Token characters (weighted up), separators, dots (weighted up, so that phrases are often dotted
# names and texts often continue them: "v1.2" in "v1.2.3"), and characters whose folded form
# differs from them: ß and ẞ fold to "ss", İ to "i" + U+0307, ﬁ to "fi", e + U+0301 composes
# to é, the full-width dot "．" folds to ".", and "…" to "...".
_TOKEN = "abcxyzABCXYZ019_-"
_SEPARATORS = " /#\n@:"
_DOTS = "."
_NON_ASCII = ["ü", "Ü", "ß", "ẞ", "İ", "ı", "é", "e\u0301", "Ａ", "ａ", "ﬁ", "．", "…"]
_PIECE = st.one_of(
    st.sampled_from(_TOKEN),
    st.sampled_from(_TOKEN),
    st.sampled_from(_TOKEN),
    st.sampled_from(_SEPARATORS),
    st.just(_DOTS),
    st.just(_DOTS),
    st.sampled_from(_NON_ASCII),
)
_ASCII_PIECE = st.one_of(
    st.sampled_from(_TOKEN),
    st.sampled_from(_TOKEN),
    st.sampled_from(_SEPARATORS),
    st.just(_DOTS),
)
_KEY = st.integers(0, 4)

_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _fold(s: str) -> str:
    """Fold as the README's "Matching" says: NFKC, then casefold."""
    return unicodedata.normalize("NFKC", s).casefold()


def _is_token(c: str) -> bool:
    """Return whether ``c`` is a token character: a letter, a digit, ``_`` or ``-``."""
    return c.isalnum() or c in "_-"


def _is_dotted(fp: str) -> bool:
    """Return whether a folded phrase is a dotted name: its last segment has an inner dot."""
    segment = fp
    for i, c in enumerate(fp):
        if c in "/@:" or c.isspace():
            segment = fp[i + 1 :]
    while segment.endswith("."):
        segment = segment[:-1]
    return "." in segment


def _git_ends(rest: str) -> bool:
    """Return whether ``rest`` starts with a clone URL's ``.git`` and nothing of a name after."""
    after = rest[5:6] if rest[4:5] == "." else rest[4:5]
    return rest.startswith(".git") and not (after and _is_token(after))


def _name_goes_on(fp: str, rest: str) -> bool:
    """Return whether ``rest``, the folded text after an occurrence of ``fp``, continues it."""
    if _is_token(fp[-1]):
        if rest[:1] and _is_token(rest[0]):
            return True
        if _git_ends(rest):
            return False
        return _is_dotted(fp) and rest[:1] == "." and rest[1:2] != "" and _is_token(rest[1])
    if fp[-1] == "." and _is_dotted(fp):
        return rest[:1] != "" and _is_token(rest[0])
    return False


def _oracle(pairs: list[tuple[str, int]], text: str) -> Counter[tuple[str, int, int, int]]:
    """Find every bounded occurrence, as (phrase, key, folded start, folded end), by str.find."""
    folded = _fold(text)
    found: Counter[tuple[str, int, int, int]] = Counter()
    for phrase, key in dict.fromkeys(pairs):
        fp = _fold(phrase)
        i = folded.find(fp)
        while i != -1:
            j = i + len(fp)
            ok_start = not _is_token(fp[0]) or i == 0 or not _is_token(folded[i - 1])
            if ok_start and not _name_goes_on(fp, folded[j : j + 2]):
                found[(phrase, key, i, j)] += 1
            i = folded.find(fp, i + 1)
    return found


def _offsets_preserved(text: str) -> bool:
    """Return whether folding maps every code point of ``text`` to exactly one code point."""
    return all(len(_fold(c)) == 1 for c in text) and _fold(text) == "".join(map(_fold, text))


@st.composite
def _cases(draw: st.DrawFn, piece: st.SearchStrategy[str]) -> tuple[list[tuple[str, int]], str]:
    """Draw a text and (phrase, key) pairs, many phrases cut from the text so that they occur.

    Half of the cut phrases end just before or just after a dot of the text, where a dotted
    name may go on.
    """
    text = draw(st.lists(piece, max_size=60).map("".join))
    pairs = []
    for _ in range(draw(st.integers(1, 8))):
        if text and draw(st.booleans()):
            start = draw(st.integers(0, len(text) - 1))
            end = draw(st.integers(start + 1, min(len(text), start + 8)))
            dots = [i for i in range(start + 1, min(len(text), start + 12)) if text[i] in ".．…"]
            if draw(st.booleans()) and dots:
                end = draw(st.sampled_from(dots)) + draw(st.integers(0, 1))
            phrase = text[start:end]
            if draw(st.booleans()):
                phrase = phrase.swapcase()
        else:
            phrase = draw(st.lists(piece, min_size=1, max_size=6).map("".join))
        if phrase.strip():
            pairs.append((phrase, draw(_KEY)))
    return pairs, text


# Dotted names: labels joined by dots (an ASCII or a full-width one), names joined by gaps.
_LABEL = st.text(alphabet="abxyAB019_-ü", min_size=1, max_size=3)
_NAME_DOT = st.sampled_from([".", ".", ".", "．"])
_GAP = st.sampled_from([" ", "/", "@", ":", ", ", ". ", ".", "…", "\n", "(", ")", ""])
_PREFIX = st.sampled_from(["", "", "", "x@", "/", "v", "."])
_SUFFIX = st.sampled_from(["", "", "", "", ".", ".", ")", "@", " "])


@st.composite
def _dotted_cases(draw: st.DrawFn) -> tuple[list[tuple[str, int]], str]:
    """Draw a text of dotted names (``mail.oldco.example``) and phrases made of their labels.

    A phrase is a run of one name's labels joined by dots (``oldco.example``, a prefix such as
    ``mail.oldco``, a single label), sometimes with something before or after it (a trailing
    ``.`` or ``)``, a ``user@``), so it occurs in the text and the text often goes on after it.
    """
    names = draw(st.lists(st.lists(_LABEL, min_size=2, max_size=4), min_size=1, max_size=5))
    text = ""
    for labels in names:
        text += labels[0] + "".join(draw(_NAME_DOT) + label for label in labels[1:]) + draw(_GAP)
    pairs = []
    for _ in range(draw(st.integers(1, 6))):
        labels = draw(st.sampled_from(names))
        i = draw(st.integers(0, len(labels) - 1))
        # Mostly two labels or more, so that the phrase itself is a dotted name.
        j = draw(
            st.integers(min(i + 2, len(labels)) if draw(st.booleans()) else i + 1, len(labels))
        )
        phrase = draw(_PREFIX) + ".".join(labels[i:j]) + draw(_SUFFIX)
        if draw(st.booleans()):
            phrase = phrase.swapcase()
        pairs.append((phrase, draw(_KEY)))
    return pairs, text


def _as_counter(matches: list[Any]) -> Counter[tuple[str, int, int, int]]:
    """Count matches as (phrase, key, start, end) tuples."""
    return Counter((m.phrase, m.key, m.start, m.end) for m in matches)


def _check_against_oracle(pairs: list[tuple[str, int]], text: str) -> None:
    """Assert that the Matcher reports the oracle's occurrences, each covering its phrase."""
    matches = Matcher(pairs).find(text)
    expected = _oracle(pairs, text)
    assert Counter((m.phrase, m.key) for m in matches) == Counter(
        (p, k) for p, k, _, _ in expected.elements()
    )
    for m in matches:
        assert 0 <= m.start < m.end <= len(text)
        assert _fold(m.phrase) in _fold(text[m.start : m.end])
    if _offsets_preserved(text):
        assert _as_counter(matches) == expected
    assert [(m.start, m.end) for m in matches] == sorted((m.start, m.end) for m in matches)


@_SETTINGS
@given(case=_cases(_PIECE))
def test_matcher_agrees_with_oracle(case: tuple[list[tuple[str, int]], str]) -> None:
    """The Matcher reports exactly the oracle's occurrences, each covering its phrase."""
    _check_against_oracle(*case)


@_SETTINGS
@given(case=_dotted_cases())
def test_dotted_names_agree_with_oracle(case: tuple[list[tuple[str, int]], str]) -> None:
    """On texts of dotted names the Matcher reports exactly the oracle's occurrences."""
    _check_against_oracle(*case)


@_SETTINGS
@given(case=_cases(_ASCII_PIECE))
def test_ascii_offsets_equal_oracle(case: tuple[list[tuple[str, int]], str]) -> None:
    """On ASCII texts the Matcher's offsets are exactly the oracle's."""
    pairs, text = case
    assert _as_counter(Matcher(pairs).find(text)) == _oracle(pairs, text)


# ------------------------------------------------------------------------ reference model

# Dots and dotted pieces, so that model phrases are often dotted names ("v1.2", "v1.2.") and
# model texts often go on after them ("v1.2.3", "v1.2．b", "b.ab.ab").
_MODEL_PHRASE = st.lists(
    st.one_of(
        st.sampled_from(["ab", "AB", "b", "a-b", "ß", "ss", "/", "x y", "é", "e\u0301"]),
        st.sampled_from([".", "v1.2", "v1.2.", "b.ab"]),
    ),
    min_size=1,
    max_size=3,
).map("".join)
_MODEL_TEXT = st.lists(
    st.one_of(
        st.sampled_from(["ab", "b", "-", " ", "/", "ß", "SS", "x y", "é", "e\u0301", "c", "@"]),
        st.sampled_from([".", "．", "v1.2", "V1.2", ".3", "b.ab"]),
    ),
    max_size=20,
).map("".join)


class MatcherModel(RuleBasedStateMachine):
    """Drives a Matcher and a plain list of (phrase, key) pairs through the same operations."""

    def __init__(self) -> None:
        """Start with an empty Matcher and an empty model."""
        super().__init__()
        self.matcher: Matcher[int] = Matcher()
        self.model: list[tuple[str, int]] = []

    @rule(phrase=_MODEL_PHRASE, key=_KEY)
    def add(self, phrase: str, key: int) -> None:
        """Add one pair to both."""
        self.matcher.add(phrase, key)
        if (phrase, key) not in self.model:
            self.model.append((phrase, key))

    @rule(pairs=st.lists(st.tuples(_MODEL_PHRASE, _KEY), max_size=6))
    def add_many(self, pairs: list[tuple[str, int]]) -> None:
        """Add several pairs to both."""
        self.matcher.add_many(pairs)
        for pair in pairs:
            if pair not in self.model:
                self.model.append(pair)

    @rule(pairs=st.lists(st.tuples(_MODEL_PHRASE, _KEY), max_size=3))
    def add_many_with_a_blank(self, pairs: list[tuple[str, int]]) -> None:
        """A batch with a blank phrase changes neither."""
        with pytest.raises(ValueError):
            self.matcher.add_many([*pairs, (" ", 0)])

    @rule(key=_KEY)
    def remove(self, key: int) -> None:
        """Remove a key from both; an unknown key raises KeyError."""
        if any(k == key for _, k in self.model):
            self.matcher.remove(key)
            self.model = [(p, k) for p, k in self.model if k != key]
        else:
            with pytest.raises(KeyError):
                self.matcher.remove(key)

    @rule(key=_KEY)
    def discard(self, key: int) -> None:
        """Discard a key from both."""
        self.matcher.discard(key)
        self.model = [(p, k) for p, k in self.model if k != key]

    @precondition(lambda self: bool(self.model))
    @rule()
    def pickle_round_trip(self) -> None:
        """Replace the Matcher by a pickled and loaded copy."""
        self.matcher = pickle.loads(pickle.dumps(self.matcher))

    @rule(text=_MODEL_TEXT)
    def find(self, text: str) -> None:
        """The Matcher finds what the oracle finds over the model's pairs."""
        self._check_find(text)

    @precondition(lambda self: bool(self.model))
    @rule(data=st.data(), before=_MODEL_TEXT, after=_MODEL_TEXT)
    def find_around_a_phrase(self, data: st.DataObject, before: str, after: str) -> None:
        """Around a model phrase ("v1.2" in "v1.2.3"), the Matcher finds what the oracle finds."""
        phrase, _ = data.draw(st.sampled_from(self.model))
        self._check_find(before + phrase + after)

    def _check_find(self, text: str) -> None:
        """Assert that the Matcher finds in ``text`` what the oracle finds over the model."""
        matches = self.matcher.find(text)
        assert Counter((m.phrase, m.key) for m in matches) == Counter(
            (p, k) for p, k, _, _ in _oracle(self.model, text).elements()
        )
        assert self.matcher.keys(text) == {k for _, k, _, _ in _oracle(self.model, text)}

    @invariant()
    def same_pairs(self) -> None:
        """The Matcher holds the model's pairs, grouped as the model groups them."""
        assert sorted(self.matcher) == sorted(self.model)
        assert len(self.matcher) == len(self.model)
        for key in range(5):
            assert (key in self.matcher) == any(k == key for _, k in self.model)
            assert self.matcher.phrases(key) == tuple(p for p, k in self.model if k == key)


@pytest.mark.parametrize("delta_min", [1, 3, 256])
def test_matcher_follows_reference_model(monkeypatch: pytest.MonkeyPatch, delta_min: int) -> None:
    """Any sequence of adds, removes, pickling and scans matches a plain list of pairs."""
    # A small delta threshold makes the delta automaton merge into the main one often.
    monkeypatch.setattr(_matcher, "_DELTA_MIN", delta_min)
    run_state_machine_as_test(
        MatcherModel,
        settings=settings(
            max_examples=50,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
