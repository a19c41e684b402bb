"""``preview(text=...)`` proposes what to deprecate, and an anchor where a string needs one.

A model told of a change often recalls or remembers it instead of storing it; the tools then
answer with the call that stores it (``tests/mcp/test_tools.py``), which is this proposal. A
number, a first name or a person's full name is refused without an anchor, so proposing it
alone helped nobody: it is proposed with the word of the text that its memories name.
"""

from __future__ import annotations

import pytest

import nowline
import nowline.surfaces.tools
from nowline.surfaces.tools import run_tool


def _store(memory: nowline.Collection, *texts: str) -> None:
    for n, text in enumerate(texts):
        memory.remember(text, id=f"m{n}")


def test_a_price_is_proposed_with_the_name_the_text_gives(memory: nowline.Collection) -> None:
    """The text's proper noun wins over a word that narrows to one memory ("shipping")."""
    _store(
        memory,
        "Standard shipping on Fairlop orders costs €4.90.",
        "Tell Fairlop customers that standard delivery is €4.90.",
        "Express shipping on Fairlop orders costs €6.90.",
    )
    found = memory.preview([], text="Standard shipping on Fairlop orders is €6.90 now, was €4.90.")
    assert (found.deprecates, found.about, sorted(found)) == (["€4.90"], ["Fairlop"], ["m0", "m1"])
    assert found.refusal is None


def test_an_anchor_that_narrows_comes_first(memory: nowline.Collection) -> None:
    """Where another subject names the same number, the proposed anchor leaves it out."""
    _store(
        memory,
        "The Harbor API allows 600 requests per minute per key.",
        "Harbor API clients should back off above 600 requests per minute.",
        "The Lantern API allows 600 requests per minute.",
    )
    found = memory.preview(
        [], text="The Harbor API rate limit went up from 600 to 1200 requests per minute."
    )
    assert (found.deprecates, found.about, sorted(found)) == (["600"], ["Harbor"], ["m0", "m1"])


def test_a_first_name_is_proposed_with_the_role(memory: nowline.Collection) -> None:
    """A first name the text states as old comes with a role word its memories name."""
    _store(
        memory,
        "Beatriz is the IT manager at Halvorsen Freight.",
        "Beatriz from our finance team books the team travel.",
    )
    found = memory.preview([], text="Their IT manager is Søren now, Beatriz retired last month.")
    assert (found.deprecates, found.about, list(found)) == (["Beatriz"], ["manager"], ["m0"])


def test_nothing_is_proposed_without_a_word_the_memories_name(memory: nowline.Collection) -> None:
    """No anchor is made up: with no subject in the text, nothing is proposed."""
    _store(memory, "Wolfgang is our account manager at Brackenbury Press.")
    found = memory.preview([], text="Ximena took over from Wolfgang.")
    assert list(found) == [] and found.deprecates == [] and found.about == []
    assert found.refusal is not None and "states no old value" in found.refusal


CHAT = (
    "Ines: I really love the new climbing gym, it's really close to home.",
    "Ines: Just got back home from the game, what a night!",
    "Tomas: That game was really something. Just brilliant.",
    "Tomas: Lots of people came to the game, lots of noise.",
)


@pytest.mark.parametrize(
    "said",
    [
        "No, not really. Just keep the plants out of the sun and they are fine.",
        "I've known them for years, since I moved from my home town.",
        "Nope, not a new game. Just the one we always play.",
        "But instead of giving up, I kept going. Just like the last game.",
        "Hey! Lots has gone down since we last caught up, really.",
    ],
)
def test_chat_that_names_common_words_gets_no_call(memory: nowline.Collection, said: str) -> None:
    """Chat is no change of a common word; no call is made up from it (DESIGN §6).

    "not really", "moved from my home town": the wording read "really" and "home" as old,
    and the memories of a conversation name them beside many of the text's words ("Just",
    "Hey"), so the tools proposed a call anchored to one of those (LoCoMo: 5 such lines in
    5,882 turns). A common word alone is no value, and "Lots" opening a sentence no name.
    """
    _store(memory, *CHAT)
    found = memory.preview([], text=said)
    assert (list(found), found.deprecates, found.about) == ([], [], [])
    assert run_tool(memory, "remember", {"body": said}).text.count("call correct") == 0
    assert nowline.surfaces.tools.message_note(memory, said) == ""


def test_a_common_word_with_its_subject_is_proposed_with_it(memory: nowline.Collection) -> None:
    """A tool named by a common word ("Slack") is proposed with the subject the text gives."""
    _store(
        memory,
        "Incidents are coordinated in Slack.",
        "Page the on-call in Slack during incidents.",
        "Slack is where the design team chats.",
    )
    found = memory.preview([], text="Slack is deprecated for incidents, use Discord.")
    assert (found.deprecates, found.about, sorted(found)) == (
        ["Slack"],
        ["incidents"],
        ["m0", "m1"],
    )


