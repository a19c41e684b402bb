"""Checking actions and other text against the active corrections (check, annotate, guard)."""

from __future__ import annotations

import pytest

import nowline

UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
CLONE_OLD = "git clone https://github.com/metalcraftai/ufo.git"
CLONE_SIBLING = "git clone https://github.com/metalcraftai/ufo-hosted.git"


@pytest.fixture
def corrected(memory: nowline.Collection) -> nowline.Collection:
    """Return a collection holding the UFO correction."""
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    return memory


def test_check_finds_the_correction_with_offsets(corrected: nowline.Collection) -> None:
    """check() names the correction, its newest successor, and where the string occurs."""
    trips = corrected.check(CLONE_OLD)
    assert len(trips) == 1
    trip = trips[0]
    assert trip.correction.id == trip.newest.id == "move"
    (occ,) = trip.occurrences
    assert CLONE_OLD[occ.start : occ.end] == "metalcraftai/ufo" and occ.phrase == "metalcraftai/ufo"


def test_check_passes_the_sibling_and_plain_text(corrected: nowline.Collection) -> None:
    """Text without a deprecated string (token-bounded) trips nothing."""
    assert corrected.check(CLONE_SIBLING) == []
    assert corrected.check("x" * 10_000) == []


def test_check_writes_nothing(corrected: nowline.Collection) -> None:
    """check() and annotate() leave the store as it was."""
    before = corrected.get(include=["documents", "metadatas"])
    corrected.check(CLONE_OLD)
    corrected.annotate(CLONE_OLD)
    assert corrected.get(include=["documents", "metadatas"]) == before


def test_check_resolves_chains(corrected: nowline.Collection) -> None:
    """A trip of an old correction reports the newest one in its chain."""
    corrected.correct("ufo-ai/ufo is now ufo-org/ufo.", deprecates=["ufo-ai/ufo"], id="again")
    (trip,) = corrected.check(CLONE_OLD)
    assert trip.correction.id == "move" and trip.newest.id == "again"


def test_retracted_corrections_do_not_trip(corrected: nowline.Collection) -> None:
    """After retract(), the old string passes check() again."""
    corrected.retract("move")
    assert corrected.check(CLONE_OLD) == []


def test_check_is_scope_aware(scoped: nowline.Collection) -> None:
    """A correction of one user never trips another user's text."""
    scoped.correct(UFO, deprecates=["metalcraftai/ufo"], metadata={"user_id": "alice"})
    assert len(scoped.check(CLONE_OLD, metadata={"user_id": "alice"})) == 1
    assert scoped.check(CLONE_OLD, metadata={"user_id": "bob"}) == []
    assert scoped.check(CLONE_OLD, metadata={"user_id": None}) == []
    with pytest.raises(nowline.InvalidInput, match="metadata=\\{'user_id'"):
        scoped.check(CLONE_OLD)  # a scoped store needs the scope: never a silent pass


def test_annotate_appends_now_lines(corrected: nowline.Collection) -> None:
    """annotate() puts the now-line beneath text that trips a correction, else returns it."""
    assert corrected.annotate(CLONE_OLD) == f"{CLONE_OLD}\n    now: {UFO}"
    assert corrected.annotate(CLONE_SIBLING) == CLONE_SIBLING


def test_guard_stops_a_stale_tool_call(corrected: nowline.Collection) -> None:
    """A guarded tool does not run on a stale string; the error gives the now-line."""
    calls: list[str] = []

    @corrected.guard
    def run_shell(cmd: str) -> str:
        calls.append(cmd)
        return "ok"

    with pytest.raises(nowline.StaleReference) as info:
        run_shell(CLONE_OLD)
    assert calls == []
    assert f"    now: {UFO}" in str(info.value) and "allow_stale=True" in str(info.value)
    assert [t.correction.id for t in info.value.trips] == ["move"]
    assert isinstance(info.value, nowline.NowlineError)
    assert run_shell(CLONE_SIBLING) == "ok"
    assert run_shell(cmd=CLONE_OLD, allow_stale=True) == "ok"
    assert calls == [CLONE_SIBLING, CLONE_OLD]


def test_guard_looks_into_nested_arguments(corrected: nowline.Collection) -> None:
    """Strings inside lists and dicts of the arguments are checked too."""

    @corrected.guard
    def call(args: dict[str, list[str]]) -> int:
        return len(args)

    with pytest.raises(nowline.StaleReference):
        call({"argv": ["git", "clone", "metalcraftai/ufo"]})


def test_require_current_helper(corrected: nowline.Collection) -> None:
    """require_current() raises for stale text and passes current text."""
    corrected.require_current(CLONE_SIBLING, "ufo-ai/ufo")
    with pytest.raises(nowline.StaleReference):
        corrected.require_current("plan: open PR on metalcraftai/ufo")


def test_check_tool_for_models(corrected: nowline.Collection) -> None:
    """The check tool gives a model the trips with the now-line, and nothing for current text."""
    from nowline.surfaces.tools import run_tool

    stale = run_tool(corrected, "check", {"text": CLONE_OLD})
    assert not stale.is_error and f"    now: {UFO}" in stale.text
    assert stale.data is not None and stale.data["trips"][0]["correction"]["id"] == "move"
    fine = run_tool(corrected, "check", {"text": CLONE_SIBLING})
    assert fine.data == {"trips": []}
