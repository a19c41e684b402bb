"""A memory that records the change itself is not made stale by it (DESIGN §4, issue 33).

A model told of a change often remembers the user's words before it corrects (the fourth
blind act set: "new payments channel is #team-payments. #payments-updates is archived"). The
correction then marked that memory ``[outdated]``, with a ``now:`` line saying what it says
itself, and the model posted to the archived channel. A memory whose wording names the
deprecated string only as old, and names one of the correction's new values (or, where the
correction has none, states an end, not a move), records the change: it stays current. The
rule lives in the linking rule (``nowline._rules.registry``), so links, roles, recall and
``check()`` agree; the reference model of the state-machine test applies it too.
"""

from __future__ import annotations

import pytest

import nowline
from nowline._rules.wording import records_change

SAID = "new payments channel is #team-payments. #payments-updates is archived"


def test_a_remembered_statement_of_the_change_stays_current(memory: nowline.Collection) -> None:
    """The remembered words are current; the memory that names the old channel is historical."""
    memory.remember("Post payments updates in #payments-updates.", id="stale")
    memory.remember(SAID, id="said")
    report = memory.correct(SAID, deprecates=["#payments-updates"], id="fix")
    assert report.reached == 1
    roles = {h.id: h.role for h in memory.hits(["stale", "said"])}
    assert roles == {"stale": "historical", "said": "current"}
    shown = memory.recall("payments channel", n_results=5).render()
    assert f"- [outdated] {SAID}" not in shown and "- [outdated] Post payments" in shown
    # written before or after the correction, the same verdict
    memory.remember(SAID + " (noted twice)", id="later")
    assert memory.hits(["later"])[0].role == "current"


def test_a_memory_naming_the_old_value_as_current_too_stays_stale(
    memory: nowline.Collection,
) -> None:
    """One occurrence read as current ("deploy acme/app") keeps the memory stale."""
    memory.remember("deploy acme/app; it moved from acme/app to acme/web", id="both")
    memory.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="fix")
    assert memory.hits(["both"])[0].role == "historical"


def test_a_memory_of_another_change_stays_stale(memory: nowline.Collection) -> None:
    """A memory of an earlier move of the same string, to another value, is stale."""
    memory.remember("The wiki moved from wiki.acme.dev to docs.acme.dev in 2023.", id="first")
    memory.remember("Acme's billing moved from Braintree to Stripe.", id="stripe")
    memory.correct(
        "docs.acme.dev moved to handbook.acme.dev.", deprecates=["docs.acme.dev"], id="wiki"
    )
    memory.correct(
        "Billing moved from Stripe to Adyen.", deprecates=["Stripe"], about=["billing"], id="pay"
    )
    # the first names docs.acme.dev as new: superseded; the second names Stripe as new
    assert memory.hits(["first"])[0].role == "historical"
    assert memory.hits(["stripe"])[0].role == "historical"


def test_an_end_is_recorded_by_an_end_not_by_a_move(memory: nowline.Collection) -> None:
    """A correction with no new value: a memory stating the end is current, a move is stale."""
    memory.remember("payroll@ferroworks.org was switched off last night.", id="end")
    memory.remember("Mail payroll@ferroworks.org for payslips.", id="stale")
    memory.remember("payroll@ferroworks.org moved to the finance desk.", id="move")
    memory.correct(
        "payroll@ferroworks.org is switched off.", deprecates=["payroll@ferroworks.org"], id="off"
    )
    roles = {h.id: h.role for h in memory.hits(["end", "stale", "move"])}
    assert roles == {"end": "current", "stale": "historical", "move": "historical"}


def test_check_agrees_with_the_links(memory: nowline.Collection) -> None:
    """check() of a text that records the change trips nothing; a command naming it does."""
    memory.correct(SAID, deprecates=["#payments-updates"], id="fix")
    assert memory.check(SAID) == []
    assert [t.correction.id for t in memory.check("post to #payments-updates")] == ["fix"]


def test_records_change_reads_every_occurrence() -> None:
    """The rule itself: every occurrence old, and a new value named (or an end stated)."""
    assert records_change(SAID, "#payments-updates", ["#team-payments"])
    assert not records_change(SAID, "#payments-updates", ["#payments-news"])
    assert records_change("#a is archived.", "#a")
    assert not records_change("Post in #a.", "#a")
    assert not records_change("#a moved to #b.", "#a")  # a move, where the correction ends #a
    assert not records_change("deploy #a; #a is archived", "#a", ["#b"])
    assert not records_change("", "#a") and not records_change("#a is archived.", " ")


