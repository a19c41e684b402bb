"""Record semantics (``nowline._rules.records``): what a stored record means, from plain data.

Every function here is pure, so every test gives it metadata as Chroma would hold it and
checks the fact it returns: a record's text, whether it is a correction, its strings, time,
order, scope and role, and how it looks after a write.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from nowline._rules import records as R
from nowline._rules.records import CorrectionInfo, Record, Scoped


def _info(cid: str, t: float, scope: R.CorrectionScope = None) -> CorrectionInfo:
    """Return an active correction of ``a/b`` with time (and write stamp) ``t``."""
    return CorrectionInfo(cid, "a/b moved to c/d", ("a/b",), (), t, t, scope)


# ----------------------------------------------------------------------------- text


def test_a_records_text_is_its_document_without_a_text_key() -> None:
    """Without ``text_key`` the document is the text, whatever the metadata holds."""
    assert R.text_of("the doc", {"data": "the field"}, None) == "the doc"


def test_a_text_key_store_reads_the_text_from_that_metadata_key() -> None:
    """With ``text_key`` the text is that metadata value, and a value not a str is no text."""
    assert R.text_of("the doc", {"data": "the field"}, "data") == "the field"
    assert R.text_of("the doc", {"data": 3}, "data") is None
    assert R.text_of("the doc", None, "data") is None
    assert R.record_of("r", "the doc", {"data": "x"}, "data") == Record("r", "x", {"data": "x"})


# ------------------------------------------------------------------ what a correction is


def test_a_correction_is_a_record_with_non_empty_deprecates() -> None:
    """A non-empty ``deprecates`` makes a correction; empty, absent or no metadata does not."""
    assert R.is_correction({R.DEPRECATES: ["a/b"]})
    assert R.is_correction({R.DEPRECATES: "a/b"})
    assert not R.is_correction({R.DEPRECATES: []})
    assert not R.is_correction({"team": "ops"})
    assert not R.is_correction(None)


def test_a_correction_is_retracted_when_its_retraction_time_is_stored() -> None:
    """The retraction key marks a retracted correction; None there does not."""
    assert R.is_retracted({R.RETRACTED: 5.0})
    assert not R.is_retracted({R.RETRACTED: None})
    assert not R.is_retracted(None)


def test_a_json_array_string_of_strings_is_read_as_the_list() -> None:
    """``'["a/b", "c"]'`` is a list; other strings, mixed arrays and non-strings are not."""
    assert R.json_string_list('["a/b", "c"]') == ["a/b", "c"]
    assert R.json_string_list('  ["a/b"]') == ["a/b"]
    assert R.json_string_list('["a/b", 1]') is None
    assert R.json_string_list("[not json") is None
    assert R.json_string_list("a/b") is None
    assert R.json_string_list(["a/b"]) is None


@pytest.mark.parametrize(
    ("stored", "read"),
    [
        (["a/b", " c ", "", "a/b"], ("a/b", "c")),
        ("a/b", ("a/b",)),
        ('["a/b", "c"]', ("a/b", "c")),
        (("x",), ("x",)),
        (["a/b", 3], None),
        (7, None),
        (None, None),
    ],
)
def test_stored_strings_are_read_leniently_or_refused(stored: object, read: object) -> None:
    """Stored strings are stripped and deduplicated, blanks skipped; anything else is None."""
    assert R.stored_phrases(stored) == read


# ------------------------------------------------------------------------ time, order


def test_a_records_time_is_stored_then_observed_then_unknown() -> None:
    """The stored time wins over ``observed_at``; without either the time is 0."""
    assert R.time_of({R.TIME: 5.0, R.OBSERVED_AT: 1.0}) == 5.0
    assert R.time_of({R.OBSERVED_AT: "1970-01-01T00:00:10Z"}) == 10.0
    assert R.time_of({R.OBSERVED_AT: 12}) == 12.0
    assert R.time_of({"team": "ops"}) == 0.0
    assert R.time_of(None) == 0.0


def test_an_unusable_time_counts_as_unknown() -> None:
    """A bool or infinite stored time and an unparseable ``observed_at`` give no time."""
    assert R.time_of({R.TIME: True}) == 0.0
    assert R.time_of({R.TIME: float("inf"), R.OBSERVED_AT: 3}) == 3.0
    assert R.time_of({R.OBSERVED_AT: "not a time"}) == 0.0


def test_a_records_order_is_time_then_write_stamp_then_id() -> None:
    """Without a write stamp the time stands in for it; ties fall to the write stamp."""
    assert R.order_of("r", {R.TIME: 5.0}) == (5.0, 5.0, "r")
    assert R.order_of("r", {R.TIME: 5.0, R.WRITTEN: 7.0}) == (5.0, 7.0, "r")
    first = R.order_of("z", {R.TIME: 5.0, R.WRITTEN: 1.0})
    second = R.order_of("a", {R.TIME: 5.0, R.WRITTEN: 2.0})
    assert first < second


def test_write_stamps_increase_in_batch_order() -> None:
    """Each record of a batch gets its own stamp, increasing in the caller's order."""
    stamps = R.write_stamps(100.0, 3)
    assert len(stamps) == 3 and stamps[0] == 100.0
    assert stamps == sorted(set(stamps))


