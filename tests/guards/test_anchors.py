"""Anchors narrow (DESIGN §6): any word the memories name is one; the few that narrow nothing.

A function word anchors nothing and is refused by name with nothing stored; an anchor that is
a deprecated string or part of one is dropped with a note; any other word or phrase is an
anchor, however frequent in a corpus.
"""

from __future__ import annotations

from typing import Any

import pytest

import nowline
from nowline.surfaces.tools import run_tool
from tests.conftest import snapshot


@pytest.fixture
def billing(memory: nowline.Collection) -> nowline.Collection:
    """Return memories about billing, 2024 and Acme."""
    memory.remember("Billing runs on the 1st; the billing contact is Dana.", id="b")
    memory.remember("In 2024 the offsite was in Lisbon.", id="y")
    memory.remember("Acme's billing moved to Stripe in 2024.", id="acme")
    return memory


BAD_ANCHORS: list[tuple[list[str], list[str], str, str]] = [
    (["2024"], ["the"], "the", "function word"),
    (["2024"], ["of the"], "of the", "function word"),
]


@pytest.mark.parametrize(("deprecates", "about", "anchor", "why"), BAD_ANCHORS)
def test_an_anchor_that_anchors_nothing_is_refused(
    billing: nowline.Collection, deprecates: list[str], about: list[str], anchor: str, why: str
) -> None:
    """A function-word anchor is refused by name."""
    before = snapshot(billing)
    text = f"Change: {' '.join(deprecates)} is outdated."
    with pytest.raises(nowline.GenericString, match=why) as info:
        billing.correct(text, deprecates=deprecates, about=about)
    assert info.value.phrase == anchor and info.value.field == "about"
    assert repr(anchor) in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, nowline.NowlineError)
    with pytest.raises(nowline.GenericString):
        billing.add(
            ids=["x"], documents=[text], metadatas=[{"deprecates": deprecates, "about": about}]
        )
    assert snapshot(billing) == before


@pytest.mark.parametrize("anchor", ["billing", "BILLING"])
def test_the_deprecated_string_as_its_own_anchor_is_dropped(
    billing: nowline.Collection, anchor: str
) -> None:
    """The string itself anchors nothing: dropped, so a generic one is refused as unanchored."""
    before = snapshot(billing)
    with pytest.raises(nowline.GenericString) as info:
        billing.correct("billing is outdated.", deprecates=["billing"], about=[anchor])
    assert info.value.field == "deprecates" and info.value.phrase == "billing"
    assert snapshot(billing) == before


def test_the_deprecated_string_among_other_anchors_is_dropped_and_they_narrow(
    billing: nowline.Collection,
) -> None:
    """Kept, the string among its anchors would undo the others; dropped, they narrow."""
    report = billing.correct(
        "Acme's billing moved from Stripe to Adyen; billing is outdated there.",
        deprecates=["billing"],
        about=["billing", "Acme"],
    )
    assert report.reached == 1
    assert any("'billing'" in note and "dropped" in note for note in report.notes)
    (summary,) = billing.corrections()
    assert summary.about == ["Acme"]


def test_a_generic_anchor_is_refused_through_the_tool(billing: nowline.Collection) -> None:
    """The correct tool refuses a function-word anchor, naming it."""
    before = snapshot(billing)
    cases: list[dict[str, Any]] = [
        {"body": "2024 changed.", "deprecates": ["2024"], "about": ["the"]},
    ]
    for args in cases:
        result = run_tool(billing, "correct", args)
        assert result.is_error, result.text
        assert repr(args["about"][0]) in result.text and "Nothing was stored" in result.text
    assert snapshot(billing) == before


def test_a_specific_anchor_is_accepted(billing: nowline.Collection) -> None:
    """A specific anchor beside a generic string narrows its reach, as before."""
    report = billing.correct(
        "Acme's billing is handled by Stripe Billing now.", deprecates=["billing"], about=["Acme"]
    )
    assert report.reached == 1


