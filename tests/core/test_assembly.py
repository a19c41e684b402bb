"""What a stale hit shows: its direct corrections, then the newest of their chains; retractions.

A historical hit shows every correction that names its string (its direct corrections),
oldest first; a direct correction whose chain moved on is labelled ``superseded correction:``,
and the chain's newest follows as the ``now:`` line. A recalled retracted correction is marked
``retracted:``. Every surface shows the same lines (``recall().render()``, ``query()``,
``check()``/``annotate()``, LangChain), and stored roles, ``where`` filters, ``stats()`` and the
packet agree on how many records hold each role.
"""

from __future__ import annotations

import pytest

import nowline
from nowline.render import OUTDATED_HEADING

UFO1 = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
UFO2 = "UFO core — Moved from ufo-ai/ufo to ufo-org/ufo; do GitHub work in ufo-org/ufo."
UFO3 = "UFO core — Moved from ufo-org/ufo to ufo-foundation/ufo; work in ufo-foundation/ufo."
PR = "metalcraftai/ufo — PR #1705 passed review."
SUP = "    superseded correction: "
NOW = "    now: "


def _hit(col: nowline.Collection, rid: str) -> nowline.Hit:
    """Return the hit of one record, as recall() computes it."""
    (hit,) = col.hits([rid])
    return hit


@pytest.fixture
def chain(memory: nowline.Collection) -> nowline.Collection:
    """Return a store with the PR memory and the chain of three UFO moves."""
    memory.remember(PR, id="pr")
    memory.correct(UFO1, deprecates=["metalcraftai/ufo"], id="c1")
    memory.correct(UFO2, deprecates=["ufo-ai/ufo"], id="c2")
    memory.correct(UFO3, deprecates=["ufo-org/ufo"], id="c3")
    return memory


def test_chain_of_three_shows_the_direct_correction_then_the_newest(
    chain: nowline.Collection,
) -> None:
    """The PR memory shows C1 as superseded and C3 as its now-line; C2 is never shown."""
    hit = _hit(chain, "pr")
    assert hit.role == "historical"
    assert [c.id for c in hit.direct] == ["c1"] and [c.id for c in hit.now] == ["c3"]
    block = nowline.Recall(query="q", hits=[hit]).render()
    head = f"Relevant memory:\n{OUTDATED_HEADING}\n"
    assert block == f"{head}- [outdated] {PR}\n{SUP}{UFO1}\n{NOW}{UFO3}"
    q = chain.query(query_texts=[PR], n_results=4)
    docs = dict(zip(q["ids"][0], q["documents"][0], strict=True))  # type: ignore[index]
    metas = dict(zip(q["ids"][0], q["metadatas"][0], strict=True))  # type: ignore[index]
    assert docs["pr"] == f"{PR}\n{SUP}{UFO1}\n{NOW}{UFO3}"
    assert metas["pr"] == {
        "nowline_role": "historical",
        "nowline_by": ["c1"],
        "nowline_now": ["c3"],
    }
    assert docs["c1"] == f"{UFO1}\n{SUP}{UFO2}\n{NOW}{UFO3}"  # C2 supersedes C1 directly
    assert docs["c3"] == UFO3 and metas["c3"] == {"deprecates": ["ufo-org/ufo"]}


def test_a_superseded_instruction_never_reads_as_current(chain: nowline.Collection) -> None:
    """Every line that repeats an outdated instruction is labelled superseded, never now."""
    text = chain.recall("Where do I open the PR for UFO core?", n_results=4).render()
    for line in text.splitlines():
        if "do GitHub work in ufo-ai/ufo" in line or "do GitHub work in ufo-org/ufo" in line:
            assert line.startswith(SUP) or line.startswith("- "), line
        if line.startswith(NOW):
            assert line == NOW + UFO3, line


def test_two_independent_chains_under_one_memory(memory: nowline.Collection) -> None:
    """A memory naming two moved things shows both direct corrections and both newest ones."""
    memory.remember("Ping #ops-deploys after merging metalcraftai/ufo PRs.", id="m")
    memory.correct(UFO1, deprecates=["metalcraftai/ufo"], id="u1")
    memory.correct(
        "The channel #ops-deploys became #deploys.", deprecates=["#ops-deploys"], id="d1"
    )
    memory.correct(UFO2, deprecates=["ufo-ai/ufo"], id="u2")
    hit = _hit(memory, "m")
    assert [c.id for c in hit.direct] == ["u1", "d1"]
    assert [c.id for c in hit.now] == ["d1", "u2"]
    assert hit.lines() == [
        ("superseded", UFO1),
        ("now", "The channel #ops-deploys became #deploys."),
        ("now", UFO2),
    ]
    trips = memory.check("clone metalcraftai/ufo and post in #ops-deploys")
    assert [(t.correction.id, t.newest.id) for t in trips] == [("u1", "u2"), ("d1", "d1")]
    annotated = memory.annotate("clone metalcraftai/ufo and post in #ops-deploys")
    assert annotated.splitlines()[1:] == [
        SUP + UFO1,
        NOW + "The channel #ops-deploys became #deploys.",
        NOW + UFO2,
    ]


def test_a_recalled_retracted_correction_is_marked_everywhere(chain: nowline.Collection) -> None:
    """After retract, the correction's hit has role retracted and a retracted: line."""
    chain.retract("c3")
    hit = _hit(chain, "c3")
    assert hit.role == "retracted" and hit.now == [] and hit.direct == []
    block = nowline.Recall(query="q", hits=[hit]).render()
    assert block.splitlines()[-1].startswith("    retracted: ")
    q = chain.query(query_texts=[UFO3], n_results=4)
    row = {
        i: (d, m) for i, d, m in zip(q["ids"][0], q["documents"][0], q["metadatas"][0], strict=True)
    }  # type: ignore[index]
    doc, meta = row["c3"]
    assert doc.startswith(UFO3 + "\n    retracted: ")
    assert meta == {"deprecates": ["ufo-org/ufo"], "nowline_role": "retracted"}
    assert _hit(chain, "pr").now[0].id == "c2"  # the chain falls back to C2


def test_stats_where_filters_and_packet_agree_on_roles(chain: nowline.Collection) -> None:
    """Counts per role from stats(), where filters and recall() packets are the same."""
    chain.remember("unrelated note", id="n")
    chain.retract("c2")
    stats = chain.stats()
    packet = chain.recall("ufo", n_results=chain.count())
    for role in ("current", "historical", "transition", "retracted"):
        from_packet = sum(1 for h in packet.hits if h.role == role)
        if role == "current":
            stored = len(
                chain.get(
                    where={"nowline_role": {"$nin": ["historical", "transition", "retracted"]}},
                    include=[],
                )["ids"]
            )
        else:
            stored = len(chain.get(where={"nowline_role": role}, include=[])["ids"])
        assert stats[role] == stored == from_packet, role
    assert (
        stats["records"]
        == chain.count()
        == sum(stats[r] for r in ("current", "historical", "transition", "retracted"))
    )