def test_a_specific_value_is_proposed_alone(memory: nowline.Collection) -> None:
    """An identifier needs no anchor, and none is proposed beside it."""
    _store(memory, "Clone metalcraftai/ufo for the UFO core.")
    found = memory.preview([], text="UFO core moved from metalcraftai/ufo to ufo-ai/ufo.")
    assert (found.deprecates, found.about) == (["metalcraftai/ufo"], [])


def test_the_tools_answer_with_the_call_that_stores_it(memory: nowline.Collection) -> None:
    """recall, remember and preview name the anchor with the string; that call is right."""
    _store(
        memory,
        "The Tamberlane nightly backup starts at 03:45 UTC.",
        "The weekly usage report email goes out at 03:45 UTC.",
    )
    told = "tamberlane nightly backup runs at 01:15 UTC now instead of 03:45 UTC"
    recalled = run_tool(memory, "recall", {"query": told}).text
    assert recalled.endswith(
        f"call correct with body {told!r} and deprecates ['03:45'] and about ['tamberlane']."
    )
    shown = run_tool(memory, "preview", {"body": told}).text
    assert shown.startswith("Proposed from body: deprecates ['03:45'] and about ['tamberlane'].")
    fixed = run_tool(
        memory, "correct", {"body": told, "deprecates": ["03:45"], "about": ["tamberlane"]}
    )
    assert not fixed.is_error, fixed.text
    assert {h.id: h.role for h in memory.hits(["m0", "m1"])} == {
        "m0": "historical",
        "m1": "current",
    }


def test_a_person_whose_text_names_no_role_gets_what_the_memories_share(
    memory: nowline.Collection,
) -> None:
    """A person's refusal with no role word in the text suggests the words the memories share."""
    _store(
        memory,
        "Michelle Rivera approves procurement requests over 5,000 euros.",
        "Procurement approvals wait for Michelle Rivera.",
    )
    try:
        memory.correct(
            "Dana Wu has taken them over from Michelle Rivera.", deprecates=["Michelle Rivera"]
        )
    except nowline.PersonName as refused:
        assert refused.anchors == [("procurement", 2)]
        assert "about=['procurement']" in str(refused)
    else:
        raise AssertionError("a person's name without an anchor was stored")


def test_a_persons_refusal_names_the_person_the_memories_name(memory: nowline.Collection) -> None:
    """Of two people deprecated, the refusal is about the one memories name, with their role.

    Blind writer case g11 deprecated the new person beside the old one; the refusal was about
    the new one, whom no memory names, so it had no role to suggest and gave a placeholder.
    """
    _store(
        memory,
        "Michelle Rivera approves procurement requests over 5,000 euros.",
        "Procurement approvals wait for Michelle Rivera.",
    )
    with pytest.raises(nowline.PersonName) as refused:
        memory.correct(
            "Dana Wu has taken them over from Michelle Rivera.",
            deprecates=["Dana Wu", "Michelle Rivera"],
        )
    assert refused.value.phrase == "Michelle Rivera"
    assert refused.value.anchors == [("procurement", 2)]


def test_a_text_stating_thousands_of_numbers_reads_only_the_first_few(
    memory: nowline.Collection,
) -> None:
    """A hostile text of 3,000 stated numbers: only the first five are looked up, together.

    The first version read the store once per stated value until one had an anchor, so such
    a text (a recall's query, through the tools' change line) ran for over ten minutes. The
    first five are proposed as before; a sixth is not looked at.
    """
    _store(memory, "The Harbor API limit is 50004 per day.", "The Lantern API limit is 50004.")
    stated = "; ".join(
        f"the Harbor limit is {n + 100000} now, was {n + 50000}" for n in range(3000)
    )
    found = memory.preview([], text=stated)  # 50004 is the fifth number stated as old
    assert (found.deprecates, found.about, list(found)) == (["50004"], ["Harbor"], ["m0"])
    sixth = memory.preview([], text="the Harbor limit is 99 now, was 40000; " + stated)
    assert sixth.deprecates == [] and sixth.about == []


def test_a_huge_message_of_requests_undos_and_unsure_ends_gets_no_note(
    memory: nowline.Collection,
) -> None:
    """A 100 kB message of requests, undone moves and one value's ends named 1,400 times.

    It states no change a note could propose, so it gets none; the same sentence alone does.
    (Through `nowline hook` this message took 13.5 s: the reader's known strings and the
    near-miss windows were each tested against all of the others. It takes 6.5 s since, on
    this machine; the hook's timeout is 30 s.)
    """
    from nowline.surfaces.tools import message_note

    _store(memory, "Clone ci.b.example for the web work.")
    message = (
        "Please move acme/app to acme-inc/app. Reverted: acme/app -> acme-inc/app. The CI "
        "host is ci.a.example now; and ci.b.example kept timing out, "
    ) * 700
    assert message_note(memory, message) == ""
    note = message_note(memory, "The CI host is ci.a.example now; ci.b.example kept timing out.")
    assert "deprecates ['ci.b.example']" in note
