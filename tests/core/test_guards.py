"""The guards of a correction about to be written, without a store (``nowline._rules.guards``).

Each guard is checked on a bare :class:`CorrectionInfo` with the registry's answer given as a
function (``holders``): the new value is never deprecated, anchors narrow, generic strings and
people need an anchor, and every refusal speaks the caller's words (:mod:`nowline.terms`).
The same guards on a real store, through every surface, are in ``tests/guards/``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import nowline
from nowline._rules.guards import (
    Allowances,
    anchor_candidates,
    check_correction,
    check_reach,
    check_scope,
    person_refusal,
    validate_correction,
)
from nowline._rules.records import CorrectionInfo, new_values_of, same_value
from nowline._rules.validate import Settled, anchors_kept, values_settled
from nowline.terms import CLI_TERMS, TOOL_TERMS, using


def info(
    text: str,
    deprecates: Sequence[str],
    about: Sequence[str] = (),
    *,
    replaced_by: Sequence[str] | None = None,
    id: str = "c-new",
) -> CorrectionInfo:
    """Return a correction as the write path hands it to the guards."""
    phrases = tuple(deprecates)
    return CorrectionInfo(
        id=id,
        document=text,
        deprecates=phrases,
        about=tuple(about),
        time=0.0,
        written=0.0,
        scope=None,
        replaced_by=tuple(replaced_by)
        if replaced_by is not None
        else new_values_of({}, text, phrases),
    )


FIRST = info(
    "UFO core moved from metalcraftai/ufo to ufo-ai/ufo.", ["metalcraftai/ufo"], id="c-first"
)


def held_by(*holders: CorrectionInfo) -> object:
    """Return a registry answer: the corrections holding a string as a new value (any spelling)."""

    def holding(value: str) -> list[CorrectionInfo]:
        return [h for h in holders if any(same_value(value, v) for v in h.replaced_by)]

    return holding


# --------------------------------------------------------------------------- new values


def test_the_new_value_read_from_the_wording_is_never_deprecated() -> None:
    """'moved from A to B' with ``deprecates=[B]`` is refused, quoting the wording, naming A."""
    wrong = info("UFO core moved from metalcraftai/ufo to ufo-ai/ufo.", ["ufo-ai/ufo"])
    with pytest.raises(nowline.NewValue) as caught:
        check_correction(wrong)
    assert caught.value.phrase == "ufo-ai/ufo"
    assert caught.value.said and "ufo-ai/ufo" in caught.value.said
    assert "deprecates=['metalcraftai/ufo']" in str(caught.value)
    assert isinstance(caught.value, nowline.InvalidCorrection)
    assert isinstance(caught.value, ValueError)


def test_a_given_new_value_is_never_deprecated() -> None:
    """``replaced_by`` names the new value even where the wording says nothing of it."""
    wrong = info(
        "The repository is gone; use the new one.", ["acme/app2"], replaced_by=["acme/app2"]
    )
    with pytest.raises(nowline.NewValue) as caught:
        check_correction(wrong, Allowances(absent=True), given_new=True)
    assert caught.value.said is None
    assert "'acme/app2' is given both as an old value" in str(caught.value)


def test_a_given_new_value_beside_an_old_one_is_dropped_from_deprecates() -> None:
    """``deprecates=["600", "1200"], replaced_by=["1200"]``: 1200 is dropped, 600 kept."""
    assert values_settled(["600", "1200"], ["1200"]) == Settled(("600",), ("1200",), ("1200",))
    assert values_settled(["Node 18", "node 22"], ["Node 22"]) == Settled(
        ("Node 18",), ("Node 22",), ("node 22",)
    )
    assert values_settled(["acme/app2"], ["acme/app2"]) == Settled(("acme/app2",), ("acme/app2",))
    assert values_settled(["a/b"], []) == Settled(("a/b",), ())
    kept, anchors = nowline.validate_correction(
        "The Pro plan went from 39 to 49 dollars.",
        ["Pro plan", "39"],
        ["Pro plan", "39"],
        replaced_by=["Pro plan", "49"],
    )
    assert (kept, anchors) == (["39"], ["Pro plan"])


@pytest.mark.parametrize(
    ("text", "deprecates", "replaced_by", "settled"),
    [
        # given as both, the text calls it old: old only
        (
            "ci.saltire.dev is switched off.",
            ["ci.saltire.dev"],
            ["ci.saltire.dev"],
            Settled(("ci.saltire.dev",), (), (), ("ci.saltire.dev",)),
        ),
        # every string given as both: the text sorts them
        (
            "The facilities hotline changed to 020 7946 0321; 020 7946 0999 is disconnected.",
            ["020 7946 0321", "020 7946 0999"],
            ["020 7946 0321", "020 7946 0999"],
            Settled(("020 7946 0999",), ("020 7946 0321",), ("020 7946 0321",), ("020 7946 0999",)),
        ),
        # one the text calls old, one it calls new, one it does not name: the old one stays
        (
            "Kofi is the new head of sales; Elena left the company.",
            ["Brightwater", "Kofi", "Elena"],
            ["Brightwater", "Kofi", "Elena"],
            Settled(("Elena",), ("Brightwater", "Kofi"), ("Brightwater", "Kofi"), ("Elena",)),
        ),
        # the text's new value given beside the old one, replaced_by not given
        (
            "Backups moved from s3://acme-backups to s3://acme-backups-eu.",
            ["s3://acme-backups", "s3://acme-backups-eu"],
            [],
            Settled(("s3://acme-backups",), (), ("s3://acme-backups-eu",)),
        ),
        # the text's new value alone: nothing is dropped (the guard refuses it)
        (
            "Moved from metalcraftai/ufo to ufo-ai/ufo.",
            ["ufo-ai/ufo"],
            [],
            Settled(("ufo-ai/ufo",), ()),
        ),
        # a chain step (old and new in the text): never dropped as new
        (
            "Moved from a/one to a/two, then from a/two to a/three.",
            ["a/one", "a/two"],
            [],
            Settled(("a/one", "a/two"), ()),
        ),
        # a string the text does not sort, given as both, alone: kept (the guard refuses it)
        (
            "The repository is gone.",
            ["acme/app2"],
            ["acme/app2"],
            Settled(("acme/app2",), ("acme/app2",)),
        ),
    ],
)
def test_the_wording_settles_fields_that_contradict_each_other(
    text: str, deprecates: list[str], replaced_by: list[str], settled: Settled
) -> None:
    """A string given as both old and new is what the text says it is, where it says so."""
    assert values_settled(deprecates, replaced_by, text) == settled


def test_old_and_new_side_by_side_refuses_the_new_one() -> None:
    """The writer's common mistake: both values in ``deprecates``; the new one is named."""
    both = info("Moved from metalcraftai/ufo to ufo-ai/ufo.", ["metalcraftai/ufo", "ufo-ai/ufo"])
    with pytest.raises(nowline.NewValue) as caught:
        check_correction(both)
    assert caught.value.phrase == "ufo-ai/ufo"


