"""The new value sent alone, across shapes, on a real store (``nowline._rules.kin``).

"The acme/app import path is retired, use go.acme.dev/app" with
``deprecates=["go.acme.dev/app"]`` reaches nothing, and the store names ``acme/app``: refused
with the call to send. Right corrections whose text names another identifier of the kind are
stored, and texts that state no change propose nothing (a reading that proposed old values
from the store's counts was withdrawn: it proposed current values for status notes, logs and
lists).
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
    "Config lives at /etc/acme/config.yaml.",
    "Prod is app.acme.io behind Cloudflare.",
    "Smelt CI config is in acme/ci.",
)


@pytest.fixture
def store(memory: nowline.Collection) -> nowline.Collection:
    """The memories above, in a real store."""
    memory.add(ids=[f"m{i}" for i in range(len(MEMORIES))], documents=list(MEMORIES))
    return memory


# (the text, the new value sent alone, the old value the refusal proposes)
SWAPPED = [
    (
        "The acme/app import path is retired, use go.acme.dev/app in go.mod.",
        "go.acme.dev/app",
        "acme/app",
    ),
    ("#releases has been shut; post release stuff to #ship going forward.", "#ship", "#releases"),
]


@pytest.mark.parametrize(("text", "sent", "old"), SWAPPED)
def test_the_new_value_sent_alone_is_a_near_miss(
    store: nowline.Collection, text: str, sent: str, old: str
) -> None:
    """Refused as Unreached with the old value to send; nothing is stored."""
    before = snapshot(store)
    with pytest.raises(nowline.Unreached) as caught:
        store.correct(text, deprecates=[sent])
    assert caught.value.near_misses == [(old, 2 if old == "acme/app" else 1)]
    assert f"deprecates=[{old!r}]" in str(caught.value)
    assert snapshot(store) == before
    refused = run_tool(store, "correct", {"body": text, "deprecates": [sent]})
    assert refused.is_error and f'Send deprecates ["{old}"]' in refused.text


# right corrections a careful writer sends, whose text names another identifier of the kind
# that memories name (an adversarial review found each refused by the first version)
RIGHT = [
    (
        "Smelt's import path github.com/acme/smelt is retired; use go.acme.dev/smelt. CI config "
        "is unchanged in acme/ci.",
        ["github.com/acme/smelt"],
    ),
    (
        "Worker images moved from quay.io/acme/worker-img to ghcr.io/acme/worker-img; the code "
        "in acme/app is unchanged.",
        ["quay.io/acme/worker-img"],
    ),
    (
        "Logs moved from /var/log/acme to /srv/logs/acme; config is still /etc/acme/config.yaml.",
        ["/var/log/acme"],
    ),
    (
        "acme/web and its mirror gitlab.com/acme/web-mirror were archived; use acme-inc/web.",
        ["acme/web", "gitlab.com/acme/web-mirror"],
    ),
]


@pytest.mark.parametrize(("text", "deprecates"), RIGHT)
def test_a_right_correction_noted_early_is_stored(
    store: nowline.Collection, text: str, deprecates: list[str]
) -> None:
    """A change noted before any memory names its old value is stored, reaching nothing."""
    fixed = store.correct(text, deprecates=deprecates)
    assert fixed.reached == 0


# texts that state no change, each with a value memories name beside one of its kind that none
# names (the first version's store reading proposed the first for each)
NOT_STATED = [
    "Compare acme/app with acme/app2 now and tell me what differs.",
    "Fork acme/app into my-user/app now.",
    "Merged PR 42 in acme/app; CI stopped flaking after bumping acme/lib2.",
    "Closed the stale issues in acme/app and opened a tracking issue in acme/roadmap.",
    "Replaced the expired TLS cert on app.acme.io; the new one is from letsencrypt.org.",
    "Rotated credentials: the password of ops@acme.io was replaced; notified security@acme.io.",
    "Deploys to app.acme.io are frozen until Monday; hotfixes via hotfix.acme.io only.",
    "ERROR connection to app.acme.io dropped, retrying via edge.acme.io",
    "rsync -av /etc/acme/config.yaml /srv/backup/acme/ && echo moved",
    "Back up s3://acme-data to s3://acme-data-backup; old versions are dropped after 30 days.",
    "Mirror acme/app to acme-backup/app, which is read-only.",
    "Use the read-only replica db-ro.acme.io for analytics; writes go to app.acme.io.",
    "Grant bob read-only access to acme/app and acme/app-secrets.",
    "Repos: acme/app, acme/lib, acme/infra (archived).",
    "staging.acme.io was previously called stage.acme.io; both names resolve.",
    "did acme/app get moved to acme-inc/app",
    "acme/app was neither archived nor moved to acme-inc/app.",
]


@pytest.mark.parametrize("text", NOT_STATED)
def test_a_text_that_states_no_change_proposes_nothing(
    store: nowline.Collection, text: str
) -> None:
    """No proposal, and no change line in the recall tool's answer."""
    found = store.preview([], text=text)
    assert not found.deprecates or found.refusal is not None
    assert "This states a change" not in run_tool(store, "recall", {"query": text}).text


def test_a_hostile_text_is_read_in_linear_time(store: nowline.Collection) -> None:
    """Thousands of identifiers and change words: nothing proposed, no blow-up."""
    text = " ".join(f"#c{i} moved" for i in range(20_000))
    assert not store.preview([], text=text).deprecates
    assert store.correct(text, deprecates=["#c1"]).reached == 0  # no memory names it yet
