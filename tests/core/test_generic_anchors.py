"""Generic strings and anchors (``about``): refused without an anchor; anchored on every path.

A deprecated string that is a common word or a bare number names no particular thing, so it is
refused unless the correction names its subject with ``about`` (or ``allow_generic=True``). An
anchored correction reaches only records that name a deprecated string AND an anchor, on every
path: write-time links, read-time checks of records written around nowline, ``repair()``,
``check()``, ``preview()``, chains, and ``retract()``.
"""

from __future__ import annotations

import pytest

import nowline
from tests.conftest import FakeEmbedding, snapshot

CEO = "Acme's CEO changed: Michelle left, Dario is CEO now."


@pytest.fixture
def people(memory: nowline.Collection) -> nowline.Collection:
    """Return memories naming Michelle at Acme, at Globex, and Acme without Michelle."""
    memory.remember("Michelle is the CEO of Acme.", id="acme")
    memory.remember("Ask Michelle at Globex about the invoice.", id="globex")
    memory.remember("Acme ships on Fridays.", id="ships")
    return memory


@pytest.mark.parametrize(
    ("deprecates", "reason"),
    [(["billing"], "common word"), (["2018"], "bare number"), (["Michelle"], "given name")],
)
def test_generic_strings_are_refused_with_the_way_forward(
    people: nowline.Collection, deprecates: list[str], reason: str
) -> None:
    """A generic string is refused at any store size, naming the rule and both remedies."""
    before = snapshot(people)
    text = f"{deprecates[0]} is outdated."
    with pytest.raises(nowline.GenericString, match=reason) as info:
        people.correct(text, deprecates=deprecates)
    message = str(info.value)
    assert "about=" in message and "allow_generic=True" in message and "specific" in message
    assert info.value.phrase == deprecates[0]
    with pytest.raises(nowline.GenericString):
        people.add(ids=["x"], documents=[text], metadatas=[{"deprecates": deprecates}])
    assert snapshot(people) == before
    report = people.correct(text, deprecates=deprecates, allow_generic=True, id="ok")
    assert report.id == "ok"


def test_identifiers_are_never_generic() -> None:
    """Slugs, emails, versions, hosts and ticket ids pass the generic-string guard."""
    for s in ("metalcraftai/ufo", "billing@oldco.example", "v1.2", "#ufo-dev", "PROJ-1234"):
        assert nowline.validate_correction(f"{s} moved.", [s]) == ([s], [])


def test_anchor_limits_write_time_links_preview_and_check(people: nowline.Collection) -> None:
    """An anchored correction reaches only records naming both strings, on every path."""
    assert people.preview(["Michelle"], about=["Acme"]) == ["acme"]
    report = people.correct(CEO, deprecates=["Michelle"], about=["Acme"], id="ceo")
    assert report.reached == 1
    stored = people.raw.get(ids=["acme", "globex", "ships"], include=["metadatas"])
    links = {
        i: (m or {}).get("nowline_by")
        for i, m in zip(stored["ids"], stored["metadatas"], strict=True)
    }  # type: ignore[arg-type]
    assert links == {"acme": ["ceo"], "globex": None, "ships": None}
    assert people.raw.get(ids=["ceo"])["metadatas"][0]["about"] == ["Acme"]  # type: ignore[index]
    assert [t.correction.id for t in people.check("email Michelle at Acme")] == ["ceo"]
    assert people.check("email Michelle at Globex") == []
    assert people.check("Acme board meeting") == []
    roles = {h.id: h.role for h in people.hits(["acme", "globex", "ships"])}
    assert roles == {"acme": "historical", "globex": "current", "ships": "current"}


