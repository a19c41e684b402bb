"""A change back the words do not state: preview() proposes the value it goes back to.

"community chat is back on discord (discord.gg/pintail), the slack invite slack.pintail.dev
is closed", after a correction from discord.gg/pintail to slack.pintail.dev: the wording reads
slack.pintail.dev as old and no new value, so a correction sent with the proposed
``deprecates`` alone left discord.gg/pintail's memories marked by the earlier correction (the
fourth blind writer set, m22 and m25: the model copied the change line and marked a current
memory). preview() and the tools' change line now name ``replaced_by``, and the correction
sent with it revives the value.
"""

from __future__ import annotations

import pytest

import nowline
from nowline._rules.guards import changed_back
from nowline._rules.records import CorrectionInfo
from nowline._rules.wording import says_back
from nowline.surfaces.tools import run_tool

BACK = (
    "community chat is back on discord (discord.gg/pintail), the slack invite "
    "slack.pintail.dev is closed"
)


@pytest.fixture
def store(memory: nowline.Collection) -> nowline.Collection:
    """A store whose chat moved from Discord to Slack, with a memory of each."""
    memory.add(
        ids=["a", "b", "c"],
        documents=[
            "Invite community members to the Pintail Slack via slack.pintail.dev.",
            "The README's chat badge links to slack.pintail.dev.",
            "discord.gg/pintail still has the 2023 community threads.",
        ],
    )
    memory.correct(
        "The community chat moved from discord.gg/pintail to slack.pintail.dev.",
        deprecates=["discord.gg/pintail"],
        id="there",
    )
    return memory


def _roles(col: nowline.Collection) -> dict[str, str]:
    return {h.id: h.role for h in col.hits(["a", "b", "c"])}


def test_preview_proposes_the_value_it_goes_back_to(store: nowline.Collection) -> None:
    """The text names the earlier value and says it goes back: that is the new value."""
    found = store.preview([], text=BACK)
    assert found.deprecates == ["slack.pintail.dev"]
    assert found.replaced_by == ["discord.gg/pintail"]
    line = run_tool(store, "recall", {"query": BACK}).text
    assert "replaced_by ['discord.gg/pintail']" in line


def test_the_correction_sent_as_proposed_revives_the_value(store: nowline.Collection) -> None:
    """Sent with the proposed fields, the Discord memory is current again; without, it is not."""
    assert _roles(store)["c"] == "historical"
    store.correct(BACK, deprecates=["slack.pintail.dev"], id="back-alone")
    assert _roles(store) == {"a": "historical", "b": "historical", "c": "historical"}
    store.retract("back-alone")
    found = store.preview([], text=BACK)
    store.correct(BACK, deprecates=found.deprecates, replaced_by=found.replaced_by, id="back")
    assert _roles(store) == {"a": "historical", "b": "historical", "c": "current"}


@pytest.mark.parametrize(
    "text",
    [
        # no word says it goes back: the earlier value is named in passing
        "The slack invite slack.pintail.dev is closed; discord.gg/pintail keeps the 2023 threads.",
        # the earlier value is stated as old too
        "We're back to email: slack.pintail.dev is closed and discord.gg/pintail is gone too.",
    ],
)
def test_no_value_is_proposed_where_the_text_does_not_go_back_to_it(
    store: nowline.Collection, text: str
) -> None:
    """Only a value the text goes back to, and does not call old, is proposed."""
    assert store.preview(["slack.pintail.dev"], text=text).replaced_by == []


def _info(
    text: str, deprecates: tuple[str, ...], replaced_by: tuple[str, ...] = ()
) -> CorrectionInfo:
    return CorrectionInfo(
        id="x",
        document=text,
        deprecates=deprecates,
        about=(),
        time=2.0,
        written=2.0,
        scope=None,
        replaced_by=replaced_by,
    )


def test_changed_back_reads_the_holders_old_values() -> None:
    """The rule alone: the holder of the deprecated string, and its old value the text names."""
    earlier = _info("moved from discord.gg/pintail to slack.pintail.dev", ("discord.gg/pintail",))
    holders = {"slack.pintail.dev": [earlier]}

    def held(value: str) -> list[CorrectionInfo]:
        return holders.get(value, [])

    assert changed_back(_info(BACK, ("slack.pintail.dev",)), held) == ("discord.gg/pintail",)
    # a new value of its own (given or read) wins: nothing is inferred
    given = _info(BACK, ("slack.pintail.dev",), ("discord.gg/other",))
    assert changed_back(given, held) == ()
    # no holder: no change back
    assert changed_back(_info(BACK, ("chat.pintail.dev",)), held) == ()