@pytest.mark.parametrize(
    ("text", "old"),
    [
        (
            "The highest-grossing film changed from Avengers: Infinity War to Avengers: Endgame.",
            "Avengers: Infinity War",
        ),
        ("The launch is no longer April 1, 2020; it is now April 1.", "April 1, 2020"),
    ],
)
def test_an_old_value_that_holds_the_new_one_is_not_refused(text: str, old: str) -> None:
    """An old value the wording presents as old is no new value for holding one (SituatedQA).

    (A date with common words is generic, a guard of its own: accepted here to see this one.)
    """
    assert check_correction(info(text, [old]), Allowances(generic=True)) == ()


@pytest.mark.parametrize(
    ("text", "old"),
    [
        (
            'Update on "which film holds it? — Avengers: Infinity War": the answer is now '
            "Avengers: Endgame (as of 2019).",
            "Avengers: Infinity War",
        ),
        (
            'Update on "when was the eclipse? — 8 November 2005": the answer is now 8 November '
            "2006.",
            "8 November 2005",
        ),
    ],
)
def test_an_old_value_named_apart_from_the_new_one_it_holds_is_not_refused(
    text: str, old: str
) -> None:
    """The text names the old string and, apart from it, the new value: two values.

    SituatedQA's train split: the reader took a shared first word ("Avengers", "8") as the
    new value, and 11 old answers that hold it were refused.
    """
    assert check_correction(info(text, [old]), Allowances(generic=True)) == ()


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("UFO core moved to ufo-ai/ufo.", "moved to ufo-ai/ufo", "ufo-ai/ufo"),
        (
            "Dmitri handed the privacy role to Annika Solberg.",
            "handed the privacy role to Annika Solberg",
            "Annika Solberg",
        ),
    ],
)
def test_a_string_that_holds_the_new_value_and_nothing_apart_is_refused(
    text: str, old: str, new: str
) -> None:
    """A clause around the new value is no old value: still refused."""
    with pytest.raises(nowline.NewValue):
        check_correction(
            info(text, [old], replaced_by=[new]), Allowances(generic=True, person=True)
        )


