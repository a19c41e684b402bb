"""The Matcher's API: keys and phrases, adding and removing, errors, pickling, exports."""

from __future__ import annotations

import dataclasses
import doctest
import pickle
from typing import Any, ClassVar

import pytest

import nowline.matchers
from nowline.errors import InvalidPhrase, NowlineError
from nowline.matchers import Match, Matcher, _matcher


def _found(matcher: Matcher[Any], text: str) -> list[tuple[str, Any, int, int]]:
    """Return every match as a (phrase, key, start, end) tuple."""
    return [(m.phrase, m.key, m.start, m.end) for m in matcher.find(text)]


# ------------------------------------------------------------------------ keys and phrases


def test_several_keys_share_one_phrase() -> None:
    """A phrase added under two keys yields one match per key, each with its phrase as given."""
    matcher = Matcher([("metalcraftai/ufo", "a"), ("MetalcraftAI/UFO", "b")])
    assert _found(matcher, "see metalcraftai/ufo") == [
        ("metalcraftai/ufo", "a", 4, 20),
        ("MetalcraftAI/UFO", "b", 4, 20),
    ]
    assert matcher.keys("see metalcraftai/ufo") == {"a", "b"}


def test_one_key_has_several_phrases() -> None:
    """A key with several phrases is reported for each phrase that occurs."""
    matcher = Matcher([("ufo", "k"), ("metalcraftai", "k"), ("absent", "k")])
    assert _found(matcher, "metalcraftai/ufo") == [
        ("metalcraftai", "k", 0, 12),
        ("ufo", "k", 13, 16),
    ]
    assert matcher.phrases("k") == ("ufo", "metalcraftai", "absent")
    assert matcher.keys("metalcraftai/ufo") == {"k"}


def test_keys_returns_a_set_of_the_keys_found() -> None:
    """keys() returns a set holding each key found, once, and an empty set when none is."""
    matcher = Matcher([("ufo", 1), ("UFO", 2), ("other", 3)])
    keys = matcher.keys("ufo ufo ufo")
    assert isinstance(keys, set)
    assert keys == {1, 2}
    assert matcher.keys("nothing here") == set()


def test_len_contains_iter_and_phrases() -> None:
    """len, in, iteration and phrases() describe the (phrase, key) pairs that were added."""
    matcher = Matcher([("a1", "x"), ("b1", "y"), ("a2", "x")])
    assert len(matcher) == 3
    assert "x" in matcher
    assert "z" not in matcher
    assert sorted(matcher) == [("a1", "x"), ("a2", "x"), ("b1", "y")]
    assert matcher.phrases("x") == ("a1", "a2")
    assert matcher.phrases("z") == ()


def test_adding_a_pair_twice_changes_nothing() -> None:
    """Adding a (phrase, key) pair that is already present neither counts nor matches twice."""
    matcher = Matcher([("ufo", 1)])
    matcher.add("ufo", 1)
    matcher.add_many([("ufo", 1)])
    assert len(matcher) == 1
    assert _found(matcher, "ufo") == [("ufo", 1, 0, 3)]


def test_empty_matcher_finds_nothing() -> None:
    """A matcher without phrases finds nothing and has no keys."""
    matcher: Matcher[str] = Matcher()
    assert matcher.find("anything at all") == []
    assert len(matcher) == 0
    assert list(matcher) == []


def test_results_are_ordered_by_start_then_end() -> None:
    """Matches come ordered by (start, end), whatever the order the automata report hits in."""
    matcher = Matcher([("/ufo", "tail"), ("ufo-ai/ufo", "long")])
    matcher.find("")  # build, so that the next phrase goes to a second automaton
    matcher.add("ufo-ai", "short")
    matches = matcher.find("ufo-ai/ufo and ufo-ai")
    assert [(m.key, m.start, m.end) for m in matches] == [
        ("short", 0, 6),
        ("long", 0, 10),
        ("tail", 6, 10),
        ("short", 15, 21),
    ]