def test_a_common_anchor_beside_a_specific_string_is_accepted(memory: nowline.Collection) -> None:
    """Beside a specific deprecated string a common-word anchor can only narrow: accepted."""
    memory.remember("Jeff Bezos is Amazon's CEO.", id="ceo")
    memory.remember("Jeff Bezos founded Blue Origin.", id="blue")
    report = memory.correct(
        "Amazon's CEO is Andy Jassy, not Jeff Bezos.", deprecates=["Jeff Bezos"], about=["Amazon"]
    )
    assert report.reached == 1


@pytest.mark.parametrize(
    ("deprecates", "about", "reached"),
    [
        (["billing"], ["payments"], 0),  # a common word narrows: here to nothing (no near miss)
        (["billing"], ["Acme"], 1),
        (["2024"], ["offsite"], 1),
        (["billing"], ["acme's billing"], 1),  # an anchor that holds the deprecated string
    ],
)
def test_any_word_the_memories_name_is_an_anchor(
    memory: nowline.Collection, deprecates: list[str], about: list[str], reached: int
) -> None:
    """An anchor need not be rare: common words and proper nouns alike narrow the reach."""
    memory.remember("In 2024 the offsite was in Lisbon.", id="y")
    memory.remember("Acme's billing moved to Stripe.", id="acme")
    report = memory.correct(
        f"Change: {' '.join(deprecates)} is outdated.",
        deprecates=deprecates,
        about=about,
        allow_unreached=True,
    )
    assert report.reached == reached


def test_an_anchor_inside_the_deprecated_string_is_dropped_with_a_note(
    billing: nowline.Collection,
) -> None:
    """``about=['Core']`` for ``Platform Core`` narrows nothing: dropped, as the report says."""
    billing.remember("Page Platform Core for search incidents.", id="dep")
    report = billing.correct(
        "Search moved from Platform Core to Discovery.",
        deprecates=["Platform Core"],
        about=["Core", "search"],
    )
    assert report.reached == 1
    assert report.notes == [
        "The anchor 'Core' is part of 'Platform Core', so it narrows nothing: it was dropped."
    ]
    (summary,) = [c for c in billing.corrections() if c.id == report.id]
    assert summary.about == ["search"]


def test_anchors_beside_identifiers_are_dropped_with_a_note(
    billing: nowline.Collection,
) -> None:
    """An identifier names one thing: its anchors go, so a command without the subject trips."""
    billing.remember("Deploy acme/billing on Fridays.", id="dep")
    report = billing.correct(
        "acme/billing moved to acme/payments.", deprecates=["acme/billing"], about=["invoices"]
    )
    assert report.reached == 1
    assert report.notes == [
        "The anchor 'invoices' was dropped: 'acme/billing' names one thing wherever it is "
        "written, so the correction holds for every memory and command that names it."
    ]
    (summary,) = [c for c in billing.corrections() if c.id == report.id]
    assert summary.about == []
    trips = billing.check("git clone git@github.com:acme/billing.git")
    assert [o.phrase for t in trips for o in t.occurrences] == ["acme/billing"]


def test_allow_generic_accepts_a_function_word_anchor(billing: nowline.Collection) -> None:
    """allow_generic=True is the explicit way past the generic-string guards, anchors too."""
    report = billing.correct(
        "2024 changed.", deprecates=["2024"], about=["the"], allow_generic=True
    )
    assert report.reached == 1  # "In 2024 the offsite ..."


def test_validate_correction_refuses_anchors_without_a_store() -> None:
    """The store-free guard check refuses the same anchors."""
    with pytest.raises(nowline.GenericString, match="'the'"):
        nowline.validate_correction("2024 changed.", ["2024"], ["the"])