def test_a_longer_form_of_the_new_value_is_still_refused() -> None:
    """``github.com/acme/web`` is the new value ``acme/web`` written out: refused."""
    wrong = info("Moved from github.com/acme/app to acme/web.", ["github.com/acme/web"])
    with pytest.raises(nowline.NewValue):
        check_correction(wrong, Allowances(absent=True))


def test_a_string_another_correction_holds_as_current_is_refused() -> None:
    """The second, wrong correction of the published case: its only reach is the first one."""
    wrong = info(
        "UFO core moved from metalcraftai/ufo; do GitHub work in ufo-ai/ufo.",
        ["ufo-ai/ufo"],
        replaced_by=[],
    )
    with pytest.raises(nowline.NewValue) as caught:
        check_correction(wrong, given_new=True, holders=held_by(FIRST))
    assert caught.value.holder == "c-first"
    assert "retract('c-first')" in str(caught.value)


@pytest.mark.parametrize(
    "form",
    [
        "ufo-ai/ufo.",
        "ufo-ai/ufo.git",
        "https://github.com/ufo-ai/ufo.git",
        "github.com/ufo-ai/ufo/",
        "/ufo-ai/ufo",
        "`ufo-ai/ufo`",
        "(ufo-ai/ufo)",
        "'ufo-ai/ufo:'",
        "@ufo-ai/ufo",
    ],
)
def test_another_spelling_of_a_value_held_as_current_is_refused(form: str) -> None:
    """The held value with a URL's host, ``.git``, quotes or a stop around it is the value.

    An adversarial review stored each of these, and the hook then denied the current
    repository's clone.
    """
    wrong = info(f"Do not trust {form} notes.", [form], replaced_by=[])
    with pytest.raises(nowline.NewValue) as caught:
        check_correction(wrong, given_new=True, holders=held_by(FIRST))
    assert caught.value.holder == "c-first"


@pytest.mark.parametrize(
    "other", ["ufo-ai/ufo-docs", "ufo-ai/ufo/issues/12", "docs.ufo-ai.dev/ufo", "ufo-ai"]
)
def test_a_longer_or_shorter_name_than_the_held_value_is_not_held(other: str) -> None:
    """A sibling, a page under it or a part of it is not the held value's spelling."""
    fix = info(f"{other} moved to ufo-org/x.", [other])
    assert check_correction(fix, holders=held_by(FIRST)) == ()