# ------------------------------- texts that do not go back, after a correction from A to B
NOTICE = (
    "IT notice, 14 May: courier notices go to deliveries@ottermere.org again. The trial of "
    "post-room@ottermere.org has ended."
)


@pytest.fixture
def trial(memory: nowline.Collection) -> nowline.Collection:
    """A store whose courier mailbox moved for a trial, with a memory of each."""
    memory.add(
        ids=["a", "b", "c"],
        documents=[
            "Couriers send their delivery notices to post-room@ottermere.org.",
            "Check post-room@ottermere.org for missed-parcel cards.",
            "deliveries@ottermere.org also receives the stationery supplier's invoices.",
        ],
    )
    memory.correct(
        "Courier notices moved from deliveries@ottermere.org to post-room@ottermere.org.",
        deprecates=["deliveries@ottermere.org"],
        id="trial",
    )
    return memory


def test_a_change_back_whose_words_read_neither_value_proposes_nothing(
    trial: nowline.Collection,
) -> None:
    """Both values are not read from the store: the line proposes nothing (blind6 p23).

    A reading of both values from the correction the text names (f6baf4b) proposed deprecating
    the current value after texts that go back to nothing (a review: "we are not going back to
    A; B is the address", "if B fails again, fall back to A"), so it was withdrawn.
    """
    found = trial.preview([], text=NOTICE)
    assert "post-room@ottermere.org" not in found.deprecates


@pytest.mark.parametrize(
    "text",
    [
        "We are not going back to deliveries@ottermere.org; post-room@ottermere.org is the "
        "address.",
        "Thinking of going back to deliveries@ottermere.org, post-room@ottermere.org has been "
        "flaky.",
        "Someone asked whether we could go back to deliveries@ottermere.org. No: "
        "post-room@ottermere.org stays.",
        "Please don't switch back to deliveries@ottermere.org, keep using post-room@ottermere.org.",
        "We might return to deliveries@ottermere.org if post-room@ottermere.org keeps bouncing.",
        "Reminder: we moved courier notices to post-room@ottermere.org; replies sent back to "
        "deliveries@ottermere.org bounce.",
        "If post-room@ottermere.org fails again, fall back to deliveries@ottermere.org for a day.",
        "Back in March courier notices went to deliveries@ottermere.org; since April "
        "post-room@ottermere.org gets them.",
        "Never again deliveries@ottermere.org: post-room@ottermere.org gets the courier notices.",
        "post-room@ottermere.org is shut down, and deliveries@ottermere.org is not coming back "
        "either.",
        "post-room@ottermere.org was retired today, deliveries@ottermere.org returns bounce as "
        "before.",
    ],
)
def test_no_value_is_revived_or_made_old_by_a_text_that_does_not_go_back(
    trial: nowline.Collection, text: str
) -> None:
    """The current value is not proposed as old, and the earlier one not as new (the review)."""
    found = trial.preview([], text=text)
    assert "deliveries@ottermere.org" not in found.replaced_by
    line = run_tool(trial, "recall", {"query": text}).text
    assert "replaced_by ['deliveries@ottermere.org']" not in line


def test_a_hostile_text_of_many_occurrences_is_read_in_linear_time(
    trial: nowline.Collection,
) -> None:
    """Thousands of mentions of the value gone back to: each sentence and clause judged once.

    Judged per occurrence, 4,000 mentions in one clause took a minute, in every recall whose
    query said "back" and named a deprecated string held as new.
    """
    value = "deliveries@ottermere.org"
    assert not says_back(f"{value}, " * 20_000 + "and it is not back.", value)
    assert not says_back(f"{value} moved. " * 20_000 + "We are back.", value)
    assert says_back(f"{value} moved. " * 20_000 + f"We are back on {value}.", value)
    back = f"Couriers are back on {value}. " * 500 + "post-room@ottermere.org is closed."
    assert trial.preview(["post-room@ottermere.org"], text=back).replaced_by == [value]
