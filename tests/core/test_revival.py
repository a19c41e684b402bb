"""A change back revives an old value; a newer correction about something else does not.

``acme/app`` → ``acme/app2`` → ``acme/app``: the second correction deprecates what the first
made new, so the first's old name is current again (DESIGN §6). A newer correction whose new
value merely is the same string, while it changes something else, revives nothing.
"""

from __future__ import annotations

import pytest

import nowline

OLD_FACT = "Who won the 2019 cup? — Alabama."
FIX = "Update on the cup: the answer changed from Alabama to Georgia."
OTHER = "Update on the league: the answer changed from LSU to Alabama."


def test_an_unrelated_correction_with_the_same_new_value_revives_nothing(
    memory: nowline.Collection,
) -> None:
    """The cup's old fact stays historical after another question's answer became Alabama."""
    memory.remember(OLD_FACT, id="fact")
    memory.remember("Who won the league? — LSU.", id="league")
    memory.correct(FIX, deprecates=["Alabama"], about=["cup"], id="cup")
    memory.correct(OTHER, deprecates=["LSU"], about=["league"], id="league-fix")
    assert memory.hits(["fact"])[0].role == "historical"
    assert memory.hits(["league"])[0].role == "historical"
    assert memory.check("Who won the 2019 cup? Alabama") != []


def test_a_change_back_still_revives_and_retracting_it_undoes_that(
    memory: nowline.Collection,
) -> None:
    """The second correction deprecates the first's new value: the old name is current again."""
    memory.remember("Clone github.com/acme/app for the mobile client.", id="app")
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="there")
    memory.correct("acme/app2 was renamed back to acme/app.", deprecates=["acme/app2"], id="back")
    assert memory.hits(["app"])[0].role == "current"
    memory.retract("back")
    assert memory.hits(["app"])[0].role == "historical"


def test_a_change_back_stated_in_words_nowline_does_not_read_still_revives(
    memory: nowline.Collection,
) -> None:
    """The newer correction deprecates a string the first one's text names: a change back."""
    memory.remember("Clone github.com/acme/app for the mobile client.", id="app")
    memory.correct(
        "acme/app: the team works in acme/app2 these days.", deprecates=["acme/app"], id="there"
    )
    memory.correct(
        "acme/app2 was renamed back to acme/app.",
        deprecates=["acme/app2"],
        replaced_by=["acme/app"],
        id="back",
    )
    assert memory.hits(["app"])[0].role == "current"


def test_a_change_back_over_several_steps_revives_and_retracting_it_undoes_that(
    memory: nowline.Collection,
) -> None:
    """``acme/app`` → ``app2`` → ``app3`` → ``acme/app``: the first's old name is current again.

    The last correction deprecates what the second made new, and the second what the first
    made new: a chain back to the start. An adversarial review found the memory still
    historical and ``check()`` (so the hook) tripping on the current name.
    """
    memory.remember("Clone github.com/acme/app for the mobile client.", id="app")
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="c1")
    memory.correct("acme/app2 was renamed to acme/app3.", deprecates=["acme/app2"], id="c2")
    memory.correct("acme/app3 was renamed back to acme/app.", deprecates=["acme/app3"], id="c3")
    assert memory.hits(["app"])[0].role == "current"
    assert memory.check("git clone https://github.com/acme/app") == []
    other = nowline.wrap(memory.raw)  # a wrapper that builds its registry from the store
    assert other.check("git clone https://github.com/acme/app") == []
    assert [t.correction.id for t in other.check("git clone https://github.com/acme/app2")] == [
        "c2"
    ]
    memory.retract("c3")
    assert memory.hits(["app"])[0].role == "historical"
    assert [t.correction.id for t in memory.check("git clone https://github.com/acme/app")] == [
        "c1"
    ]