# An adversarial review's memories that are stale, or not plainly a record of the change:
# each stays linked (key: the memory; the correction is acme/app -> acme/web, or, with no new
# value, "#payments-updates is archived.").
ESCAPES_WITH_NEW = [
    "CI clones acme/app. Docs come from acme/web, not acme/app (now acme/web).",
    "We reverted the move from acme/app to acme/web; deploy as before.",
    "The switch from acme/app to acme/web was rolled back.",
    "The migration from acme/app to acme/web failed.",
    "We will move from acme/app to acme/web next quarter.",
    "acme/app was renamed to acme/web in staging only.",
    "acme/app (now acme/web) - kidding, that rename never shipped.",
    "acme/app moved to acme/web; a week later it moved back.",
    "The old acme/app is what we deploy; acme/web is the new marketing repo.",
]
ESCAPES_WITHOUT_NEW = [
    "#payments-updates goes read-only on Fridays at 6pm; post there the rest of the week.",
    "#payments-updates gets archived at the end of each quarter.",
    "#payments-updates is read-only during the freeze.",
    "#payments-updates was archived by accident last week; Slack support restored it.",
    "#payments-updates was archived last week and then unarchived.",
    "#payments-updates is no longer muted.",
    "#payments-updates no longer receives webhooks from Stripe; post manual updates there.",
    "#payments-updates is deprecated for alerts; keep using it for release notes.",
    "#payments-updates will be archived next year; keep using it.",
]


def test_memories_that_do_not_plainly_record_the_change_stay_linked() -> None:
    """Undone, failed, planned, partial, habitual or mixed statements are no record."""
    for memory in ESCAPES_WITH_NEW:
        assert not records_change(memory, "acme/app", ["acme/web"]), memory
    for memory in ESCAPES_WITHOUT_NEW:
        assert not records_change(memory, "#payments-updates"), memory
    assert not records_change("#alerts moved to #ops-alerts. Ask #oncall.", "#alerts", ["#oncall"])


def test_an_undone_change_in_a_memory_stays_stale_end_to_end(memory: nowline.Collection) -> None:
    """Through the store: the memory is historical, and check() trips on its text."""
    text = "We reverted the move from acme/app to acme/web; deploy as before."
    memory.remember(text, id="undone")
    memory.correct("acme/app moved to acme/web.", deprecates=["acme/app"], id="fix")
    assert memory.hits(["undone"])[0].role == "historical"
    assert [t.correction.id for t in memory.check(text)] == ["fix"]


@pytest.mark.parametrize(
    ("text", "phrase", "news"),
    [
        (
            "new payments channel is #team-payments; #payments-updates is archived",
            "#payments-updates",
            ("#team-payments",),
        ),
        ("git clone https://github.com/acme/app.git", "acme/app", ("acme/web",)),
        ("acme/cafe\u0301 moved to acme/web", "acme/cafe\u0301", ("acme/web",)),
        ("acme/app moved to acme/cafe\u0301", "acme/app", ("acme/caf\u00e9",)),
        ("acme/app moved to acme/caf\u00e9", "acme/app", ("acme/cafe\u0301",)),
        ("#a is archived", "#a", ()),
    ],
)
def test_the_linking_rules_fast_skip_answers_as_the_reader(
    text: str, phrase: str, news: tuple[str, ...]
) -> None:
    """The registry's skip (no new value named, no reader imported) never changes the answer."""
    from nowline._rules.registry import _records_change

    _records_change.cache_clear()
    assert _records_change(text, phrase, news) == records_change(text, phrase, news)


def test_a_long_text_is_read_for_the_change_around_each_occurrence(
    memory: nowline.Collection,
) -> None:
    """A statement of the change covers the old value beside it, not one pages away.

    The reader read the whole of a long text once it named the old value: a hook asked about
    a 1 MB CSV file that named it took seconds (7 µs a character; bench/hook.py has no such
    case, the time was measured by hand: 7.2 s before, 0.2 s after). Now it reads around the
    first occurrences; the verdicts here are those of the whole read: a statement of the
    change, alone or after a long text, does not trip, and a stale instruction far from it
    does.
    """
    memory.correct(SAID, deprecates=["#payments-updates"], id="fix")
    filler = " ".join(f"row{i}" for i in range(600))
    assert memory.check(SAID) == []
    far = f"{SAID}. {filler} Post the weekly summary to #payments-updates."
    assert [t.correction.id for t in memory.check(far)] == ["fix"]
    near = f"{filler} {SAID}."
    assert memory.check(near) == []
    rows = "#payments-updates\n" + "".join(f"{i},{i * 3},ok\n" for i in range(20_000))
    assert [t.correction.id for t in memory.check(rows)] == ["fix"]
