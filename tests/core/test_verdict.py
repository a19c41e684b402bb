"""A record's verdict (``nowline._rules.verdict``): inert, direct corrections, role, from data.

The write side, the read side and reach all ask this one rule, so each case here is a case of
all three.
"""

from __future__ import annotations

from typing import Any

from nowline._rules import records as R
from nowline._rules.records import CorrectionInfo, Record
from nowline._rules.registry import Registry
from nowline._rules.verdict import direct_of, is_inert, order_of, verdict


def _correction(cid: str, t: float, deprecates: str = "a/b", **extra: Any) -> Record:
    """Return a stored correction of ``deprecates`` with time ``t``."""
    meta = {R.DEPRECATES: [deprecates], R.TIME: t, R.CORRECTION: True, **extra}
    return Record(cid, f"Moved from {deprecates} to c/d.", meta)


def _info(record: Record) -> CorrectionInfo:
    """Return the correction a stored record is."""
    info = R.correction_info(record)
    assert info is not None
    return info


def _memory(rid: str, text: str) -> Record:
    """Return a stored memory with time 1."""
    return Record(rid, text, {R.TIME: 1.0})


def test_a_memory_naming_an_active_string_is_historical() -> None:
    """A memory that names a correction's string is superseded by it; one that does not is not."""
    c = _correction("c", 2.0)
    registry = Registry([_info(c)])
    assert verdict(_memory("m", "clone a/b"), registry, None).role == "historical"
    assert verdict(_memory("m", "clone a/b"), registry, None).direct == {"c"}
    assert verdict(_memory("n", "clone a/bc"), registry, None).role == "current"


def test_a_correction_nothing_supersedes_is_a_transition() -> None:
    """An active correction whose own text names no newer correction's string is a transition."""
    c = _correction("c", 2.0)
    assert verdict(c, Registry([_info(c)]), None).role == "transition"


def test_a_retracted_correction_is_inert_whatever_it_names() -> None:
    """Stored as retracted, or retracted as the registry knows it: no links, role retracted."""
    newer = _correction("n", 3.0, deprecates="c/d")
    old = _correction("o", 2.0, **{R.RETRACTED: 5.0})
    registry = Registry([_info(newer), _info(old)])
    judged = verdict(old, registry, None)
    assert (judged.role, judged.direct, judged.inert) == ("retracted", frozenset(), True)
    live = _correction("l", 2.5)
    known = Registry([_info(newer), _info(live)._replace(retracted=9.0)])
    assert is_inert(live, known) and direct_of(live, known, None) == {}


def test_an_older_correction_never_supersedes_a_newer_one() -> None:
    """A newer correction that names an older one's string is not made historical by it."""
    meta = {R.DEPRECATES: ["c/d"], R.TIME: 1.0, R.CORRECTION: True}
    older = Record("o", "Moved from c/d to a/b.", meta)
    newer = _correction("n", 2.0, "a/b")  # its text names c/d, the older one's string
    registry = Registry([_info(older), _info(newer)])
    assert order_of(newer, registry) == (2.0, 2.0, "n")
    assert verdict(newer, registry, None).role == "transition"
    assert verdict(older, registry, None).direct == {"n"}


def test_as_of_leaves_later_corrections_out() -> None:
    """At a time before the correction, the memory that names its string reads as current."""
    c = _correction("c", 5.0)
    registry = Registry([_info(c)])
    memory = _memory("m", "clone a/b")
    assert verdict(memory, registry, None, as_of=4.0).role == "current"
    assert verdict(memory, registry, None, as_of=5.0).role == "historical"


def test_reach_asks_new_corrections_of_a_record_the_registry_knows() -> None:
    """``by`` holds the corrections asked about; the record's own facts come from ``known``."""
    stored = _correction("s", 1.0, deprecates="x/y")
    new = _correction("n", 2.0, deprecates="c/d")
    known = Registry([_info(stored)])
    assert direct_of(stored, known, None, by=Registry([_info(new)])).keys() == {"n"}
    assert direct_of(stored, known, None) == {}