def test_a_chain_step_may_deprecate_the_current_value() -> None:
    """'moved from ufo-ai/ufo to ufo-org/ufo' says it changed again: allowed."""
    step = info("UFO core moved from ufo-ai/ufo to ufo-org/ufo.", ["ufo-ai/ufo"])
    assert check_correction(step, holders=held_by(FIRST)) == ()
    again = info("Deprecated ufo-ai/ufo; the project lives in ufo-org/ufo now.", ["ufo-ai/ufo"])
    assert check_correction(again, holders=held_by(FIRST)) == ()


def test_a_new_value_of_another_sort_is_no_chain_step() -> None:
    """What replaces a repository is a repository: a new host moves something else.

    "Release notes for ufo-ai/ufo are now on docs.ufo.dev" does not say ufo-ai/ufo changed;
    stored, it marked the current repository outdated. A repository for a repository, in a
    URL or not, and a name for a name are steps.
    """
    notes = "Release notes for ufo-ai/ufo are now on docs.ufo.dev."
    for given in (["docs.ufo.dev"], None):
        wrong = info(notes, ["ufo-ai/ufo"], replaced_by=given)
        with pytest.raises(nowline.NewValue):
            check_correction(wrong, given_new=given is not None, holders=held_by(FIRST))
    for new in ("ufo-org/ufo", "https://github.com/ufo-org/ufo"):
        step = info(f"Do the work in {new}, not ufo-ai/ufo.", ["ufo-ai/ufo"], replaced_by=[new])
        assert check_correction(step, given_new=True, holders=held_by(FIRST)) == ()


def test_anchors_that_do_not_meet_speak_of_different_things() -> None:
    """Acme's new CEO is not Globex's: a holder anchored elsewhere does not refuse."""
    acme = info("Acme's CEO changed from Ann Lee to Dario Ruiz.", ["Ann Lee"], ["Acme"], id="a")
    globex = info("Globex: a note on Dario Ruiz.", ["Dario Ruiz"], ["Globex"], replaced_by=[])
    assert check_correction(globex, holders=held_by(acme), given_new=True) == ()
    same = info("Acme: a note on Dario Ruiz.", ["Dario Ruiz"], ["Acme"], replaced_by=[])
    with pytest.raises(nowline.NewValue):
        check_correction(same, holders=held_by(acme), given_new=True)


def test_an_anchor_the_other_text_never_names_is_another_subject() -> None:
    """One anchored, one not: they meet only where the unanchored text names the anchor."""
    plain = info("Our CEO changed from Ann Lee to Dario Ruiz.", ["Ann Lee"], id="p")
    globex = info("Globex: a note on Dario Ruiz.", ["Dario Ruiz"], ["Globex"], replaced_by=[])
    assert check_correction(globex, holders=held_by(plain), given_new=True) == ()
    named = info("Globex's CEO changed from Ann Lee to Dario Ruiz.", ["Ann Lee"], id="n")
    with pytest.raises(nowline.NewValue):
        check_correction(globex, holders=held_by(named), given_new=True)


# ------------------------------------------------------------------------------ anchors


@pytest.mark.parametrize(
    ("deprecates", "about", "kind"),
    [
        (["Michelle"], ["the"], "function"),
        (["Michelle"], ["un"], "function"),  # French "a"; written UN it is an acronym
        (["Michelle"], ["ｔｈｅ"], "function"),  # full width: the matcher folds it to "the"
    ],
)
def test_anchors_that_narrow_nothing_are_refused(
    deprecates: list[str], about: list[str], kind: str
) -> None:
    """A function word, or the deprecated string itself, anchors nothing."""
    with pytest.raises(nowline.GenericString) as caught:
        check_correction(info("Michelle handed billing to Dana.", deprecates, about))
    assert caught.value.kind == kind and caught.value.field == "about"


def test_the_deprecated_string_itself_as_an_anchor_is_dropped() -> None:
    """It holds wherever the string holds: dropped like an anchor inside a deprecated string."""
    assert anchors_kept(["Michelle"], ["michelle", "billing"]) == (("billing",), ("michelle",))
    assert anchors_kept(["Platform Core"], ["platform", "search"]) == (("search",), ("platform",))


