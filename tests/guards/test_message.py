"""A correction checked against the user's message it records (``correct(..., message=...)``).

An agent loop (or a hook) that has the user's message passes it; a correction whose deprecated
strings the message never names, or names only in a question, a plan or a denial, is refused
and nothing is written. Run on local stores, and with ``--backend=http`` on a Chroma server
through the sync and the async collection. The wording rule itself
(:func:`nowline._rules.wording.unstated`) is tested on sentences here too, and on every gold
call of the writer benchmark in ``tests/project/test_bench_reader.py``.
"""

from __future__ import annotations

import pytest

import nowline
from nowline._rules.wording import unstated
from nowline.surfaces.tools import run_tool
from tests.conftest import snapshot
from tests.guards.message_cases import STATES_CHANGE, STATES_NONE

BODY = "acme/web moved to acme-inc/web."


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("did acme/web get moved to acme-inc/web", "asks"),
        ("Has acme/web been moved to acme-inc/web?", "asks"),
        ("should we move acme/web to acme-inc/web", "asks"),
        ("Hi! Did acme/web get renamed?", "asks"),  # a greeting says nothing either way
        ("Let's move acme/web to acme-inc/web next week.", "plans"),
        ("TODO: rename acme/web to acme-inc/web", "plans"),
        ("acme/web was not, in the end, moved to acme-inc/web.", "denies"),
        ("acme/web hasn't really ever been moved to acme-inc/web.", "denies"),
        ("Renamed the default branch of acme/tools to main.", "absent"),
        ("", "absent"),
    ],
)
def test_a_message_that_states_no_change_of_the_value_has_a_reason(
    message: str, reason: str
) -> None:
    """Asked, planned, denied or never named: the message records no change of acme/web."""
    assert unstated(message, "acme/web") == reason


@pytest.mark.parametrize(
    "message",
    [
        "acme/web moved to acme-inc/web.",
        "FYI ACME/WEB is now acme-inc/web",  # the matching rules: case-insensitive
        "Is acme/web still the repo? Nope, it's acme-inc/web now.",  # a question answered
        "Is acme/web still the repo? Nope.",
        "acme/web was not moved to acme-inc/web after all; it went to acme-labs/web.",
        "We stopped using acme/web. Deploy from acme-inc/web.",
        "Please update your bookmarks: acme/web moved to acme-inc/web.",
        "Please move acme/web to acme-inc/web.",  # a request: left to the writer
        "if acme/web moves, update the CI",  # a condition: left to the writer too
    ],
)
def test_a_message_that_names_the_value_plainly_has_none(message: str) -> None:
    """A sentence that is not plainly a question, plan or denial is left to the writer."""
    assert unstated(message, "acme/web") is None


def test_a_thing_inside_the_value_names_it() -> None:
    """The user's short form names the memory's long one: the URL of acme/web is named."""
    assert unstated("acme/web moved to acme-inc/web.", "https://github.com/acme/web.git") is None


@pytest.mark.parametrize(("message", "value"), STATES_CHANGE)
def test_no_message_that_states_a_change_is_refused(message: str, value: str) -> None:
    """The review's hard messages that state a change (the first version refused all 76)."""
    assert unstated(message, value) is None


@pytest.mark.parametrize(("message", "value", "reason"), STATES_NONE)
def test_plain_questions_plans_and_denials_are_refused(
    message: str, value: str, reason: str
) -> None:
    """The review's messages that plainly state no change of the value."""
    assert unstated(message, value) == reason


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("did acme/web move? " * 20_000, "asks"),  # 20,000 sentences that name it
        (" " * 100_000 + "acme/web was not moved", "denies"),  # a long run of spaces
        ("acme/web was not" + ", a," * 30_000 + " moved", None),
    ],
)
def test_hostile_messages_are_judged_in_one_pass(message: str, reason: str | None) -> None:
    """Each sentence is judged once and each pattern runs once over a run of spaces."""
    assert unstated(message, "acme/web") == reason


@pytest.fixture
def web(memory: nowline.Collection) -> nowline.Collection:
    """Return a store with a memory of acme/web."""
    memory.remember("The web app lives in acme/web; deploy it with make deploy.", id="m1")
    return memory


def test_correct_refuses_a_question_and_writes_nothing(web: nowline.Collection) -> None:
    """The library raises UnstatedChange (an InvalidCorrection, a ValueError): nothing written."""
    before = snapshot(web)
    with pytest.raises(nowline.UnstatedChange) as caught:
        web.correct(BODY, deprecates=["acme/web"], message="did acme/web get moved?")
    error = caught.value
    assert isinstance(error, nowline.InvalidCorrection) and isinstance(error, ValueError)
    assert (error.phrase, error.reason) == ("acme/web", "asks")
    assert "only asks about 'acme/web'" in str(error)
    assert "correct() without message= leaves this check out" in str(error)
    assert snapshot(web) == before


def test_correct_stores_a_change_the_message_states(web: nowline.Collection) -> None:
    """The same call with a message that states the change is stored and reaches the memory."""
    report = web.correct(
        BODY, deprecates=["acme/web"], message="Heads up: acme/web moved to acme-inc/web."
    )
    assert report.reached == 1
    assert [h.role for h in web.hits(["m1"])] == ["historical"]


def test_without_a_message_the_check_is_left_out(web: nowline.Collection) -> None:
    """message=None (the default) is the library as before: the body alone is checked."""
    assert web.correct(BODY, deprecates=["acme/web"]).reached == 1


def test_a_message_that_is_no_str_is_refused(web: nowline.Collection) -> None:
    """A program's mistake: an InvalidInput naming the argument, nothing written."""
    before = snapshot(web)
    with pytest.raises(nowline.InvalidInput, match="message"):
        web.correct(BODY, deprecates=["acme/web"], message=42)  # type: ignore[arg-type]
    assert snapshot(web) == before


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("acme/web was not, in the end, moved to acme-inc/web.", "says 'acme/web' did not change"),
        ("Let's move acme/web to acme-inc/web.", "store a correction once the change is made"),
        ("Renamed the default branch to main.", "does not name 'acme/web'"),
    ],
)
def test_the_tools_refuse_in_the_tools_words(
    web: nowline.Collection, message: str, words: str
) -> None:
    """The loop passes the user's message to run_tool; the model reads why, in plain words."""
    before = snapshot(web)
    args = {"body": BODY, "deprecates": ["acme/web"], "replaced_by": ["acme-inc/web"]}
    result = run_tool(web, "correct", args, message=message)
    assert result.is_error and words in result.text
    assert "message=" not in result.text  # no Python keyword for a model
    assert snapshot(web) == before
    stored = run_tool(web, "correct", args, message="acme/web moved to acme-inc/web today.")
    assert not stored.is_error and "Stored correction" in stored.text


def test_the_tools_take_the_message_only_from_the_loop(web: nowline.Collection) -> None:
    """A model that sends a message field gets the tool's own error: it is no field of it."""
    args = {"body": BODY, "deprecates": ["acme/web"], "message": "acme/web moved"}
    result = run_tool(web, "correct", args)
    assert result.is_error and "message" in result.text
    with pytest.raises(nowline.InvalidInput, match="message"):
        run_tool(web, "correct", {"body": BODY, "deprecates": ["acme/web"]}, message=["x"])  # type: ignore[arg-type]