def test_anchor_holds_at_read_time_and_in_repair(people: nowline.Collection) -> None:
    """Records written around nowline are checked with the anchor; repair stores the same."""
    people.correct(CEO, deprecates=["Michelle"], about=["Acme"], id="ceo")
    docs = ["Michelle signs Acme contracts.", "Michelle runs Initech."]
    people.raw.add(
        ids=["raw-acme", "raw-initech"], documents=docs, embeddings=FakeEmbedding()(docs)
    )
    roles = {h.id: h.role for h in people.hits(["raw-acme", "raw-initech"])}
    assert roles == {"raw-acme": "historical", "raw-initech": "current"}
    report = people.repair()
    assert report.links_added == 1
    stored = people.raw.get(ids=["raw-acme", "raw-initech"], include=["metadatas"])
    assert [(m or {}).get("nowline_by") for m in stored["metadatas"]] == [["ceo"], None]  # type: ignore[union-attr]


def test_anchor_holds_in_chains_and_retract_restores(memory: nowline.Collection) -> None:
    """A correction chains onto an older one only where its own anchor holds there too."""
    memory.remember("Michelle leads Acme sales.", id="m")
    memory.correct(
        "Acme: Michelle's role went to Dario.", deprecates=["Michelle"], about=["Acme"], id="c1"
    )
    # Globex's own change names Dario too, but its anchor (Globex) is not in c1's text.
    memory.correct("Globex: Dario left.", deprecates=["Dario"], about=["Globex"], id="g")
    assert [c.id for c in memory.hits(["m"])[0].now] == ["c1"]
    memory.correct("Acme: Dario's role went to Lee.", deprecates=["Dario"], about=["Acme"], id="c2")
    hit = memory.hits(["m"])[0]
    assert [c.id for c in hit.direct] == ["c1"] and [c.id for c in hit.now] == ["c2"]
    memory.retract("c1")
    assert memory.hits(["m"])[0].role == "current"


def test_malformed_anchors_are_refused(people: nowline.Collection) -> None:
    """About must be strings with a letter or digit; it needs deprecates."""
    before = snapshot(people)
    for about in (["   "], [5], "—", [""]):
        with pytest.raises(nowline.InvalidCorrection):
            people.correct(CEO, deprecates=["Michelle"], about=about)  # type: ignore[arg-type]
    assert snapshot(people) == before


def test_the_writers_common_mistakes_are_repaired_on_every_layer(
    memory: nowline.Collection,
) -> None:
    """The new value beside the old, the string as its own anchor, an anchor no memory names.

    Each is repaired with a note (on the sync and async layers, local and on a server), and
    what is stored reaches exactly the stale memories.
    """
    memory.remember("Pipelines live in gitlab.com/orchard-team/pipeline.", id="p1")
    memory.remember("Clone gitlab.com/orchard-team/pipeline for CI work.", id="p2")
    memory.remember("The new home is gitlab.com/orchard/pipeline.", id="new")
    memory.remember("The Pro plan costs 39 dollars.", id="price")
    memory.remember("Table 39 is by the window.", id="table")
    report = memory.correct(
        "gitlab.com/orchard-team/pipeline moved to gitlab.com/orchard/pipeline.",
        deprecates=["gitlab.com/orchard-team/pipeline", "gitlab.com/orchard/pipeline"],
        replaced_by=["gitlab.com/orchard/pipeline"],
        about=["team"],
    )
    assert report.reached == 2 and len(report.notes) == 2
    price = memory.correct(
        "The Pro plan went from 39 to 49 dollars.",
        deprecates=["39", "49"],
        replaced_by=["49"],
        about=["Pro plan", "39"],
    )
    assert price.reached == 1 and len(price.notes) == 2
    roles = {h.id: h.role for h in memory.hits(["p1", "p2", "new", "price", "table"])}
    assert roles == {
        "p1": "historical",
        "p2": "historical",
        "new": "current",
        "price": "historical",
        "table": "current",
    }
    stored = {tuple(c.deprecates): c.about for c in memory.corrections()}
    assert stored == {("gitlab.com/orchard-team/pipeline",): [], ("39",): ["Pro plan"]}
