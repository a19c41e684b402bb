"""Reads of more rows than one page: every path that reads in bulk gets every row once.

Chroma has no cursor, so nowline reads the first page with its filter and the other rows by
id (``_reads.read_all``). Here a page is three rows, so every bulk read spans pages: a
correction's reach, the links a retraction removes, the load of every correction, ``repair()``,
the corrections listing and role filters.
"""

from __future__ import annotations

import pytest

import nowline
from nowline._io import reads as _reads
from tests.conftest import FakeEmbedding


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make a page three rows long."""
    monkeypatch.setattr(_reads, "PAGE", 3)


def test_every_bulk_read_spans_pages(small_pages: None, memory: nowline.Collection) -> None:
    """Reach, links, load, repair and listings see all rows when they span several pages."""
    memory.add(
        ids=[f"m{i}" for i in range(11)],
        documents=[f"note {i}: deploy from acme/old" for i in range(11)],
    )
    memory.add(ids=["other"], documents=["deploy from acme/older"])
    for i in range(7):
        memory.correct(f"Moved from svc{i}/a to svc{i}/b.", deprecates=[f"svc{i}/a"], id=f"s{i}")
    report = memory.correct("Moved from acme/old to acme/new.", deprecates=["acme/old"], id="c")
    assert report.reached == 11
    stored = memory.raw.get(ids=[f"m{i}" for i in range(11)] + ["other"], include=["metadatas"])
    linked = {
        i for i, m in zip(stored["ids"], stored["metadatas"], strict=True) if m.get("nowline_by")
    }
    assert linked == {f"m{i}" for i in range(11)}
    assert {c.id for c in memory.corrections()} == {"c", *(f"s{i}" for i in range(7))}
    historical = memory.get(where={"nowline_role": "historical"})["ids"]
    assert sorted(historical) == sorted(f"m{i}" for i in range(11))
    repaired = memory.repair()
    assert (repaired.records, repaired.corrections, repaired.updated) == (20, 8, 0)

    # a new wrapper loads all eight corrections (a full read, three per page)
    again = nowline.wrap(memory.raw, embedding_function=FakeEmbedding())
    assert {t.correction.id for t in again.check("svc0/a svc6/a acme/old")} == {"s0", "s6", "c"}

    memory.retract("c")
    stored = memory.raw.get(ids=[f"m{i}" for i in range(11)], include=["metadatas"])
    assert not any(m.get("nowline_by") for m in stored["metadatas"])
    assert memory.get(where={"nowline_role": "historical"})["ids"] == []
