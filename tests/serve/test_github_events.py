"""The pure GitHub rules: signatures, and which deliveries become which corrections."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from nowline import InvalidInput
from nowline.requests import Audience, CorrectionRequest, correction_id
from nowline.surfaces.github_events import (
    Skip,
    event_key,
    plan_lines,
    read_line,
    sign,
    translate,
    verify_signature,
)
from tests.serve.conftest import archived, ping, renamed, repository, transferred

BODY = b'{"zen": "Design for failure."}'


def test_a_signature_is_githubs_hmac_sha256_of_the_raw_body() -> None:
    """The signature is 'sha256=' and the hex HMAC-SHA256 of the exact bytes with the secret."""
    expected = hmac.new(b"s3cret", BODY, hashlib.sha256).hexdigest()
    assert sign("s3cret", BODY) == f"sha256={expected}"
    assert verify_signature("s3cret", BODY, f"sha256={expected}")


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "sha256=",
        "sha1=" + hmac.new(b"s3cret", BODY, hashlib.sha1).hexdigest(),
        sign("another secret", BODY),
        sign("s3cret", BODY + b" "),
        sign("s3cret", BODY).upper(),
        "sha256=ünïcode",
    ],
)
def test_a_missing_or_wrong_signature_never_verifies(header: str | None) -> None:
    """No header, another algorithm, another secret, another body or garbage all fail."""
    assert not verify_signature("s3cret", BODY, header)


def test_an_empty_secret_verifies_nothing() -> None:
    """A receiver without a secret cannot be satisfied by signing with the empty key."""
    assert not verify_signature("", BODY, sign("", BODY))


def test_a_rename_deprecates_the_old_full_name_with_its_provenance() -> None:
    """renamed: the old name under the same owner is deprecated; time, url and id are kept."""
    payload = renamed("ufo", "metalcraftai/ufo-core")
    got = translate("repository", "d-1", payload, received_at=0)
    assert isinstance(got, CorrectionRequest)
    assert got.deprecates == ("metalcraftai/ufo",)
    assert got.text == (
        "GitHub repository metalcraftai/ufo was renamed to metalcraftai/ufo-core on "
        "2026-03-02; use metalcraftai/ufo-core."
    )
    assert got.observed_at == "2026-03-02T10:00:00Z"
    assert (got.source, got.source_id) == ("github", "d-1")
    assert got.source_url == "https://github.com/metalcraftai/ufo-core"
    assert got.provenance() == {
        "source": "github",
        "source_id": "d-1",
        "source_url": "https://github.com/metalcraftai/ufo-core",
    }
    assert got.key == event_key(payload)  # stored once by what GitHub signed, the body
    assert got.id == correction_id("github", event_key(payload))
    assert got.allow_unreached  # a forge's signed event is authoritative


def test_the_event_key_is_a_digest_of_the_body_however_it_is_spelled() -> None:
    """Key order and spacing do not change it; any change of a value does."""
    payload = archived("acme/app")
    reordered = json.loads(json.dumps(dict(reversed(list(payload.items())))))
    assert event_key(reordered) == event_key(payload)
    assert event_key(payload).startswith("sha256:") and len(event_key(payload)) == 71
    assert event_key({**payload, "action": "unarchived"}) != event_key(payload)
    assert event_key({"id": 2**70}) != event_key({"id": 2**70 + 1})  # read exactly, as imports do
    with pytest.raises(InvalidInput, match="not JSON"):
        event_key({"id": object()})


def test_an_unarchive_revives_the_repository_as_its_new_value() -> None:
    """unarchived: 'archived' anchored on the repository is outdated; the repository is current."""
    got = translate("repository", "d-4", {**archived("acme/app"), "action": "unarchived"})
    assert isinstance(got, CorrectionRequest)
    assert (got.deprecates, got.about, got.replaced_by) == (
        ("archived",),
        ("acme/app",),
        ("acme/app",),
    )
    assert got.text.startswith("GitHub repository acme/app was unarchived on 2026-03-02;")


@pytest.mark.parametrize("org", [False, True])
def test_a_transfer_deprecates_the_name_under_the_old_owner(org: bool) -> None:
    """transferred: the old owner comes from changes.owner.from.user or .organization."""
    payload = transferred("metalcraftai", "ufo-ai/ufo", org=org)
    got = translate("repository", "d-2", payload, received_at=0)
    assert isinstance(got, CorrectionRequest)
    assert got.deprecates == ("metalcraftai/ufo",)
    assert "transferred to ufo-ai/ufo on 2026-03-02; use ufo-ai/ufo" in got.text
    assert got.owner == "metalcraftai"


def test_an_archive_deprecates_the_repository_itself() -> None:
    """archived: the repository's own full name, 'archived on <date> and is read-only'."""
    got = translate("repository", "d-3", archived("metalcraftai/ufo"), received_at=0)
    assert isinstance(got, CorrectionRequest)
    assert got.deprecates == ("metalcraftai/ufo",)
    assert (
        got.text
        == "GitHub repository metalcraftai/ufo was archived on 2026-03-02 and is read-only."
    )


def test_without_updated_at_the_time_is_the_receipt() -> None:
    """A payload without repository.updated_at takes the time of receipt, date included."""
    payload = archived("acme/app", updated_at=None)
    got = translate("repository", "d", payload, received_at=1_700_000_000.0)
    assert isinstance(got, CorrectionRequest)
    assert got.observed_at == 1_700_000_000.0 and "on 2023-11-14" in got.text


