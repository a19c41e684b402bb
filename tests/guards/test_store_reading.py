"""Old values read with the store's help, where the wording has no pattern for the change.

A text that states a change plainly, in words the wording reader has no pattern for, names an
identifier the memories name beside one of its kind that nothing names: the first is proposed
(``preview(text=...)``, refusals' suggestions, the tools' change line). A text that only names
two such values (a plan, a question, a comparison, a fork) proposes nothing.
"""

from __future__ import annotations

import pytest

import nowline
from nowline.surfaces.tools import run_tool
from tests.conftest import snapshot

MEMORIES = (
    "acme/app holds the web app.",
    "Deploy acme/app with make deploy.",
    "Release notes go to #releases.",
    "Ops mail goes to ops@acme.io.",
    "API docs are at https://docs.acme.io/v1.",
    "Staging is staging.acme.io.",
    "The data team's bucket is s3://acme-data.",
    "acme/lib is the shared library.",
)


@pytest.fixture
def store(memory: nowline.Collection) -> nowline.Collection:
    """The memories above, in a real store."""
    memory.add(ids=[f"m{i}" for i in range(len(MEMORIES))], documents=list(MEMORIES))
    return memory


# each states a change in words the wording reader has no pattern for (phrasings of held-out
# writer sets); the old value is the one the memories name
STATED = [
    ("The acme/app import path is retired, use go.acme.dev/app in go.mod.", ["acme/app"]),
    ("app code isn't in acme/app anymore. Clone acme-inc/app instead.", ["acme/app"]),
    ("pls use #rel-notes for release stuff not #releases anymore thx", ["#releases"]),
    ("#releases has been shut; post release stuff to #ship going forward.", ["#releases"]),
    ("ops-team@acme.io is the ops address now; we stopped checking ops@acme.io.", ["ops@acme.io"]),
    (
        "The API docs moved to our own site: they're at https://api.acme.dev/docs now, and "
        "https://docs.acme.io/v1 only redirects until June.",
        ["https://docs.acme.io/v1"],
    ),
    ("We stopped pushing the app to acme/app this week and use acme-inc/app.", ["acme/app"]),
]

# each names a value the memories name beside one nothing names, and states no change
NOT_STATED = [
    "Compare acme/app with acme/app2 now and tell me what differs.",
    "Fork acme/app into my-user/app now.",
    "Copy the new config from acme/app to acme/app-infra.",
    "Can you check whether acme/app moved to acme-org/app?",
    "Did ops@acme.io get replaced by ops-team@acme.io?",
    "I think acme/app might have moved to acme-org/app, can you check",
    "Please don't move acme/app to acme-org/app yet.",
    "We're planning to move acme/app to acme-org/app next quarter.",
    "The new service acme/billing depends on acme/app.",
    "acme/app now imports acme/lib2 instead of vendoring it.",
    "Now clone acme/app and run the tests, then push to my-fork/app.",
    "The new staging box is staging-2.acme.io, staging.acme.io stays for QA.",
    "Post in #releases and #releases-eu now.",
    "Mail ops@acme.io and cc sre@acme.io about the old certs.",
    "Archive the old issues in acme/app and move them to acme/app-archive.",
    "Stop using the old token in acme/app; rotate it in vault.acme.io/secret/app.",
    "Migrate the tests in acme/app to pytest; examples are in acme/pytest-examples.",
    "The bucket s3://acme-data is not replaced; s3://acme-data-eu is a new extra copy.",
    "acme/app wasn't moved to acme-org/app after all.",
    "We moved acme/app's CI config into acme/app/.github/workflows.",
    "acme/app was never transferred to acme-org/app.",
    "Post in #releases again and cc #releases-eu.",
    "Deploy acme/app again, then push to my-fork/app.",
    "Send the report back to ops@acme.io and cc sre@acme.io.",
]


@pytest.mark.parametrize(("text", "olds"), STATED)
def test_a_plain_change_proposes_the_value_the_memories_name(
    store: nowline.Collection, text: str, olds: list[str]
) -> None:
    """preview(text=...) proposes the old value, counted; nothing is written."""
    before = snapshot(store)
    found = store.preview([], text=text)
    assert list(found.deprecates) == olds
    assert len(found) >= 1 and found.refusal is None
    assert snapshot(store) == before
    answer = run_tool(store, "recall", {"query": text}).text
    assert f"deprecates {olds!r}" in answer.split("This states a change:", 1)[1]


@pytest.mark.parametrize("text", NOT_STATED)
def test_a_text_that_states_no_change_proposes_nothing(
    store: nowline.Collection, text: str
) -> None:
    """No proposal, and no change line in the recall tool's answer."""
    found = store.preview([], text=text)
    assert not found.deprecates or found.refusal is not None
    assert "This states a change" not in run_tool(store, "recall", {"query": text}).text


def test_the_proposal_stores_a_right_correction(store: nowline.Collection) -> None:
    """Sent as proposed, the correction marks the memories of the old value, and no other."""
    text = STATED[0][0]
    found = store.preview([], text=text)
    fixed = store.correct(text, deprecates=list(found.deprecates))
    marked = {h.id for h in store.hits([f"m{i}" for i in range(len(MEMORIES))]) if h.direct}
    assert marked == {"m0", "m1"} and fixed.reached == 2


def test_a_change_back_proposes_the_value_current_memories_name(
    memory: nowline.Collection,
) -> None:
    """The revived value is named only by superseded memories: it counts as unnamed."""
    memory.add(ids=["old"], documents=["The build cache is cache.acme.internal."])
    memory.correct(
        "The build cache moved from cache.acme.internal to acme-cache.fly.dev.",
        deprecates=["cache.acme.internal"],
    )
    memory.add(
        ids=["a", "b"], documents=["Cache: acme-cache.fly.dev.", "acme-cache.fly.dev is up."]
    )
    told = "ugh, fly was flaky. build cache is cache.acme.internal again, drop acme-cache.fly.dev"
    assert list(memory.preview([], text=told).deprecates) == ["acme-cache.fly.dev"]
    told = "The cache acme-cache.fly.dev was swapped back for cache.acme.internal."
    assert list(memory.preview([], text=told).deprecates) == ["acme-cache.fly.dev"]


def test_a_new_value_the_store_names_already_is_left_to_the_wording(
    store: nowline.Collection,
) -> None:
    """Both values named: which is old is not the store's to say."""
    store.add(ids=["n"], documents=["acme-inc/app already mirrors the web app."])
    text = "app code isn't in acme/app anymore. Clone acme-inc/app instead."
    assert not store.preview([], text=text).deprecates


def test_the_new_value_sent_as_old_is_a_near_miss(store: nowline.Collection) -> None:
    """Sent alone, the new value reaches nothing: refused, with the old value to send."""
    text = "The acme/app import path is retired, use go.acme.dev/app in go.mod."
    before = snapshot(store)
    with pytest.raises(nowline.Unreached) as caught:
        store.correct(text, deprecates=["go.acme.dev/app"])
    assert caught.value.near_misses == [("acme/app", 2)]
    assert "deprecates=['acme/app']" in str(caught.value)
    assert snapshot(store) == before
    refused = run_tool(store, "correct", {"body": text, "deprecates": ["go.acme.dev/app"]})
    assert refused.is_error and 'Send deprecates ["acme/app"]' in refused.text


def test_a_hostile_text_is_read_in_linear_time(store: nowline.Collection) -> None:
    """Thousands of identifiers and change words: read once, nothing proposed, no blow-up."""
    text = " ".join(f"#c{i} moved" for i in range(20_000))
    assert not store.preview([], text=text).deprecates