# ---------------------------------------------------------------------------- scope


def test_a_scope_token_keeps_the_values_type() -> None:
    """``1``, ``True`` and ``"1"`` are different scopes; a missing or None value is one scope."""
    tokens = [R.scope_token({"u": v}, "u") for v in (1, True, "1")]
    assert len(set(tokens)) == 3
    assert R.scope_token({"u": None}, "u") == R.scope_token({}, "u") == R.scope_token(None, "u")
    assert R.scope_token({"u": ["a", "b"]}, "u") == ("list", ("a", "b"))


def test_in_scope_compares_every_bound_key_with_its_type() -> None:
    """A record is in a binding's scope when it holds each key with an equal, same-typed value."""
    assert R.in_scope({"u": "alice", "team": "ops"}, {"u": "alice"})
    assert not R.in_scope({"u": "bob"}, {"u": "alice"})
    assert not R.in_scope({"u": 1}, {"u": True})
    assert R.in_scope({"u": "alice"}, {})
    assert R.in_scope(None, {"u": None})


def test_a_correction_applies_in_its_stored_scope_else_everywhere() -> None:
    """The stored scope key (else the legacy key) and the correction's own value are its scope."""
    meta = {R.DEPRECATES: ["a/b"], R.SCOPE_KEY: "u", "u": "alice"}
    assert R.correction_scope(meta) == ("u", ("str", "alice"))
    assert R.correction_scope({R.DEPRECATES: ["a/b"], "u": "bob"}) is None
    assert R.correction_scope({R.DEPRECATES: ["a/b"], "u": "bob"}, "u") == ("u", ("str", "bob"))
    assert R.correction_scope({R.SCOPE_KEY: "", "u": "bob"}) is None


def test_a_memory_admits_corrections_of_its_scope_and_of_every_scope() -> None:
    """A plain memory is reached by a correction with its own token, or one with no scope."""
    alice = Scoped.of_record({"u": "alice"})
    assert alice.admits(None)
    assert alice.admits(("u", ("str", "alice")))
    assert not alice.admits(("u", ("str", "bob")))
    assert not alice.admits(("team", ("str", "ops")))


def test_a_correction_admits_only_corrections_of_the_same_scope() -> None:
    """A scoped correction chains onto neither another scope's correction nor a global one."""
    scoped = Scoped.of_record({R.DEPRECATES: ["x"], R.SCOPE_KEY: "u", "u": "alice"})
    assert scoped.admits(("u", ("str", "alice")))
    assert not scoped.admits(("u", ("str", "bob")))
    assert scoped.admits(None)
    everywhere = Scoped.of_correction(None)
    assert not everywhere.admits(("u", ("str", "alice")))