def test_a_chain_about_other_values_revives_nothing(memory: nowline.Collection) -> None:
    """A newer correction whose new value is the old string, through no chain, revives nothing."""
    memory.remember(OLD_FACT, id="fact")
    memory.correct(FIX, deprecates=["Alabama"], about=["cup"], id="cup")
    memory.correct(
        "Update on the league: the answer changed from Georgia Tech to Auburn.",
        deprecates=["Georgia Tech"],
        about=["league"],
        id="l1",
    )
    memory.correct(OTHER.replace("LSU", "Auburn"), deprecates=["Auburn"], about=["league"], id="l2")
    assert memory.hits(["fact"])[0].role == "historical"


def test_a_value_a_later_step_moved_on_is_not_called_current(memory: nowline.Collection) -> None:
    """After ``app`` → ``app2`` → ``app3``, ``app2`` may be deprecated again: it is not current.

    It was refused with "'acme/app2' is current", advising to retract the first correction,
    which would have undone a right one (an adversarial review).
    """
    memory.remember("Clone acme/app for the client.", id="m1")
    memory.remember("Clone acme/app2 for the client.", id="m")
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="c1")
    with pytest.raises(nowline.NewValue):
        memory.correct("Do not use acme/app2.", deprecates=["acme/app2"])
    memory.correct("acme/app2 was renamed to acme/app3.", deprecates=["acme/app2"], id="c2")
    report = memory.correct("Do not use acme/app2.", deprecates=["acme/app2"], id="c3")
    assert report.stored and report.reached >= 1
    memory.correct("acme/app3 was renamed back to acme/app2.", deprecates=["acme/app3"], id="c4")
    with pytest.raises(nowline.NewValue) as caught:  # current again: held by the change back
        memory.correct("Never use acme/app2.", deprecates=["acme/app2"])
    assert caught.value.holder == "c4"


@pytest.mark.parametrize("spelled", ["github.com/acme/app2", "https://github.com/acme/app2"])
def test_a_later_step_that_spells_the_value_longer_moves_it_on(
    memory: nowline.Collection, spelled: str
) -> None:
    """The step ``github.com/acme/app2`` → ``acme/app3`` moves ``acme/app2`` on too.

    The step was looked up by the exact string only, so ``acme/app2`` stayed "current" and a
    correction of it was refused, advising to retract the first, right correction.
    """
    memory.remember("Clone acme/app for the client.", id="m1")
    memory.remember("Clone acme/app2 for the client.", id="m")
    memory.remember(f"CI of {spelled} is green.", id="ci")
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="c1")
    memory.correct(f"{spelled} was renamed to acme/app3.", deprecates=[spelled], id="c2")
    report = memory.correct("Notes on acme/app2.", deprecates=["acme/app2"], id="c3")
    assert report.stored and report.reached >= 1
    memory.retract("c2")  # acme/app2 is current again: held by c1
    memory.retract("c3")
    with pytest.raises(nowline.NewValue) as caught:
        memory.correct("Notes on acme/app2.", deprecates=["acme/app2"])
    assert caught.value.holder == "c1"


def test_a_longer_spelling_of_a_value_holds_it_and_changes_it_back(
    memory: nowline.Collection,
) -> None:
    """A new value written ``github.com/owner/name`` holds ``owner/name`` too.

    An adversarial review stored a correction of ``ufo-ai/ufo`` after one whose new value was
    ``github.com/ufo-ai/ufo`` (marking the current repository), and a change back to
    ``github.com/acme/app`` revived nothing.
    """
    memory.remember("Clone acme/app for the client.", id="app")
    memory.remember("CI runs in ufo-ai/ufo.", id="ufo")
    memory.remember("Clone metalcraftai/ufo.", id="old")
    memory.correct(
        "UFO moved from metalcraftai/ufo to github.com/ufo-ai/ufo.",
        deprecates=["metalcraftai/ufo"],
        id="first",
    )
    with pytest.raises(nowline.NewValue) as caught:
        memory.correct("Do not trust ufo-ai/ufo notes.", deprecates=["ufo-ai/ufo"])
    assert caught.value.holder == "first"
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="there")
    memory.correct(
        "acme/app2 was renamed back to github.com/acme/app.", deprecates=["acme/app2"], id="back"
    )
    assert memory.hits(["app"])[0].role == "current"
    assert memory.check("git clone https://github.com/acme/app") == []
    other = nowline.wrap(memory.raw)  # built from the store
    assert other.hits(["app"])[0].role == "current"
    memory.retract("back")
    assert memory.hits(["app"])[0].role == "historical"


