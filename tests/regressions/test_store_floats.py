"""Times survive the store: what nowline holds is what a read of the store gives back.

chromadb 1.5.9 returns about one float metadata value in eight one step of the last bit away
from what was written (``1796337570.9158401`` reads back as ``1796337570.91584``). nowline held
the time it wrote, the store held another, so a read that returned the correction made it look
changed (a spurious change in ``changes()``, a spurious catch-up) and two reads of one hit
could show two times (a receiver test failed one run in three). nowline now holds every time
to the microsecond (``nowline._rules.times.stored_time``), a value the store keeps exactly.
"""

from __future__ import annotations

import chromadb
from hypothesis import given, settings
from hypothesis import strategies as st

import nowline
from nowline._rules.times import stored_time


def test_a_corrections_time_is_the_one_the_store_gives_back(memory: nowline.Collection) -> None:
    """Twenty corrections: the time every read shows equals the stored one, and stays put."""
    memory.remember("Deploy acme/app on Fridays.", id="m")
    for i in range(20):
        memory.correct(f"acme/app moved to acme/app{i}.", deprecates=["acme/app"], id=f"c{i}")
    got = memory.raw.get()
    metas = got["metadatas"] or []
    stored = {
        rid: (meta or {})["nowline_time"]
        for rid, meta in zip(got["ids"], metas, strict=True)
        if rid.startswith("c")
    }
    held = {c.id: c.time for c in memory.corrections()}
    assert held == stored
    (hit,) = memory.hits(["m"])
    assert [c.time for c in hit.direct] == [stored[c.id] for c in hit.direct]
    memory.get(ids=sorted(stored))  # a read that returns every correction changes nothing
    assert {c.id: c.time for c in memory.corrections()} == held


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.floats(min_value=-6.2e10, max_value=2.5e11, allow_nan=False), min_size=1, max_size=50
    )
)
def test_stored_times_survive_a_round_trip(values: list[float]) -> None:
    """Every time stored_time gives is read back from a real store exactly."""
    col = chromadb.EphemeralClient().get_or_create_collection("times", embedding_function=None)
    times = [stored_time(v) for v in values]
    ids = [str(i) for i in range(len(times))]
    col.upsert(ids=ids, embeddings=[[0.0, 1.0]] * len(ids), metadatas=[{"t": t} for t in times])
    got = col.get(ids=ids)
    back = {i: (m or {})["t"] for i, m in zip(got["ids"], got["metadatas"] or [], strict=True)}
    assert [back[i] for i in ids] == times