def test_a_correction_never_supersedes_itself_or_a_newer_correction() -> None:
    """``may_supersede`` refuses the correction's own id and records newer than it."""
    info = _info("c", 5.0)
    assert info.may_supersede("m", Scoped(None), None)
    assert not info.may_supersede("c", Scoped(None), None)
    assert info.may_supersede("old", Scoped(None, None, is_correction=True), (1.0, 1.0, "old"))
    assert not info.may_supersede("new", Scoped(None, None, is_correction=True), (9.0, 9.0, "new"))


def test_a_scoped_correction_does_not_supersede_another_scopes_memory() -> None:
    """``may_supersede`` applies the scope rule to the record."""
    info = _info("c", 5.0, ("u", ("str", "alice")))
    assert info.may_supersede("m", Scoped.of_record({"u": "alice"}), None)
    assert not info.may_supersede("m", Scoped.of_record({"u": "bob"}), None)


# ----------------------------------------------------------------- a stored correction


def _stored(**extra: Any) -> Record:
    """Return a stored correction of ``a/b`` with the given extra metadata."""
    meta: dict[str, Any] = {R.DEPRECATES: ["a/b"], R.TIME: 5.0, R.WRITTEN: 6.0, **extra}
    return Record("c", "a/b moved to c/d", meta)


def test_a_stored_correction_reads_back_as_its_info() -> None:
    """Strings, anchors, time, write stamp, provenance and mark come from the metadata."""
    info = R.correction_info(
        _stored(**{R.ABOUT: ["repo"], R.CORRECTION: True, R.SOURCE: "github", R.SOURCE_URL: ""})
    )
    assert info == CorrectionInfo(
        id="c",
        document="a/b moved to c/d",
        deprecates=("a/b",),
        about=("repo",),
        time=5.0,
        written=6.0,
        scope=None,
        retracted=None,
        marked=True,
        source="github",
        source_url=None,
        replaced_by=("c/d",),  # the text states it ("moved to c/d"); none was given
    )


def test_new_values_are_replaced_by_as_given_else_stored_else_read() -> None:
    """``replaced_by`` wins; else what nowline stored for this text; else the text's."""
    assert R.correction_info(_stored(**{R.REPLACED_BY: ["x/y"]})).replaced_by == ("x/y",)
    written = R.with_new_values({R.DEPRECATES: ["a/b"]}, "a/b moved to c/d")
    assert json.loads(written[R.NEW])["values"] == ["c/d"]
    assert R.new_values_stored(written, "a/b moved to c/d")
    assert R.NEW not in R.with_new_values({R.DEPRECATES: ["a/b"], R.REPLACED_BY: ["x"]}, "")
    # What is stored is read back (not the text) while the text and strings are the same.
    forged = json.dumps({**json.loads(written[R.NEW]), "values": ["e/f"]})
    assert R.correction_info(_stored(**{R.NEW: forged})).replaced_by == ("e/f",)
    # A text or strings changed since (an edit around nowline): the text is read again.
    other = R.with_new_values({R.DEPRECATES: ["a/b"]}, "a/b moved to x/y")[R.NEW]
    assert R.correction_info(_stored(**{R.NEW: other})).replaced_by == ("c/d",)
    strings = R.with_new_values({R.DEPRECATES: ["a/b", "q/r"]}, "a/b moved to c/d")[R.NEW]
    assert R.correction_info(_stored(**{R.NEW: strings})).replaced_by == ("c/d",)
    assert not R.new_values_stored({R.DEPRECATES: ["a/b"], R.NEW: other}, "a/b moved to c/d")
    # A right fingerprint with values of the wrong shape is read again, and so stored again.
    broken = json.dumps({**json.loads(written[R.NEW]), "values": [5]})
    assert R.correction_info(_stored(**{R.NEW: broken})).replaced_by == ("c/d",)
    assert not R.new_values_stored({R.DEPRECATES: ["a/b"], R.NEW: broken}, "a/b moved to c/d")
    # Anything else under the key (a bare list, not JSON, another shape): the text is read.
    for value in ['["e/f"]', "[]", "e/f", '{"of": 1}', '{"values": ["e/f"]}', 7]:
        assert R.correction_info(_stored(**{R.NEW: value})).replaced_by == ("c/d",)
    assert R.correction_info(_stored()).replaced_by == ("c/d",)