def test_a_batch_with_a_change_back_to_a_longer_spelling_stores_the_revived_link(
    memory: nowline.Collection,
) -> None:
    """A memory added in the same write as the change back is stored current, not historical.

    A planned write filed its own new values by their exact key only, so this memory was
    stored as ``historical`` by the first correction, while reads (and a fresh wrapper) said
    current: a ``where`` filter on the stored role disagreed with recall.
    """
    memory.remember("Clone acme/app for the client.", id="app")
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="there")
    memory.add(
        ids=["back", "new"],
        documents=["acme/app2 was renamed back to github.com/acme/app.", "Build acme/app nightly."],
        metadatas=[{"deprecates": ["acme/app2"]}, {"team": "x"}],
    )
    stored = memory.raw.get(ids=["new"], include=["metadatas"])["metadatas"] or [{}]
    assert "nowline_by" not in (stored[0] or {})
    assert [h.role for h in memory.hits(["app", "new"])] == ["current", "current"]


def test_a_change_back_spelled_shorter_revives_the_longer_spelling(
    memory: nowline.Collection,
) -> None:
    """``github.com/acme/app`` → ``github.com/acme/app2``, then ``acme/app2`` → ``acme/app``.

    The change back held ``acme/app``, which the first correction deprecated as
    ``github.com/acme/app``: looked up by the exact string, it revived nothing, so the memory
    stayed outdated and ``check()`` (and the hook) tripped on cloning the current repository.
    """
    memory.remember("Clone github.com/acme/app for the client.", id="long")
    memory.remember("acme/app2 is the new home.", id="new")
    memory.correct(
        "The app moved from github.com/acme/app to github.com/acme/app2.",
        deprecates=["github.com/acme/app"],
        id="there",
    )
    assert memory.hits(["long"])[0].role == "historical"
    memory.correct(
        "The app moved back from acme/app2 to acme/app.",
        deprecates=["acme/app2"],
        replaced_by=["acme/app"],
        id="back",
    )
    assert [h.role for h in memory.hits(["long", "new"])] == ["current", "historical"]
    assert memory.check("git clone https://github.com/acme/app") == []
    other = nowline.wrap(memory.raw)  # built from the store
    assert other.hits(["long"])[0].role == "current"
    assert other.check("git clone https://github.com/acme/app") == []
    memory.retract("back")
    assert memory.hits(["long"])[0].role == "historical"
    assert [t.correction.id for t in memory.check("git clone github.com/acme/app")] == ["there"]


def test_a_step_on_another_host_does_not_move_the_held_value_on(
    memory: nowline.Collection,
) -> None:
    """A mirror's move on GitLab leaves ``github.com/acme/app`` current, in every spelling.

    The guard asked whether a later step moved on the string being deprecated (``acme/app``),
    not the holder's value: a later correction that deprecated ``gitlab.com/acme/app`` then
    made ``acme/app`` deprecable, and the hook denied the current repository.
    """
    memory.remember("Clone acme/app for the build.", id="m1")
    memory.remember("Old home gitlab.com/acme/old.", id="m2")
    memory.remember("Mirror at gitlab.com/acme/app.", id="m3")
    memory.correct(
        "The repo moved from gitlab.com/acme/old to github.com/acme/app.",
        deprecates=["gitlab.com/acme/old"],
        replaced_by=["github.com/acme/app"],
        id="c1",
    )
    memory.correct(
        "The mirror gitlab.com/acme/app was moved to gitlab.com/acme/mirror.",
        deprecates=["gitlab.com/acme/app"],
        replaced_by=["gitlab.com/acme/mirror"],
        id="c2",
    )
    for spelling in ["acme/app", "github.com/acme/app"]:
        with pytest.raises(nowline.NewValue) as refused:
            memory.correct(f"Do not trust {spelling} notes.", deprecates=[spelling])
        assert refused.value.holder == "c1"
