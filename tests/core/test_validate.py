"""The write guards (the README's "Guards and undo") and bad input: clear errors, nothing stored."""

from __future__ import annotations

import math
from typing import Any

import pytest

import nowline
from nowline._rules.validate import needs_total
from tests.conftest import snapshot

UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo."


@pytest.fixture
def seeded(memory: nowline.Collection) -> nowline.Collection:
    """Return a collection with a few memories and one correction."""
    memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
    memory.remember("metalcraftai/ufo-hosted deploys on Fridays.", id="hosted")
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="c")
    return memory


BAD_DEPRECATES: list[tuple[Any, str]] = [
    ([], "empty"),
    ([""], "empty or whitespace"),
    (["   "], "empty or whitespace"),
    ([None], "must be a str"),
    ([3], "must be a str"),
    (42, "list of strings"),
    ({"a": 1}, "list of strings"),
    (["x" * 600], "characters long"),
    (["//"], "no letter or digit"),
    (["— -"], "has no letter or digit"),
    (["ufo\ud800"], "lone surrogate"),
    ([f"s{i}" for i in range(101)], "at most 100"),
]


@pytest.mark.parametrize(("deprecates", "message"), BAD_DEPRECATES)
def test_bad_deprecates_rejected_and_nothing_written(
    seeded: nowline.Collection, deprecates: Any, message: str
) -> None:
    """A malformed deprecates raises InvalidCorrection (a ValueError) and writes nothing."""
    before = snapshot(seeded)
    with pytest.raises(nowline.InvalidCorrection, match=message) as info:
        seeded.correct("text //", deprecates=deprecates, allow_absent=True)
    assert isinstance(info.value, ValueError) and isinstance(info.value, nowline.NowlineError)
    # Through add(), chromadb's own metadata checks run first (an empty or mixed list is its
    # ValueError); whatever it accepts, nowline refuses with InvalidCorrection.
    with pytest.raises(ValueError):
        seeded.add(ids=["x"], documents=["text //"], metadatas=[{"deprecates": deprecates}])
    assert snapshot(seeded) == before


def test_absent_string_rejected_unless_allowed(seeded: nowline.Collection) -> None:
    """A deprecated string missing from the text, that no memory names, is refused by default."""
    before = snapshot(seeded)
    with pytest.raises(nowline.AbsentString, match="allow_absent=True"):
        seeded.correct("Use the new repository.", deprecates=["metalcraftai/ufo-old"])
    assert snapshot(seeded) == before
    report = seeded.correct(
        "Use the new repository.", deprecates=["metalcraftai/ufo-old"], allow_absent=True, id="c2"
    )
    assert report.reached == 0


def test_absent_string_the_store_names_is_accepted_with_a_note(
    seeded: nowline.Collection,
) -> None:
    """No typo: the store names it as written, and the line shows beneath memories naming it."""
    # a plain add() still refuses it, saying the store names it (what correct() acts on)
    before = snapshot(seeded)
    with pytest.raises(nowline.AbsentString) as caught:
        seeded.add(
            ids=["c-add"],
            documents=["Use the new repository ufo-ai/ufo."],
            metadatas=[{"deprecates": ["metalcraftai/ufo"]}],
        )
    assert caught.value.named and snapshot(seeded) == before
    report = seeded.correct("Use the new repository ufo-ai/ufo.", deprecates=["metalcraftai/ufo"])
    assert report.reached >= 1
    assert any("does not name 'metalcraftai/ufo'" in note for note in report.notes)
    # one it does not name is refused, and says so
    with pytest.raises(nowline.AbsentString) as caught:
        seeded.correct("Use the new repository.", deprecates=["metalcraftai/ufo-old"])
    assert not caught.value.named


def test_too_broad_correction_refused_with_count(memory: nowline.Collection) -> None:
    """A correction reaching more than the allowed share is refused with the count."""
    memory.add(
        ids=[f"m{i}" for i in range(150)], documents=[f"note {i} about api" for i in range(150)]
    )
    memory.add(ids=["other"], documents=["unrelated"])
    before = snapshot(memory)
    with pytest.raises(nowline.CorrectionTooBroad, match="would reach 150 of 151") as info:
        memory.correct("The api is now v2.", deprecates=["api"], max_reach=0.5, allow_generic=True)
    assert info.value.reach == 150 and info.value.limit == 100
    assert snapshot(memory) == before
    report = memory.correct(
        "The api is now v2.", deprecates=["api"], max_reach=None, allow_generic=True
    )
    assert report.reached == 150


def test_reach_floor_allows_small_stores(memory: nowline.Collection) -> None:
    """In a small store a correction reaching most records is still accepted by default."""
    memory.add(ids=["a", "b"], documents=["api one", "api two"])
    assert memory.correct("The api moved.", deprecates=["api"], allow_generic=True).reached == 2