def test_match_is_a_frozen_dataclass() -> None:
    """Match is a frozen, slotted dataclass with phrase, key, start and end."""
    match = Match("ufo", "k", 0, 3)
    assert [f.name for f in dataclasses.fields(match)] == ["phrase", "key", "start", "end"]
    assert not hasattr(match, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        match.start = 1  # type: ignore[misc]


# ------------------------------------------------------------------------------- removing


def test_remove_removes_only_that_keys_phrases() -> None:
    """remove(key) drops that key's phrases; a phrase shared with another key stays for it."""
    matcher = Matcher([("ufo", "a"), ("ufo", "b"), ("metalcraftai", "a")])
    matcher.find("")  # remove after a build, so the automaton still holds the words
    matcher.remove("a")
    assert _found(matcher, "metalcraftai/ufo") == [("ufo", "b", 13, 16)]
    assert "a" not in matcher
    assert len(matcher) == 1
    assert matcher.phrases("a") == ()


def test_remove_before_the_first_scan() -> None:
    """Phrases removed before any scan are never found."""
    matcher = Matcher([("ufo", "a"), ("metalcraftai", "b")])
    matcher.remove("a")
    assert matcher.keys("metalcraftai/ufo") == {"b"}


def test_remove_key_whose_phrases_fold_alike() -> None:
    """A key with two phrases that fold alike ("UFO", "ufo") is removed without error."""
    matcher = Matcher([("UFO", "k"), ("ufo", "k"), ("metalcraftai", "m")])
    assert len(matcher.find("ufo")) == 2
    matcher.remove("k")
    assert matcher.find("ufo") == []
    assert list(matcher) == [("metalcraftai", "m")]
    shared = Matcher([("UFO", "k"), ("ufo", "k"), ("ufo", "other")])
    shared.remove("k")
    assert _found(shared, "ufo") == [("ufo", "other", 0, 3)]


def test_re_adding_after_removing() -> None:
    """A phrase removed and then added again is found again, under its new key."""
    matcher = Matcher([("ufo", "old")])
    assert matcher.keys("ufo") == {"old"}
    matcher.remove("old")
    assert matcher.keys("ufo") == set()
    matcher.add("UFO", "new")
    assert _found(matcher, "ufo") == [("UFO", "new", 0, 3)]
    matcher.remove("new")
    matcher.add("ufo", "old")
    assert _found(matcher, "ufo") == [("ufo", "old", 0, 3)]


def test_remove_unknown_key_raises_key_error() -> None:
    """remove() of a key that has no phrases raises KeyError and changes nothing."""
    matcher = Matcher([("ufo", "a")])
    with pytest.raises(KeyError):
        matcher.remove("b")
    assert list(matcher) == [("ufo", "a")]
    assert matcher.keys("ufo") == {"a"}
    matcher.remove("a")
    with pytest.raises(KeyError):
        matcher.remove("a")


def test_discard_unknown_key_is_silent() -> None:
    """discard() of an unknown key does nothing, and of a known key removes its phrases."""
    matcher = Matcher([("ufo", "a"), ("metalcraftai", "b")])
    matcher.discard("nope")
    assert len(matcher) == 2
    matcher.discard("a")
    assert matcher.keys("metalcraftai/ufo") == {"b"}


def test_delta_automaton_merges_into_the_main_one() -> None:
    """Finds stay right while phrases move from the small delta automaton into the main one."""
    first = [(f"repo-{i}/old", i) for i in range(300)]
    matcher: Matcher[Any] = Matcher(first)
    text = " ".join(p for p, _ in first[::7])
    assert matcher.keys(text) == {i for _, i in first[::7]}

    # A few more phrases go to the delta automaton; both automata answer.
    matcher.add_many([(f"late-{i}", 1000 + i) for i in range(10)])
    assert matcher.keys("late-3 repo-7/old late-30") == {1003, 7}
    assert matcher._delta is not None, "the test no longer exercises the delta automaton"

    # Enough new phrases merge everything into the main automaton again.
    matcher.add_many([(f"more-{i}", 2000 + i) for i in range(300)])
    assert matcher.keys("late-3 repo-7/old more-299 repo-8/old") == {1003, 7, 2299, 8}
    assert matcher._delta is None, "the test no longer exercises the merge"

    # A removed word lingers in the main automaton until the next merge; its hits are skipped,
    # and adding it again revives it there.
    matcher.remove(7)
    assert matcher.keys("repo-7/old repo-8/old") == {8}
    matcher.add("repo-7/old", "again")
    assert _found(matcher, "repo-7/old") == [("repo-7/old", "again", 0, 10)]
    assert len(matcher) == 300 + 10 + 300


@pytest.mark.parametrize("delta_min", [1, 2, 256])
def test_interleaved_adds_removes_and_scans(
    monkeypatch: pytest.MonkeyPatch, delta_min: int
) -> None:
    """Adds, removes and scans in any order give the same finds as a fresh matcher."""
    monkeypatch.setattr(_matcher, "_DELTA_MIN", delta_min)
    matcher: Matcher[int] = Matcher()
    text = " ".join(f"w{i}" for i in range(60))
    for i in range(60):
        matcher.add(f"W{i}", i)
        if i % 3 == 0:
            matcher.remove(i // 2)
        if i % 5 == 0:
            matcher.add(f"w{i // 2}", i // 2)
        if i % 4 == 0:
            assert sorted(_found(matcher, text)) == sorted(_found(Matcher(list(matcher)), text))
    assert sorted(_found(matcher, text)) == sorted(_found(Matcher(list(matcher)), text))


# --------------------------------------------------------------------------------- errors


@pytest.mark.parametrize("phrase", ["", " ", "\t\n ", "\u3000"])
def test_blank_phrase_raises_invalid_phrase(phrase: str) -> None:
    """An empty or whitespace-only phrase raises InvalidPhrase, which says what to give."""
    matcher: Matcher[str] = Matcher()
    with pytest.raises(InvalidPhrase) as raised:
        matcher.add(phrase, "k")
    assert len(matcher) == 0
    assert "non-whitespace" in str(raised.value)
    assert "outdated string" in str(raised.value)


@pytest.mark.parametrize("phrase", [None, 1, b"x", ["x"]])
def test_non_str_phrase_raises_invalid_phrase(phrase: object) -> None:
    """A phrase that is not a str raises InvalidPhrase, which names the type and the remedy."""
    matcher: Matcher[str] = Matcher()
    with pytest.raises(InvalidPhrase) as raised:
        matcher.add(phrase, "k")  # type: ignore[arg-type]
    assert len(matcher) == 0
    assert "k" not in matcher
    assert type(phrase).__name__ in str(raised.value)
    assert "str()" in str(raised.value)


def test_invalid_phrase_is_a_value_error_and_a_nowline_error() -> None:
    """InvalidPhrase is caught by ``except ValueError`` and by ``except NowlineError``."""
    assert issubclass(InvalidPhrase, ValueError)
    assert issubclass(InvalidPhrase, NowlineError)
    with pytest.raises(ValueError):
        Matcher([("", "k")])
    with pytest.raises(NowlineError):
        Matcher([(None, "k")])  # type: ignore[list-item]


def test_add_many_is_all_or_nothing() -> None:
    """add_many() with one invalid phrase raises and adds none of the pairs."""
    matcher = Matcher([("kept", 0)])
    with pytest.raises(InvalidPhrase):
        matcher.add_many([("ufo", 1), ("metalcraftai", 2), ("  ", 3)])
    assert list(matcher) == [("kept", 0)]
    assert matcher.keys("ufo metalcraftai kept") == {0}


def test_constructor_with_invalid_phrase_adds_nothing() -> None:
    """Matcher(pairs) with an invalid phrase raises before adding any pair."""

    class Recording(Matcher[int]):
        """A Matcher that records the phrases add() receives."""

        added: ClassVar[list[str]] = []

        def add(self, phrase: str, key: int) -> None:
            """Record, then add."""
            self.added.append(phrase)
            super().add(phrase, key)

    with pytest.raises(InvalidPhrase):
        Recording([("ufo", 1), (b"x", 2)])  # type: ignore[list-item]
    assert Recording.added == []


def test_unhashable_key_raises_type_error_and_adds_nothing() -> None:
    """A key that cannot be hashed raises TypeError and leaves nothing behind."""
    matcher: Matcher[Any] = Matcher()
    with pytest.raises(TypeError):
        matcher.add("ufo", ["not", "hashable"])
    with pytest.raises(TypeError):
        matcher.add_many([("metalcraftai", 1), ("ufo", {})])
    matcher.add("other", 2)
    assert matcher.find("ufo metalcraftai") == []
    assert list(matcher) == [("other", 2)]


@pytest.mark.parametrize("text", [None, b"ufo", 1, ["ufo"]])
def test_find_on_non_str_raises_type_error(text: object) -> None:
    """find() and keys() on anything but a str raise TypeError."""
    matcher = Matcher([("ufo", 1)])
    with pytest.raises(TypeError, match="str"):
        matcher.find(text)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        matcher.keys(text)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------- pickling


def test_pickle_round_trip_keeps_behaviour() -> None:
    """A pickled and loaded matcher has the same pairs and finds the same matches."""
    matcher = Matcher([("ufo", "a"), ("UFO", "b"), ("metalcraftai/ufo", "a"), ("straße", "c")])
    matcher.find("")
    matcher.add("late", "d")
    matcher.remove("b")
    text = "metalcraftai/ufo late STRASSE ufo-hosted ufo"
    loaded: Matcher[str] = pickle.loads(pickle.dumps(matcher))
    assert _found(loaded, text) == _found(matcher, text)
    assert len(_found(loaded, text)) == 5
    assert sorted(loaded) == sorted(matcher)
    assert loaded.phrases("a") == matcher.phrases("a")
    loaded.add("more", "e")
    assert loaded.keys("more ufo") == {"a", "e"}
    assert "e" not in matcher


def test_pickle_round_trip_of_an_empty_matcher() -> None:
    """An empty matcher survives pickling and can be filled afterwards."""
    loaded: Matcher[int] = pickle.loads(pickle.dumps(Matcher()))
    assert loaded.find("ufo") == []
    loaded.add("ufo", 1)
    assert loaded.keys("ufo") == {1}


# -------------------------------------------------------------------------------- exports


def test_all_is_sorted_and_resolves() -> None:
    """nowline.matchers.__all__ is sorted and every name in it exists and is documented."""
    names = nowline.matchers.__all__
    assert names == sorted(names)
    for name in names:
        obj = getattr(nowline.matchers, name)
        assert obj.__doc__, name


def test_package_docstring_examples_hold() -> None:
    """The examples in nowline.matchers' docstring give the output they show."""
    result = doctest.testmod(nowline.matchers, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
