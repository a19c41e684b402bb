"""Scope (the README's "Scope"): a correction of one user never shows under another user's memory.

Alice and Bob share one collection scoped by ``user_id``. Bob's memories name Alice's
deprecated string on purpose. Every path is checked: links stored at write time, read-time
checks of records written around nowline, repair(), query() documents and metadata, recall(),
check(), annotate() and guard(), and preview().
"""

from __future__ import annotations

from typing import Any

import pytest

import nowline
from tests.reliability.invariants import links_match_reference, recall_matches_reference

OLD = "acme/app"
ALICE_FIX = "Moved from acme/app to acme/web."
ALICE = {"user_id": "alice"}
BOB = {"user_id": "bob"}


RAW = ("a_raw", "b_raw", "n_raw")


def _consistent(col: nowline.Collection) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Assert both invariants with the user_id scope; return recall's {id: (role, now)}.

    The raw records' links lag by design until repair(); after a repair every stored link
    must equal the reference and recall must show the same as before.
    """
    links_match_reference(col, "user_id", ignore=RAW)
    before = recall_matches_reference(col, "user_id")
    col.repair()
    links_match_reference(col, "user_id")
    assert recall_matches_reference(col, "user_id") == before
    return before


def _stored(col: nowline.Collection, rid: str) -> dict[str, Any]:
    """Return one record's stored metadata (bookkeeping included, read from the raw store)."""
    return dict((col.raw.get(ids=[rid])["metadatas"] or [{}])[0] or {})


def _query_rows(col: nowline.Collection, **kwargs: Any) -> dict[str, tuple[str, dict[str, Any]]]:
    """Return {id: (document, metadata)} of a one-text query() over the whole store."""
    q = col.query(query_texts=["deploy acme/app"], n_results=col.count(), **kwargs)
    docs, metas = q["documents"] or [[]], q["metadatas"] or [[]]
    return {
        rid: (doc, dict(meta or {}))
        for rid, doc, meta in zip(q["ids"][0], docs[0], metas[0], strict=True)
    }


@pytest.fixture
def shared(scoped: nowline.Collection) -> nowline.Collection:
    """Return a shared store: Alice's and Bob's memories naming acme/app, and Alice's fix."""
    scoped.remember("deploy acme/app for alice", id="a1", metadata=ALICE)
    scoped.remember("deploy acme/app for bob", id="b1", metadata=BOB)
    scoped.remember("deploy acme/app for nobody", id="n1")
    scoped.correct(ALICE_FIX, deprecates=[OLD], id="ca", metadata=ALICE)
    # Written around nowline, after the correction: only read-time checks can see them.
    scoped.raw.add(
        ids=["a_raw", "b_raw", "n_raw"],
        documents=["raw deploy acme/app alice", "raw deploy acme/app bob", "raw acme/app"],
        metadatas=[ALICE, BOB, {"other": 1}],
    )
    return scoped


def test_write_time_links_stay_in_scope(shared: nowline.Collection) -> None:
    """Only Alice's memory gets a stored link; Bob's and unscoped ones get none."""
    assert _stored(shared, "a1")["nowline_by"] == ["ca"]
    for rid in ("b1", "n1"):
        meta = _stored(shared, rid)
        assert "nowline_by" not in meta and "nowline_role" not in meta
    shared.remember("later acme/app note for bob", id="b2", metadata=BOB)
    assert "nowline_by" not in _stored(shared, "b2")


def test_read_time_checks_stay_in_scope(shared: nowline.Collection) -> None:
    """recall() annotates Alice's raw record and leaves Bob's and unscoped ones current."""
    s = recall_matches_reference(shared, "user_id")
    assert s["a1"] == s["a_raw"] == ("historical", ("ca",))
    for rid in ("b1", "b_raw", "n1", "n_raw"):
        assert s[rid] == ("current", ())
    bob = shared.recall("deploy acme/app", n_results=10, where={"user_id": "bob"})
    assert {h.id for h in bob.hits} == {"b1", "b_raw"}
    assert all(h.now == [] for h in bob.hits) and ALICE_FIX not in bob.render()


def test_query_output_stays_in_scope(shared: nowline.Collection) -> None:
    """query() returns Bob's rows exactly as stored: no line, no role, no correction ids."""
    for annotate in (True, False):
        col = nowline.wrap(shared.raw, scope_key="user_id", annotate=annotate)
        rows = _query_rows(col)
        assert (ALICE_FIX in rows["a1"][0]) == annotate
        assert rows["a1"][1]["nowline_now"] == rows["a_raw"][1]["nowline_now"] == ["ca"]
        for rid in ("b1", "b_raw", "n1", "n_raw"):
            doc, meta = rows[rid]
            assert ALICE_FIX not in doc and "now:" not in doc
            assert not any(k.startswith("nowline_") for k in meta)