def test_nowline_keys_from_callers_are_ignored(memory: nowline.Collection) -> None:
    """Callers cannot forge bookkeeping: nowline_ keys they pass are recomputed."""
    memory.add(ids=["m"], documents=["hello"], metadatas=[{"nowline_role": "historical", "a": 1}])
    meta = (memory.get(ids=["m"])["metadatas"] or [{}])[0]
    assert "nowline_role" not in meta and meta["a"] == 1


def test_none_metadata_value_means_absent_in_add(memory: nowline.Collection) -> None:
    """A None metadata value is dropped on add (chromadb would fail) and deletes on update."""
    memory.add(ids=["m"], documents=["hello"], metadatas=[{"a": None, "b": 2}])
    assert (memory.get(ids=["m"])["metadatas"] or [{}])[0]["b"] == 2
    memory.update(ids=["m"], metadatas=[{"b": None}])
    assert (memory.get(ids=["m"])["metadatas"] or [{}])[0] is None  # as chromadb: no keys left


BAD_CALLS: list[tuple[str, dict[str, Any], Any, str]] = [
    # chromadb's verbs refuse what chromadb refuses, with chromadb's error
    ("add", {"ids": ["x", "y"], "documents": ["a"]}, ValueError, "Unequal lengths"),
    ("add", {"ids": [1], "documents": ["a"]}, ValueError, "Expected ID to be a str"),
    ("add", {"ids": ["x"], "documents": [5]}, ValueError, "Expected document to be a str"),
    # chromadb's error for a lone surrogate depends on its backend (ValueError locally,
    # TypeError over HTTP); either way nothing is written.
    ("add", {"ids": ["x"], "documents": ["bad \udc80"]}, (ValueError, TypeError), "surrogate"),
    ("remember", {"text": "a", "metadata": {"v": math.nan}}, nowline.InvalidInput, "finite"),
    (
        "add",
        {"ids": ["x"], "documents": ["a"], "metadatas": [{"observed_at": "yesterday"}]},
        nowline.InvalidInput,
        "ISO 8601",
    ),
    (
        "add",
        {"ids": ["x"], "documents": ["a"], "metadatas": [{"observed_at": math.inf}]},
        nowline.InvalidInput,
        "finite",
    ),
    ("remember", {"text": 5}, nowline.InvalidInput, "Expected text"),
    ("remember", {"text": "a", "observed_at": 1e20}, nowline.InvalidInput, "usable time"),
    ("remember", {"text": "a", "id": ""}, nowline.InvalidInput, "non-empty"),
    ("recall", {"text": "a", "n_results": 0}, nowline.InvalidInput, "positive"),
    ("recall", {"text": "a", "as_of": "soon"}, nowline.InvalidInput, "ISO 8601"),
    ("retract", {"correction_id": "nope"}, nowline.UnknownRecord, "No record"),
    ("retract", {"correction_id": "pr"}, nowline.InvalidInput, "not a correction"),
    (
        "correct",
        {"text": "x", "deprecates": ["x"], "max_reach": 2.5},
        nowline.InvalidInput,
        "share",
    ),
]


@pytest.mark.parametrize(("method", "kwargs", "error", "message"), BAD_CALLS)
def test_bad_calls_raise_clear_errors_and_write_nothing(
    seeded: nowline.Collection,
    method: str,
    kwargs: dict[str, Any],
    error: Any,
    message: str,
) -> None:
    """Each bad call raises a nowline error naming the problem; the store is unchanged."""
    before = snapshot(seeded)
    with pytest.raises(error, match=message):
        getattr(seeded, method)(**kwargs)
    assert snapshot(seeded) == before


def test_chroma_errors_pass_through(seeded: nowline.Collection) -> None:
    """Errors that chromadb raises (duplicate ids) reach the caller unchanged."""
    import chromadb.errors

    before = snapshot(seeded)
    with pytest.raises(chromadb.errors.DuplicateIDError):
        seeded.add(ids=["d", "d"], documents=["a", "b"])
    assert snapshot(seeded) == before


def test_flags_must_be_booleans(memory: nowline.Collection) -> None:
    """Truthy strings are refused where a bool is expected, and guard() needs a function."""
    with pytest.raises(nowline.InvalidInput, match="include_historical"):
        memory.recall("x", include_historical="no")  # type: ignore[arg-type]
    with pytest.raises(nowline.InvalidInput, match="annotate"):
        nowline.wrap(memory.raw, annotate="no")  # type: ignore[arg-type]
    with pytest.raises(nowline.InvalidInput, match="decorates a function"):
        memory.guard(5)  # type: ignore[arg-type]


def test_a_reach_within_an_empty_stores_limit_needs_no_count() -> None:
    """A limit never shrinks as the store grows, so only a reach past the floor needs its size."""
    assert not needs_total(None, [10**6])
    assert not needs_total(0.25, [0, nowline.REACH_FLOOR])
    assert needs_total(0.25, [3, nowline.REACH_FLOOR + 1])
    assert not needs_total(5, [5]) and needs_total(5, [6]) and needs_total(0, [1])
