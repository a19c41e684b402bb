"""Undo: retract and delete of corrections, chains restored step by step.

See the README's "Guards and undo".

After every step the stored links and every recalled role and now-line are compared with the
from-scratch reference, besides the explicit expectations spelled out in each test.
"""

from __future__ import annotations

import pytest

import nowline
from tests.reliability.invariants import links_match_reference, recall_matches_reference

C1 = "Moved from a/one to a/two."
C2 = "Moved from a/two to a/three."
C3 = "Moved from a/three to a/four."
MEMORIES = {
    "m1": "build a/one nightly",
    "m2": "build a/two nightly",
    "m3": "build a/three nightly",
    "m4": "build a/four nightly",
}


def _states(col: nowline.Collection) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Check both invariants and return {id: (role, now-line ids)} from recall().

    The invariants compare the direct corrections too; the tests spell out the now-lines.
    """
    links_match_reference(col)
    return recall_matches_reference(col)


@pytest.fixture
def chain(memory: nowline.Collection) -> nowline.Collection:
    """Return a store with four memories and the chain C1 <- C2 <- C3."""
    for rid, text in MEMORIES.items():
        memory.remember(text, id=rid)
    memory.correct(C1, deprecates=["a/one"], id="c1")
    memory.correct(C2, deprecates=["a/two"], id="c2")
    memory.correct(C3, deprecates=["a/three"], id="c3")
    return memory


def test_chain_resolves_to_the_newest(chain: nowline.Collection) -> None:
    """Every link of the chain shows C3; C1 and C2 are historical, C3 is the transition."""
    s = _states(chain)
    assert s["m1"] == s["m2"] == s["m3"] == ("historical", ("c3",))
    assert s["m4"] == ("current", ())
    assert s["c1"] == s["c2"] == ("historical", ("c3",))
    assert s["c3"] == ("transition", ())


def test_retract_newest_then_delete_middle_restores_step_by_step(
    chain: nowline.Collection,
) -> None:
    """Retracting C3 makes C2 newest, deleting C2 makes C1 newest, retracting C1 frees all."""
    chain.retract("c3")
    s = _states(chain)
    assert s["m1"] == s["m2"] == s["c1"] == ("historical", ("c2",))
    assert s["m3"] == ("current", ()) and s["c2"] == ("transition", ())
    assert s["c3"] == ("retracted", ())

    chain.delete(ids=["c2"])
    s = _states(chain)
    assert "c2" not in s
    assert s["m1"] == ("historical", ("c1",)) and s["c1"] == ("transition", ())
    assert s["m2"] == s["m3"] == ("current", ())

    chain.retract("c1")
    s = _states(chain)
    assert {rid: s[rid] for rid in MEMORIES} == dict.fromkeys(MEMORIES, ("current", ()))
    assert s["c1"] == s["c3"] == ("retracted", ())
    assert chain.get(where={"nowline_role": "retracted"}, include=[])["ids"] in (
        ["c1", "c3"],
        ["c3", "c1"],
    )


def test_delete_middle_while_newest_is_active(chain: nowline.Collection) -> None:
    """Deleting C2 breaks the chain: a/one memories fall back to C1, a/three ones keep C3."""
    chain.delete(ids=["c2"])
    s = _states(chain)
    assert s["m1"] == ("historical", ("c1",)) and s["c1"] == ("transition", ())
    assert s["m2"] == ("current", ())
    assert s["m3"] == ("historical", ("c3",)) and s["c3"] == ("transition", ())


def test_retract_a_superseded_correction(chain: nowline.Collection) -> None:
    """Retracting C1 (already historical) frees only what C1 held; C1 becomes inert."""
    chain.retract("c1")
    s = _states(chain)
    assert s["m1"] == ("current", ())
    assert s["m2"] == s["m3"] == ("historical", ("c3",))
    assert s["c1"] == ("retracted", ())
    meta = (chain.raw.get(ids=["c1"])["metadatas"] or [{}])[0]
    assert "nowline_by" not in meta and meta["nowline_retracted"] > 0


def test_branching_chain_falls_back_to_the_other_branch(memory: nowline.Collection) -> None:
    """C1 superseded by C2a and C2b shows the newer; retracting it shows the older one."""
    memory.remember("deploy x/old today", id="m")
    memory.correct("Moved from x/old to x/mid via y/route.", deprecates=["x/old"], id="c1")
    memory.correct("Moved from x/mid to x/new.", deprecates=["x/mid"], id="c2a")
    memory.correct("Moved from y/route to y/lane.", deprecates=["y/route"], id="c2b")
    assert _states(memory)["m"] == ("historical", ("c2b",))
    memory.retract("c2b")
    assert _states(memory)["m"] == ("historical", ("c2a",))
    memory.delete(ids=["c2a"])
    assert _states(memory)["m"] == ("historical", ("c1",))


def test_another_correction_still_holds_the_memory(memory: nowline.Collection) -> None:
    """A memory reached by two corrections stays historical when one is retracted or deleted."""
    memory.remember("ask dana about acme/app", id="m")
    memory.correct(
        "Dana left; ask lee instead of dana.", deprecates=["dana"], about=["acme/app"], id="people"
    )
    memory.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="repo")
    assert _states(memory)["m"] == ("historical", ("people", "repo"))
    memory.retract("people")
    assert _states(memory)["m"] == ("historical", ("repo",))
    memory.delete(ids=["repo"])
    assert _states(memory)["m"] == ("current", ())


def test_delete_by_where_unlinks_corrections(chain: nowline.Collection) -> None:
    """delete(where=...) that removes corrections unlinks them like delete(ids=...)."""
    chain.update(ids=["c2", "c3"], metadatas=[{"kind": "fix"}, {"kind": "fix"}])
    chain.delete(where={"kind": "fix"})
    s = _states(chain)
    assert s["m1"] == ("historical", ("c1",)) and s["c1"] == ("transition", ())
    assert s["m2"] == s["m3"] == ("current", ())


def test_delete_a_correction_with_its_memories_in_one_call(chain: nowline.Collection) -> None:
    """One delete of a correction and some of its memories leaves consistent links behind."""
    chain.delete(ids=["c3", "m3", "m1"])
    s = _states(chain)
    assert set(s) == {"m2", "m4", "c1", "c2"}
    assert s["m2"] == s["c1"] == ("historical", ("c2",))


def test_dropping_deprecates_turns_a_correction_into_a_memory(chain: nowline.Collection) -> None:
    """update(metadatas={"deprecates": None}) unlinks the former correction everywhere."""
    chain.update(ids=["c3"], metadatas=[{"deprecates": None}])
    assert (chain.get(ids=["c3"])["metadatas"] or [{}])[0] is None  # no user keys are left
    s = _states(chain)
    assert s["c3"] == ("current", ()) and s["m3"] == ("current", ())
    assert s["m1"] == s["c1"] == ("historical", ("c2",))
    chain.repair()
    assert _states(chain) == s


def test_retract_is_idempotent_and_survives_reopen(chain: nowline.Collection) -> None:
    """Retracting twice changes nothing more; a reopened wrapper sees the same states."""
    chain.retract("c3")
    first = _states(chain)
    stored = chain.get(ids=["c3"])["metadatas"]
    chain.retract("c3")
    assert chain.get(ids=["c3"])["metadatas"] == stored
    again = nowline.wrap(chain.raw)
    assert _states(again) == first
    report = again.repair()
    assert report.updated == 0


def test_retract_and_delete_of_missing_records(chain: nowline.Collection) -> None:
    """Retracting a deleted correction raises UnknownRecord; deleting it again is a no-op."""
    chain.delete(ids=["c3"])
    with pytest.raises(nowline.UnknownRecord):
        chain.retract("c3")
    before = _states(chain)
    chain.delete(ids=["c3"])
    assert _states(chain) == before


def test_editing_a_retracted_correction_keeps_it_inert(memory: nowline.Collection) -> None:
    """Changing the text of a retracted correction links nothing to it."""
    memory.remember("deploy acme/app now", id="m")
    memory.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="c")
    memory.retract("c")
    memory.update(ids=["c"], documents=["Moved from acme/app to acme/site."])
    assert _states(memory)["m"] == ("current", ())