def test_a_stored_correction_is_marked_only_by_true() -> None:
    """The mark must be ``True`` itself; the retraction time is read as a number."""
    info = R.correction_info(_stored(**{R.CORRECTION: 1, R.RETRACTED: 9}))
    assert info is not None and not info.marked and info.retracted == 9.0


def test_a_malformed_correction_is_no_correction() -> None:
    """Unusable stored strings or anchors make the record no correction (it is skipped)."""
    assert R.correction_info(_stored(**{R.DEPRECATES: [1]})) is None
    assert R.correction_info(_stored(**{R.ABOUT: 5})) is None
    assert R.correction_info(Record("m", "a/b", {"team": "ops"})) is None


def test_correction_infos_keeps_only_the_corrections() -> None:
    """A scan of records returns the infos of the corrections among them, in order."""
    records = [Record("m", "a/b", None), _stored(), Record("bad", "x", {R.DEPRECATES: [2]})]
    assert [info.id for info in R.correction_infos(records)] == ["c"]


def test_user_metadata_leaves_out_nowlines_keys() -> None:
    """A metadata reads back without ``nowline_`` keys; one with only those reads as None."""
    assert R.user_metadata({"team": "ops", R.ROLE: "historical", R.TIME: 1.0}) == {"team": "ops"}
    assert R.user_metadata({R.TIME: 1.0}) is None
    assert R.user_metadata(None) is None


# ---------------------------------------------------------------------------- roles


@pytest.mark.parametrize(
    ("is_correction", "retracted", "superseded", "role"),
    [
        (False, False, False, "current"),
        (False, False, True, "historical"),
        (True, False, False, "transition"),
        (True, False, True, "historical"),
        (True, True, False, "retracted"),
        (True, True, True, "retracted"),
        (False, True, False, "current"),
    ],
)
def test_the_role_rule(is_correction: bool, retracted: bool, superseded: bool, role: str) -> None:
    """Retracted beats superseded, superseded beats transition, and a memory is current."""
    assert R.role_of(is_correction, retracted, superseded) == role


def test_the_current_role_is_stored_as_no_value() -> None:
    """``current`` is stored as no key; every other role as its name."""
    assert R.role_value("current") is None
    assert R.role_value("historical") == "historical"


# ---------------------------------------------------------------------------- merge


def test_a_new_record_takes_the_write_stamp_as_its_time() -> None:
    """A new record without ``observed_at`` is timed by its stamp, and stores no extra stamp."""
    record = R.merge("m", None, {"team": "ops", "gone": None}, "text", 100.0)
    assert record == Record("m", "text", {"team": "ops", R.TIME: 100.0})


def test_a_new_record_with_observed_at_keeps_its_stamp_for_ties() -> None:
    """``observed_at`` sets the time; the write stamp is stored to break ties."""
    record = R.merge("m", None, {R.OBSERVED_AT: 10}, "text", 100.0)
    assert record.metadata is not None
    assert record.metadata[R.TIME] == 10.0 and record.metadata[R.WRITTEN] == 100.0


def test_a_later_write_merges_keys_and_keeps_the_time() -> None:
    """Keys merge as in chromadb (None removes), the time and document stay, no stamp is added."""
    old = Record("m", "old text", {"team": "ops", "drop": 1, R.TIME: 5.0})
    record = R.merge("m", old, {"drop": None, "new": 2}, None, 100.0)
    assert record == Record("m", "old text", {"team": "ops", "new": 2, R.TIME: 5.0})


def test_a_later_observed_at_moves_the_time() -> None:
    """A write that gives ``observed_at`` sets the record's time to it."""
    old = Record("m", "old text", {R.TIME: 5.0})
    record = R.merge("m", old, {R.OBSERVED_AT: 50}, "new text", 100.0)
    assert record.document == "new text"
    assert record.metadata is not None and record.metadata[R.TIME] == 50.0
    assert R.WRITTEN not in record.metadata