@pytest.mark.parametrize(
    ("deprecates", "optional"),
    [
        (["gitlab.com/orchard-team/pipeline"], True),
        (["#ufo-dev", "ops@acme.example"], True),
        (["#ufo-dev", "Michelle Rivera"], False),
        (["Node 18"], False),
        (["Platform Core"], False),
        (["600"], False),
        ([], False),
    ],
)
def test_anchors_are_dropped_only_beside_identifiers(deprecates: list[str], optional: bool) -> None:
    """An identifier names one thing; a name, a word or a number needs its anchor to hold."""
    kept, dropped = anchors_kept(deprecates, ["mobile"])
    assert (kept, dropped) == (((), ("mobile",)) if optional else (("mobile",), ()))


@pytest.mark.parametrize(
    ("text", "deprecates", "about"),
    [
        ("Michigan's 1948 figure was revised to 1950.", ["1948"], ["Michigan"]),
        ("The Patriots' coach in 2019 was replaced.", ["2019"], ["Patriots"]),
        ("The billing owner changed from Michelle to Dana.", ["Michelle"], ["billing"]),
        ("The UN's secretary-general in 2016 was replaced.", ["2016"], ["UN"]),
        ("The OS of the fleet moved off version 7 in 2021.", ["2021"], ["OS"]),
    ],
)
def test_a_proper_noun_or_a_common_word_is_an_anchor(
    text: str, deprecates: list[str], about: list[str]
) -> None:
    """Anchors narrow; they need not be rare."""
    assert check_correction(info(text, deprecates, about)) == ()


def test_without_an_anchor_a_given_name_or_a_year_is_generic() -> None:
    """A given name alone, a bare year: refused, naming the anchor and the switch."""
    with pytest.raises(nowline.GenericString) as caught:
        check_correction(info("The billing owner changed from Michelle to Dana.", ["Michelle"]))
    assert caught.value.kind == "name"
    # (no store here: the text's first role or subject word, uncounted)
    assert "about=['billing']" in str(caught.value)
    assert caught.value.anchors == [("billing", 0), ("owner", 0)]
    assert "allow_generic=True" in str(caught.value)
    with pytest.raises(nowline.GenericString):
        check_correction(info("The figure was 1948, now 1950.", ["1948"]))
    assert check_correction(info("x 1948", ["1948"]), Allowances(generic=True)) == ()


def test_validate_correction_drops_an_anchor_inside_the_string() -> None:
    """``about=['Rivera']`` inside ``Michelle Rivera`` narrows nothing: dropped, not refused."""
    phrases, kept = validate_correction(
        "The billing owner changed from Michelle Rivera to Dana Wu.",
        ["Michelle Rivera"],
        ["Rivera", "billing owner"],
    )
    assert phrases == ["Michelle Rivera"] and kept == ["billing owner"]


def test_validate_correction_drops_every_anchor_beside_identifiers() -> None:
    """An identifier names one thing: ``about`` beside ``metalcraftai/ufo`` is dropped."""
    phrases, kept = validate_correction(
        "Moved from metalcraftai/ufo to ufo-ai/ufo.", ["metalcraftai/ufo"], ["ufo", "UFO core"]
    )
    assert phrases == ["metalcraftai/ufo"] and kept == []


# ------------------------------------------------------------------------------- people


def test_a_full_name_without_an_anchor_is_returned_for_counting() -> None:
    """A full name alone is returned: the write path counts its reach, then refuses.

    ``allow_person`` or an anchor lets it through.
    """
    text = "The billing owner changed from Michelle Rivera to Dana Wu."
    assert check_correction(info(text, ["Michelle Rivera"])) == ("Michelle Rivera",)
    assert check_correction(info(text, ["Michelle Rivera"]), Allowances(person=True)) == ()
    assert check_correction(info(text, ["Michelle Rivera"], ["billing"])) == ()