def test_an_anchor_no_memory_names_beside_a_number_is_refused_naming_words_they_do(
    memory: nowline.Collection,
) -> None:
    """The refusal counts the words of the text and anchors that the string's memories name."""
    memory.remember("The Harbor API allows 600 requests per minute.", id="h1")
    memory.remember("Harbor API clients back off at 600 per minute.", id="h2")
    memory.remember("The 600 series of the catalogue is sold out.", id="cat")
    before = snapshot(memory)
    with pytest.raises(nowline.Unreached) as info:
        memory.correct(
            "The Harbor API rate limit went up from 600 to 1200 requests per minute.",
            deprecates=["600"],
            about=["Harbor API rate limit"],
        )
    assert info.value.anchors == ["Harbor API rate limit"]
    message = " ".join(str(info.value).split())
    assert "without the anchor 3 records name it" in message
    assert "'Harbor' 2" in message and "about=['Harbor']" in message
    assert snapshot(memory) == before
    report = memory.correct(
        "The Harbor API rate limit went up from 600 to 1200 requests per minute.",
        deprecates=["600"],
        about=["Harbor"],
    )
    assert report.reached == 2


def test_an_anchor_miss_whose_text_names_no_word_of_the_memories_suggests_what_they_share(
    memory: nowline.Collection,
) -> None:
    """Where no word of the text is named by the memories, the words they share are suggested.

    Blind writer case g13 sent the role as a new value and as the anchor; the refusal ended
    "Give an anchor those memories name (about ['...'])", and the retry repeated the call.
    """
    memory.remember("Oluwaseun Adeyemi is the Quillfeather security contact.", id="q1")
    memory.remember("Oluwaseun Adeyemi triages Quillfeather pen-test reports.", id="q2")
    text = "Margarethe Lindqvist took it over from Oluwaseun Adeyemi."
    with pytest.raises(nowline.Unreached) as info:
        memory.correct(text, deprecates=["Oluwaseun Adeyemi"], about=["pager"])
    message = " ".join(str(info.value).split())
    assert "'Quillfeather' 2" in message and "about=['Quillfeather']" in message
    report = memory.correct(text, deprecates=["Oluwaseun Adeyemi"], about=["Quillfeather"])
    assert report.reached == 2


def test_an_anchor_no_memory_names_beside_an_identifier_is_dropped_with_a_note(
    memory: nowline.Collection,
) -> None:
    """An identifier names one thing: the anchor is dropped, and the report says so."""
    memory.remember("Pipelines live in gitlab.com/orchard-team/pipeline.", id="p1")
    memory.remember("Clone gitlab.com/orchard-team/pipeline for CI work.", id="p2")
    report = memory.correct(
        "gitlab.com/orchard-team/pipeline moved to gitlab.com/orchard/pipeline.",
        deprecates=["gitlab.com/orchard-team/pipeline"],
        about=["role or subject that changed"],
    )
    assert report.reached == 2
    (note,) = report.notes
    assert "'role or subject that changed'" in note and "dropped" in note
    (summary,) = memory.corrections()
    assert summary.about == []
    assert {h.id: h.role for h in memory.hits(["p1", "p2"])} == {
        "p1": "historical",
        "p2": "historical",
    }


def test_a_proper_noun_is_an_anchor_though_it_folds_to_a_function_word(
    memory: nowline.Collection,
) -> None:
    """``Pro`` of "the Pro plan" is a name; ``pro`` (Czech "for") is a function word.

    The text decides, as it does for a deprecated string (a proper noun mid-sentence): an
    anchor that the correction writes capitalised mid-sentence is not refused.
    """
    memory.remember("The Pro plan costs $39 a month per seat.", id="price")
    memory.remember("Room 39 is booked for the offsite.", id="room")
    before = snapshot(memory)
    with pytest.raises(nowline.GenericString, match="function word"):
        memory.correct("pro plan: $39 is outdated, $49 now.", deprecates=["$39"], about=["pro"])
    assert snapshot(memory) == before
    report = memory.correct(
        "The Pro plan now costs $49 a month; it was $39.", deprecates=["$39"], about=["Pro"]
    )
    assert report.reached == 1
    assert {h.id: h.role for h in memory.hits(["price", "room"])} == {
        "price": "historical",
        "room": "current",
    }