def test_repair_stays_in_scope(shared: nowline.Collection) -> None:
    """repair() links Alice's raw record only, and a second repair changes nothing."""
    report = shared.repair()
    assert report.links_added == 1
    assert _stored(shared, "a_raw")["nowline_by"] == ["ca"]
    for rid in ("b1", "b_raw", "n1", "n_raw"):
        assert "nowline_by" not in _stored(shared, rid)
    _consistent(shared)
    assert shared.repair().updated == 0


def test_check_annotate_guard_and_preview_stay_in_scope(shared: nowline.Collection) -> None:
    """check(), annotate(), guard() and preview() apply Alice's fix to Alice's scope only."""
    text = "git clone acme/app"
    assert [t.correction.id for t in shared.check(text, metadata=ALICE)] == ["ca"]
    assert shared.check(text, metadata=BOB) == []
    assert shared.check(text, metadata={"user_id": None}) == []
    with pytest.raises(nowline.InvalidInput, match="user_id"):
        shared.check(text)  # a scoped store needs the scope to check for
    assert shared.annotate(text, metadata=BOB) == text
    assert ALICE_FIX in shared.annotate(text, metadata=ALICE)

    @shared.guard(metadata=BOB)
    def run(cmd: str) -> str:
        return cmd

    assert run(text) == text
    assert sorted(shared.preview([OLD], metadata=BOB)) == ["b1", "b_raw"]
    assert sorted(shared.preview([OLD])) == ["n1", "n_raw"]


def test_unscoped_and_scoped_corrections_keep_apart(shared: nowline.Collection) -> None:
    """A correction without the key reaches only unscoped records, and the reverse."""
    report = shared.correct("Unscoped: acme/app is now acme/site.", deprecates=[OLD], id="cn")
    assert report.reached == 2  # n1 and n_raw: a new correction reaches every stored record
    s = _consistent(shared)
    assert s["n1"] == s["n_raw"] == ("historical", ("cn",))
    assert s["a1"] == ("historical", ("ca",)) and s["b1"] == ("current", ())
    assert s["ca"] == s["cn"] == ("transition", ())


def test_chains_never_cross_scopes(shared: nowline.Collection) -> None:
    """Bob deprecating a string of Alice's correction text leaves Alice's chain alone."""
    shared.correct("Bob: acme/web is now bob/site.", deprecates=["acme/web"], id="cb", metadata=BOB)
    s = _consistent(shared)
    assert s["ca"] == ("transition", ())
    assert s["a1"] == ("historical", ("ca",))
    assert s["b1"] == ("current", ())
    trips = shared.check("clone acme/app", metadata=ALICE)
    assert [(t.correction.id, t.newest.id) for t in trips] == [("ca", "ca")]


def test_bob_with_the_same_string_gets_his_own_correction(shared: nowline.Collection) -> None:
    """Bob's own correction of acme/app reaches Bob's records, never Alice's."""
    report = shared.correct(
        "Bob: acme/app became bob/app.", deprecates=[OLD], id="cb", metadata=BOB
    )
    assert report.reached == 2  # b1 and b_raw
    s = _consistent(shared)
    assert s["b1"] == s["b_raw"] == ("historical", ("cb",))
    assert s["a1"] == s["a_raw"] == ("historical", ("ca",))


def test_moving_a_record_between_scopes(shared: nowline.Collection) -> None:
    """Moving a record to Bob drops Alice's link through the wrapper, and at read time otherwise."""
    shared.update(ids=["a1"], metadatas=[BOB])
    assert "nowline_by" not in _stored(shared, "a1")
    _consistent(shared)
    shared.raw.update(ids=["b1"], metadatas=[ALICE])  # around nowline: stored links lag
    assert recall_matches_reference(shared, "user_id")["b1"] == ("historical", ("ca",))
    shared.repair()
    _consistent(shared)


def test_forged_links_to_another_scope_are_ignored_and_repaired(
    shared: nowline.Collection,
) -> None:
    """A raw write claiming Bob's record is linked to Alice's fix shows nothing; repair drops it."""
    shared.raw.update(ids=["b1"], metadatas=[{"nowline_by": ["ca"], "nowline_role": "historical"}])
    assert recall_matches_reference(shared, "user_id")["b1"] == ("current", ())
    meta = _query_rows(shared)["b1"][1]
    assert meta == BOB  # the forged bookkeeping is not shown
    report = shared.repair()
    assert report.links_removed == 1
    _consistent(shared)


def test_scope_values_compare_with_their_type(scoped: nowline.Collection) -> None:
    """user_id 1, "1" and True are three scopes: a correction for 1 reaches only 1."""
    for rid, uid in (("int", 1), ("str", "1"), ("bool", True)):
        scoped.remember(f"deploy acme/app as {rid}", id=rid, metadata={"user_id": uid})
    report = scoped.correct(ALICE_FIX, deprecates=[OLD], id="c", metadata={"user_id": 1})
    assert report.reached == 1
    s = _consistent(scoped)
    assert s["int"] == ("historical", ("c",))
    assert s["str"] == s["bool"] == ("current", ())