def test_validate_correction_refuses_a_person_without_an_anchor() -> None:
    """Without a store, the refusal names the candidate anchors of the text."""
    with pytest.raises(nowline.PersonName) as caught:
        validate_correction(
            "The billing owner changed from Michelle Rivera to Dana Wu.", ["Michelle Rivera"]
        )
    assert caught.value.phrase == "Michelle Rivera"
    assert [a for a, _ in caught.value.anchors] == ["billing", "owner"]
    assert isinstance(caught.value, ValueError)


def test_anchor_candidates_are_the_role_words() -> None:
    """Not the values, not given names, not function words or change verbs."""
    words = anchor_candidates(
        "The billing owner changed from Michelle Rivera to Dana Wu.",
        ["Michelle Rivera", "Dana Wu"],
    )
    assert words == ["billing", "owner"]
    assert anchor_candidates("Acme's CEO is now Dana.", ["Dana"]) == ["Acme", "CEO"]


def test_a_person_refusal_gives_its_evidence_in_the_callers_words() -> None:
    """The counts of what the name reaches and which anchors those records name."""
    refusal = person_refusal("Michelle Rivera", 3, [("billing", 1), ("owner", 0)])
    assert "Of the 3 records it would reach, these also name: 'billing' 1." in str(refusal)
    assert "about=['billing']" in str(refusal) and "allow_person=True" in str(refusal)
    with using(CLI_TERMS):
        cli = str(person_refusal("Michelle Rivera", 3, [("billing", 1)]))
    assert "--about billing" in cli and "--allow-person" in cli and "=True" not in cli
    with using(TOOL_TERMS):
        tool = str(person_refusal("Michelle Rivera", 3, [("billing", 1)]))
    assert 'about ["billing"]' in tool and "allow_person" not in tool


# ------------------------------------------------------------------------ text and reach


def test_a_string_absent_from_the_text_is_refused_unless_allowed() -> None:
    """The reader must see what changed."""
    absent = info("The repository moved.", ["acme/app"])
    with pytest.raises(nowline.AbsentString) as caught:
        check_correction(absent)
    assert caught.value.absent == ["acme/app"]
    assert check_correction(absent, Allowances(absent=True)) == ()
    with pytest.raises(nowline.InvalidCorrection, match="needs a text"):
        check_correction(info("  ", ["acme/app"]))


def test_reach_and_scope_limits() -> None:
    """Too broad names its numbers; a scoped store refuses a writer without its key."""
    with pytest.raises(nowline.CorrectionTooBroad) as caught:
        check_reach(FIRST, 600, 0.5, 1000)
    assert (caught.value.reach, caught.value.limit) == (600, 500)
    check_reach(FIRST, 500, 0.5, 1000)
    with pytest.raises(nowline.CorrectionTooBroad):
        check_reach(FIRST, 11, 10, 1000)
    with pytest.raises(nowline.InvalidInput, match="scope_key='user_id'"):
        check_scope(FIRST, None, ["user_id"])
    with pytest.raises(nowline.InvalidInput, match="'tenant'"):
        check_scope(FIRST, "tenant", ["user_id"])
    check_scope(FIRST, "user_id", ["user_id"])
    check_scope(FIRST, None, [])


def test_a_persons_suggested_anchor_is_never_a_word_of_the_message_frame() -> None:
    """'Update on ...' or 'Note: ...' opens the text; the role is suggested, not 'Update'."""
    from nowline._rules.guards import anchor_candidates

    words = anchor_candidates(
        "Update: the billing owner is now Dana Wu, not Myles Turner.", ["Myles Turner"]
    )
    assert words[:2] == ["billing", "owner"]
    assert "Update" not in anchor_candidates("Note: Update on the CEO: Dana Wu.", [])