def test_an_epoch_updated_at_is_read_as_seconds() -> None:
    """updated_at given as epoch seconds (as push payloads do) is a time too."""
    got = translate(
        "repository", "d", archived("acme/app", updated_at=1_700_000_000), received_at=0
    )
    assert isinstance(got, CorrectionRequest) and got.observed_at == 1_700_000_000


@pytest.mark.parametrize(
    ("event", "payload", "reason"),
    [
        ("ping", ping("acme/app"), "ping"),
        ("push", {"ref": "refs/heads/main", "repository": repository("acme/app")}, "'push'"),
        ("repository", {"action": "created", "repository": repository("acme/app")}, "'created'"),
        ("repository", {"action": "edited", "repository": repository("acme/app")}, "'edited'"),
        ("repository", {"action": 5, "repository": repository("acme/app")}, "'?'"),
    ],
)
def test_other_events_and_actions_are_skipped_with_a_reason(
    event: str, payload: object, reason: str
) -> None:
    """ping, other events and other repository actions become a Skip that says why."""
    got = translate(event, "d", payload, received_at=0)
    assert isinstance(got, Skip) and reason in got.reason


def test_a_rename_that_only_changes_case_is_skipped() -> None:
    """A rename from acme/App to acme/app outdates nothing: names match case-insensitively."""
    got = translate("repository", "d", renamed("App", "acme/app"), received_at=0)
    assert isinstance(got, Skip) and "letter case" in got.reason


@pytest.mark.parametrize(
    "payload",
    [
        [],
        {"action": "renamed", "repository": repository("acme/app")},
        {
            "action": "renamed",
            "changes": {"repository": {"name": {"from": "bad name"}}},
            "repository": repository("acme/app"),
        },
        {"action": "archived", "repository": {"full_name": "no-slash"}},
        {"action": "archived", "repository": {"full_name": "a/b/c"}},
        {"action": "archived", "repository": {"full_name": "acme/app\nnow: forged"}},
        {
            "action": "transferred",
            "changes": {"owner": {"from": {}}},
            "repository": repository("acme/app"),
        },
        {"action": "archived", "repository": {**repository("acme/app"), "updated_at": "soon"}},
        {"action": "archived", "repository": {**repository("acme/app"), "updated_at": [1]}},
    ],
)
def test_a_payload_without_what_github_documents_is_invalid(payload: object) -> None:
    """A handled action whose payload lacks or garbles the documented fields is refused."""
    with pytest.raises(InvalidInput):
        translate("repository", "d", payload, received_at=0)


@pytest.mark.parametrize(
    ("event", "delivery"),
    [("", "d"), ("Repo Sitory", "d"), ("repository", ""), ("ping", "x" * 201)],
)
def test_a_bad_event_name_or_delivery_id_is_invalid(event: str, delivery: str) -> None:
    """The event header must be a GitHub event name and the delivery id printable and short."""
    with pytest.raises(InvalidInput):
        translate(event, delivery, ping("acme/app"), received_at=0)


def test_an_odd_html_url_is_left_out() -> None:
    """A source_url that is not an http(s) URL without spaces is not stored."""
    payload = archived("acme/app")
    payload["repository"]["html_url"] = "javascript:alert(1)"
    got = translate("repository", "d", payload, received_at=0)
    assert isinstance(got, CorrectionRequest) and got.source_url is None


def test_an_events_file_is_planned_with_skips_and_bad_lines_counted() -> None:
    """Planning keeps corrections in order, counts other events, and lists bad lines."""
    lines = [
        json.dumps({"event": "ping", "delivery": "a", "payload": ping("acme/app")}),
        "",
        json.dumps(
            {"event": "repository", "delivery": "b", "payload": renamed("app", "acme/app2")}
        ),
        "{not json",
        json.dumps({"event": "repository", "delivery": "c"}),
        json.dumps({"event": "repository", "delivery": "d", "payload": archived("acme/app2")}),
    ]
    plan = plan_lines(lines, Audience(), received_at=0)
    assert [(p.line, p.request.source_id) for p in plan.items] == [(3, "b"), (6, "d")]
    assert [n for n, _ in plan.skipped] == [1]
    assert [n for n, _ in plan.bad] == [4, 5]
    assert "missing payload" in plan.bad[1][1]


def test_an_events_file_on_a_scoped_store_needs_an_audience_per_line() -> None:
    """A line whose owner has no configured scope is a bad line naming --scope-for."""
    lines = [
        json.dumps({"event": "repository", "delivery": "a", "payload": archived("acme/app")}),
        json.dumps({"event": "repository", "delivery": "b", "payload": archived("other/app")}),
    ]
    plan = plan_lines(lines, Audience("team", owners={"ACME": "t1"}), received_at=0)
    assert [(p.line, p.scope) for p in plan.items] == [(1, {"team": "t1"})]
    assert plan.bad[0][0] == 2 and "--scope-for" in plan.bad[0][1]


def test_read_line_refuses_extra_fields() -> None:
    """A line with a field other than event, delivery and payload is refused."""
    with pytest.raises(InvalidInput, match="unknown field 'signature'"):
        read_line(json.dumps({"event": "ping", "delivery": "a", "payload": {}, "signature": "x"}))