def test_a_suggested_anchor_is_never_refused_as_an_anchor() -> None:
    """The anchors a refusal suggests pass the anchor rule: no function word of any language.

    The writer benchmark's retry sent ``about=["Pro"]`` for "The Pro plan now costs $49", as
    suggested, and was refused ("pro" is a function word in Czech and Portuguese). The text
    writes it as a proper noun, so it is accepted now; the suggestions still leave out every
    word that folds to a function word, proper noun or not.
    """
    from nowline._rules.guards import _check_anchors, anchor_candidates

    text = "The Pro plan now costs $49 a month; it was $39. Per seat, con VAT, des taxes."
    words = anchor_candidates(text, ["39", "49"])
    assert words[:3] == ["plan", "costs", "month"] and "Pro" not in words
    for word in [*words, "Pro"]:
        _check_anchors([word], text)  # raises for a function word
    with pytest.raises(nowline.GenericString):
        _check_anchors(["pro"], "The pro plan now costs $49.")


def test_anchor_candidates_are_the_first_of_a_long_text_and_skip_every_excluded_occurrence() -> (
    None
):
    """A text of thousands of words gives its first ANCHOR_CANDIDATES words, once each.

    A hostile correction text (many words, many occurrences of the deprecated string) made
    the candidates quadratic and a refusal took a minute; they are read in one pass now.
    """
    from nowline._rules.guards import ANCHOR_CANDIDATES, anchor_candidates

    words = [
        f"w{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}{chr(97 + i // 676 % 26)}x"
        for i in range(5000)
    ]
    text = (
        "It was 39 39. "
        + " ".join(w for pair in zip(words, words, strict=True) for w in pair)
        + " 39" * 5000
    )
    got = anchor_candidates(text, ["39"])
    assert len(got) == ANCHOR_CANDIDATES and got == words[:ANCHOR_CANDIDATES]
    assert anchor_candidates("plan 39 39plan plan", ["39"]) == ["plan"]


def test_a_deprecated_string_the_text_calls_new_is_refused_whatever_replaced_by_says() -> None:
    """Swapped fields: the text says the deprecated string holds again, replaced_by the other.

    Blind writer case g23: stored, the correction marked the current mirror's memories and
    its own line said the opposite.
    """
    text = (
        "The package mirror is pypi.example.cz again; the switch to mirror.example.cz was "
        "rolled back."
    )
    swapped = info(text, ["pypi.example.cz"], replaced_by=["mirror.example.cz"])
    with pytest.raises(nowline.NewValue) as caught:
        check_correction(swapped, Allowances(), given_new=True)
    message = str(caught.value)
    assert "the text says 'is pypi.example.cz again'" in message, message
    assert "deprecates=['mirror.example.cz'], and put 'pypi.example.cz' in replaced_by" in message
    right = info(text, ["mirror.example.cz"], replaced_by=["pypi.example.cz"])
    assert check_correction(right, Allowances(), given_new=True) == ()
    # a chain step the text tells is no contradiction: pypi is old here
    chain = info(
        "Moved from pypi.example.cz to mirror2.example.cz.",
        ["pypi.example.cz"],
        replaced_by=["mirror2.example.cz"],
    )
    assert check_correction(chain, Allowances(), given_new=True) == ()


def test_a_new_value_in_another_spelling_beside_an_old_one_is_dropped() -> None:
    """``github.com/acme/app2`` is ``acme/app2``: given or read as new, it leaves deprecates.

    An adversarial review found the bare spelling repaired and the URL one refused.
    """
    settled = values_settled(["acme/app", "github.com/acme/app2"], ["acme/app2"])
    assert settled.deprecates == ("acme/app",) and settled.dropped_old == ("github.com/acme/app2",)
    read = values_settled(
        ["acme/app", "acme/app2"], [], "Moved from acme/app to github.com/acme/app2."
    )
    assert read.deprecates == ("acme/app",) and read.dropped_old == ("acme/app2",)
    other_host = values_settled(["gitlab.com/acme/app2", "x/y"], ["github.com/acme/app2"])
    assert other_host.deprecates == ("gitlab.com/acme/app2", "x/y")
