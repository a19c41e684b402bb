"""The receiver over real HTTP: what it stores, what it refuses, and that it stores once."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import nowline
from nowline.requests import Audience, correction_id
from nowline.surfaces.github_events import Skip, event_key, translate
from nowline.surfaces.serve import Limits, Token, create_app
from tests.serve.conftest import (
    SECRET,
    TOKEN,
    archived,
    delivery_id,
    ping,
    post_correction,
    post_github,
    renamed,
    running,
    serve,
)

MEMORY = "metalcraftai/ufo — PR #1705 passed review."


def corrections_of(col: nowline.Collection) -> list[str]:
    """Return the ids of the collection's corrections."""
    return [c.id for c in col.corrections()]


def test_health_answers_while_it_runs(receiver: httpx.Client) -> None:
    """GET /health answers 200 with status ok."""
    got = receiver.get("/health")
    assert got.status_code == 200 and got.json() == {"status": "ok"}


def test_a_signed_rename_is_stored_with_provenance_and_shows_under_the_memory(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """A signed rename answers 201 {id, reached}; the packet carries source and source_url."""
    memory.remember(MEMORY, id="pr")
    delivery = delivery_id()
    payload = renamed("ufo", "metalcraftai/ufo-core")
    got = post_github(receiver, "repository", payload, delivery=delivery)
    assert got.status_code == 201, got.text
    assert got.json() == {"id": correction_id("github", event_key(payload)), "reached": 1}
    hit = memory.hits(["pr"])[0]
    assert hit.role == "historical"
    (now,) = hit.now
    assert now.source == "github"
    assert now.source_url == "https://github.com/metalcraftai/ufo-core"
    assert now.time == nowline.to_epoch("2026-03-02T10:00:00Z")
    meta = memory.get(ids=[now.id])["metadatas"][0]  # type: ignore[index]
    assert meta["source_id"] == delivery and meta["observed_at"] == "2026-03-02T10:00:00Z"
    summary = memory.corrections()[0]
    assert (summary.source, summary.source_url) == ("github", now.source_url)


@pytest.mark.parametrize("signature", ["none", "wrong secret", "other body"])
def test_an_unsigned_or_badly_signed_delivery_is_401_and_stores_nothing(
    memory: nowline.Collection, receiver: httpx.Client, signature: str
) -> None:
    """No signature, a signature with another secret, or of another body: 401, nothing stored."""
    payload = archived("metalcraftai/ufo")
    if signature == "none":
        got = post_github(receiver, "repository", payload, secret=None)
    elif signature == "wrong secret":
        got = post_github(receiver, "repository", payload, secret="guess")
    else:
        raw = json.dumps(payload).encode()
        headers = {
            "Content-Type": "application/json",
            "X-GitHub-Event": "repository",
            "X-GitHub-Delivery": delivery_id(),
            "X-Hub-Signature-256": nowline.surfaces.github_events.sign(SECRET, raw),
        }
        got = receiver.post("/github", content=raw.replace(b"ufo", b"ufa"), headers=headers)
    assert got.status_code == 401 and "X-Hub-Signature-256" in got.json()["error"]
    assert memory.count() == 0


def test_a_redelivery_stores_nothing_new_and_answers_200_with_the_same_id(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """The same X-GitHub-Delivery again answers 200 with the first id; one correction stays."""
    memory.remember(MEMORY, id="pr")
    delivery = delivery_id()
    payload = archived("metalcraftai/ufo")
    first = post_github(receiver, "repository", payload, delivery=delivery)
    again = post_github(receiver, "repository", payload, delivery=delivery)
    assert (first.status_code, again.status_code) == (201, 200)
    expected = {"id": correction_id("github", event_key(payload)), "reached": 1}
    assert again.json() == first.json() == expected
    assert memory.count() == 2


def test_ping_and_other_events_answer_202_and_store_nothing(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """ping, push and other repository actions are accepted with a reason and store nothing."""
    for event, payload in [
        ("ping", ping("metalcraftai/ufo")),
        ("push", {"ref": "refs/heads/main", "repository": {"full_name": "metalcraftai/ufo"}}),
        ("repository", {**archived("metalcraftai/ufo"), "action": "publicized"}),
    ]:
        got = post_github(receiver, event, payload)
        assert got.status_code == 202 and got.json()["stored"] is False, got.text
    assert memory.count() == 0


def test_a_form_encoded_delivery_is_415_with_the_setting_to_change(receiver: httpx.Client) -> None:
    """A webhook set to x-www-form-urlencoded is told to use application/json."""
    raw = b"payload=%7B%7D"
    got = post_github(
        receiver, "ping", None, body=raw, content_type="application/x-www-form-urlencoded"
    )
    assert got.status_code == 415 and "application/json" in got.json()["error"]


@pytest.mark.parametrize(
    "body", [b"{not json", b"", b"\xff\xfe{}", b"[" * 5000 + b"]" * 5000, b'{"a": NaN}']
)
def test_a_signed_body_that_is_not_json_is_400(
    memory: nowline.Collection, receiver: httpx.Client, body: bytes
) -> None:
    """Malformed, empty, non-UTF-8, too deeply nested or NaN JSON answers 400."""
    got = post_github(receiver, "repository", None, body=body)
    assert got.status_code == 400 and "not valid JSON" in got.json()["error"]
    assert memory.count() == 0


def test_a_signed_payload_missing_documented_fields_is_422(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """A rename without changes.repository.name.from answers 422 with the reason."""
    payload = renamed("ufo", "metalcraftai/ufo-core")
    del payload["changes"]
    got = post_github(receiver, "repository", payload)
    assert got.status_code == 422 and "changes.repository.name.from" in got.json()["error"]
    assert memory.count() == 0


def test_missing_event_or_delivery_headers_are_422(receiver: httpx.Client) -> None:
    """A signed body without X-GitHub-Event or X-GitHub-Delivery is refused with the header."""
    raw = json.dumps(archived("acme/app")).encode()
    headers = {
        "Content-Type": "application/json",
        "X-Hub-Signature-256": nowline.surfaces.github_events.sign(SECRET, raw),
    }
    got = receiver.post("/github", content=raw, headers=headers)
    assert got.status_code == 422 and "X-GitHub-Event" in got.json()["error"]
    got = receiver.post("/github", content=raw, headers={**headers, "X-GitHub-Event": "repository"})
    assert got.status_code == 422 and "X-GitHub-Delivery" in got.json()["error"]


# ------------------------------------------------------------------ /corrections

CORRECTION = {
    "body": "The billing API moved from api.oldco.example to api.newco.example.",
    "deprecates": ["api.oldco.example"],
}


def test_a_json_correction_with_the_token_is_stored(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """POST /corrections with a token for statuspage: 201, stored with the token's source."""
    memory.remember("Call api.oldco.example for invoices.", id="m")
    obj = {
        **CORRECTION,
        "source_id": "inc-7",
        "source_url": "https://status.newco.example/7",
        "observed_at": "2026-02-01",
    }
    secret = "statuspage-token-0123456789"
    with running(create_app(memory, tokens=[Token(secret, "statuspage")])) as http:
        got = post_correction(http, obj, token=secret)
        assert got.status_code == 201 and got.json() == {
            "id": correction_id("statuspage", "inc-7"),
            "reached": 1,
        }
        (now,) = memory.hits(["m"])[0].now
        assert (now.source, now.source_url) == ("statuspage", "https://status.newco.example/7")
        again = post_correction(http, {**obj, "source": "statuspage"}, token=secret)
        assert again.status_code == 200 and again.json() == got.json()
    assert len(corrections_of(memory)) == 1


def test_a_json_correction_without_a_source_id_is_stored_once_per_change(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """Without source_id, the same change again answers 200 with the standing id; another is 201."""
    first = post_correction(receiver, CORRECTION)
    again = post_correction(receiver, CORRECTION)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    other = {**CORRECTION, "body": "The billing API moved from api.oldco.example to api.co.test."}
    assert post_correction(receiver, other).status_code == 201
    assert [c.source for c in memory.corrections()] == ["api", "api"]


def test_a_webhook_for_a_change_a_person_stored_keeps_githubs_evidence(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """A person told the rename first, in GitHub's very words: the signed event is stored too."""
    memory.remember(MEMORY, id="pr")
    payload = renamed("ufo", "metalcraftai/ufo-core")
    text = translate("repository", delivery_id(), payload)
    assert not isinstance(text, Skip)
    memory.correct(text.text, deprecates=["metalcraftai/ufo"], id="mine")
    got = post_github(receiver, "repository", payload)
    assert got.status_code == 201, got.text
    assert sorted(str(c.source) for c in memory.corrections()) == ["None", "github"]
    again = post_github(receiver, "repository", payload)  # GitHub's again: its own repeat
    assert (again.status_code, again.json()["id"]) == (200, got.json()["id"])


@pytest.mark.parametrize("token", [None, "wrong", f"{TOKEN} ", "Basic " + TOKEN])
def test_corrections_without_the_token_are_401(
    memory: nowline.Collection, receiver: httpx.Client, token: str | None
) -> None:
    """No Authorization header, a wrong token, or another scheme answers 401."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = token if token.startswith("Basic") else f"Bearer {token}x"
    got = receiver.post("/corrections", content=json.dumps(CORRECTION), headers=headers)
    assert got.status_code == 401 and got.headers["www-authenticate"] == "Bearer"
    assert memory.count() == 0


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"body": "Moved from acme/app to acme/app2."}, "deprecates is missing"),
        ({**CORRECTION, "deprecates": ["api.typo.example"]}, "api.typo.example"),
        ({**CORRECTION, "deprecates": ["billing"]}, "billing"),
        ({**CORRECTION, "deprecates": 5}, "deprecates must be"),
        ({**CORRECTION, "body": ""}, "body is empty"),
        ({**CORRECTION, "observed_at": "yesterday-ish"}, "observed_at"),
        ({**CORRECTION, "nowline_role": "transition"}, "Unknown field 'nowline_role'"),
        ({**CORRECTION, "user_id": "u1"}, "Unknown field 'user_id'"),
        ({**CORRECTION, "source_url": "javascript:alert(1)"}, "source_url must be an http"),
        ({**CORRECTION, "source_url": "https://a.example/x y"}, "source_url must be an http"),
        ([CORRECTION], "JSON object"),
    ],
)
def test_bad_corrections_are_422_with_nowlines_message(
    memory: nowline.Collection, receiver: httpx.Client, obj: Any, message: str
) -> None:
    """Missing, absent, generic, mistimed or unknown fields answer 422 and store nothing."""
    got = post_correction(receiver, obj)
    assert got.status_code == 422, got.text
    assert message in got.json()["error"]
    assert memory.count() == 0


def test_corrections_must_be_json(receiver: httpx.Client) -> None:
    """A text/plain body or JSON in another charset answers 415."""
    for content_type in ("text/plain", "application/json; charset=latin-1"):
        got = receiver.post(
            "/corrections",
            content=json.dumps(CORRECTION),
            headers={"Content-Type": content_type, "Authorization": f"Bearer {TOKEN}"},
        )
        assert got.status_code == 415


def test_an_endpoint_without_its_secret_is_404(memory: nowline.Collection) -> None:
    """A receiver with only a token has no /github, and one with only a secret no /corrections."""
    with running(create_app(memory, api_token=TOKEN)) as http:
        assert post_github(http, "ping", ping("acme/app")).status_code == 404
    with running(create_app(memory, github_secret=SECRET)) as http:
        assert post_correction(http, CORRECTION).status_code == 404


def test_a_receiver_needs_a_secret_or_a_token(memory: nowline.Collection) -> None:
    """create_app refuses to build a receiver that nobody could use."""
    with pytest.raises(nowline.InvalidInput, match="--github-secret"):
        create_app(memory)


# ------------------------------------------------------------------ limits


@pytest.fixture
def small(memory: nowline.Collection) -> Iterator[httpx.Client]:
    """Return a receiver that takes bodies of at most 4 KiB."""
    with serve(memory, limits=Limits(max_body=4096)) as http:
        yield http


def test_a_body_over_the_limit_is_413_and_stores_nothing(
    memory: nowline.Collection, small: httpx.Client
) -> None:
    """A signed delivery of limit+1 bytes answers 413, by Content-Length or when streamed."""
    payload = archived("metalcraftai/ufo")
    payload["padding"] = "x" * 5000
    assert post_github(small, "repository", payload).status_code == 413
    raw = json.dumps(payload).encode()

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(raw), 1000):
            yield raw[i : i + 1000]

    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": "repository",
        "X-GitHub-Delivery": delivery_id(),
        "X-Hub-Signature-256": nowline.surfaces.github_events.sign(SECRET, raw),
    }
    got = small.post("/github", content=chunks(), headers=headers)
    assert got.status_code == 413 and "4096 bytes" in got.json()["error"]
    assert memory.count() == 0


def test_a_huge_body_is_refused_before_it_is_read(small: httpx.Client) -> None:
    """A declared Content-Length of 1 GB is answered 413 before the body is sent."""
    host, port = small.base_url.host, small.base_url.port
    assert port is not None
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(
            b"POST /corrections HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Authorization: Bearer {TOKEN}\r\n".encode()
            + b"Content-Length: 1000000000\r\n\r\n{"
        )
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413 ")


class _SlowCollection:
    """A collection whose correct() waits for a signal: a store that is busy for a while."""

    def __init__(self, col: nowline.Collection) -> None:
        self.col = col
        self.scope_key = col.scope_key
        self.release = threading.Event()
        self.entered = threading.Event()

    def correct(self, *args: Any, **kwargs: Any) -> Any:
        self.entered.set()
        assert self.release.wait(30)
        return self.col.correct(*args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.col.get(*args, **kwargs)

    def preview(self, *args: Any, **kwargs: Any) -> Any:
        return self.col.preview(*args, **kwargs)


def test_a_burst_beyond_the_waiting_room_is_503_and_the_rest_are_stored_whole(
    memory: nowline.Collection,
) -> None:
    """With one write in progress and one waiting, a third request gets 503 and is never stored."""
    slow = _SlowCollection(memory)
    app = create_app(slow, github_secret=SECRET, limits=Limits(max_pending=2))  # type: ignore[arg-type]
    with running(app) as http:
        results: dict[str, httpx.Response] = {}
        names = ["acme/one", "acme/two"]

        def send(name: str) -> None:
            results[name] = post_github(http, "repository", archived(name))

        first = threading.Thread(target=send, args=(names[0],))
        first.start()
        assert slow.entered.wait(10)
        second = threading.Thread(target=send, args=(names[1],))
        second.start()
        time.sleep(0.3)  # the second request now waits for the writer
        third = post_github(http, "repository", archived("acme/three"))
        assert third.status_code == 503 and third.headers["retry-after"] == "1"
        slow.release.set()
        first.join(30)
        second.join(30)
    assert [results[n].status_code for n in names] == [201, 201]
    stored = sorted(d for c in memory.corrections() for d in c.deprecates)
    assert stored == ["acme/one", "acme/two"]


def test_concurrent_copies_of_one_delivery_store_one_correction(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """Eight simultaneous copies of one delivery: one 201, seven 200 with the same id."""
    delivery = delivery_id()
    payload = archived("metalcraftai/ufo")
    codes: list[int] = []
    ids: set[str] = set()

    def send() -> None:
        got = post_github(receiver, "repository", payload, delivery=delivery)
        codes.append(got.status_code)
        ids.add(got.json()["id"])

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(codes) == [200] * 7 + [201]
    assert ids == {correction_id("github", event_key(payload))}
    assert len(corrections_of(memory)) == 1


# ------------------------------------------------------------------ audiences


def test_a_correction_for_one_audience_never_reaches_another(scoped: nowline.Collection) -> None:
    """Owner acme maps to team a: its rename reaches team a's memory, never team b's."""
    scoped.remember("Deploy acme/app on Fridays.", id="a", metadata={"user_id": "team-a"})
    scoped.remember("Deploy acme/app on Fridays.", id="b", metadata={"user_id": "team-b"})
    audience = Audience("user_id", owners={"acme": "team-a"})
    with serve(scoped, audience=audience) as http:
        got = post_github(http, "repository", renamed("app", "acme/app2"))
        assert got.status_code == 201 and got.json()["reached"] == 1
        other = post_github(http, "repository", archived("stranger/app"))
        assert other.status_code == 422 and "--scope-for" in other.json()["error"]
        json_for_b = post_correction(
            http,
            {
                "body": "acme/app moved to acme/app3.",
                "deprecates": ["acme/app"],
                "user_id": "team-b",
            },
        )
        assert json_for_b.status_code == 201
    a, b = scoped.hits(["a", "b"])
    assert [c.document for c in a.now] == [
        "GitHub repository acme/app was renamed to acme/app2 on 2026-03-02; use acme/app2."
    ]
    assert [c.document for c in b.now] == ["acme/app moved to acme/app3."]
    assert scoped.recall("Deploy acme/app", where={"user_id": "team-b"}).hits[0].now == b.now


def test_a_receiver_with_one_scope_refuses_a_request_for_another(
    scoped: nowline.Collection,
) -> None:
    """With --scope team-a, a correction for team-b is 422, and one naming none goes to a."""
    scoped.remember("Deploy acme/app on Fridays.", id="b", metadata={"user_id": "team-b"})
    with serve(scoped, audience=Audience("user_id", default="team-a")) as http:
        crossing = post_correction(
            http,
            {
                "body": "acme/app moved to acme/app3.",
                "deprecates": ["acme/app"],
                "user_id": "team-b",
            },
        )
        assert crossing.status_code == 422 and "team-a" in crossing.json()["error"]
        plain = post_correction(
            http, {"body": "acme/app moved to acme/app3.", "deprecates": ["acme/app"]}
        )
        assert plain.status_code == 201 and plain.json()["reached"] == 0
    assert scoped.hits(["b"])[0].role == "current"
    (summary,) = scoped.corrections()
    assert scoped.get(ids=[summary.id])["metadatas"][0]["user_id"] == "team-a"  # type: ignore[index]


def test_a_body_that_arrives_too_slowly_is_408(memory: nowline.Collection) -> None:
    """A client that declares a body and stalls is answered 408 after the body timeout."""
    with serve(memory, limits=Limits(body_timeout=0.5)) as http:
        host, port = http.base_url.host, http.base_url.port
        assert port is not None
        with socket.create_connection((host, port), timeout=10) as sock:
            sock.sendall(
                b"POST /corrections HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + f"Authorization: Bearer {TOKEN}\r\n".encode()
                + b"Content-Length: 100\r\n\r\n{"
            )
            answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert memory.count() == 0


def test_serve_on_a_scoped_store_needs_an_audience(
    scoped: nowline.Collection, store_path: str
) -> None:
    """`nowline serve` with a GitHub secret on a scoped store and no --scope is a usage error."""
    from tests.cli.conftest import invoke

    args = ("serve", "--path", store_path, "-c", "scoped", "--scope-key", "user_id")
    result = invoke(*args, "--github-secret", "s")
    said = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2 and "--scope-for OWNER=VALUE" in said
    result = invoke(
        "serve", "--path", store_path, "-c", "scoped", "--scope", "u1", "--api-token", "t"
    )
    said = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2 and "--scope-key" in said


def test_the_reach_limit_applies_to_received_corrections(memory: nowline.Collection) -> None:
    """With a reach limit of 1, a rename reaching 2 memories is 422 and stores nothing."""
    memory.remember("acme/app deploys.", id="m1")
    memory.remember("acme/app is green.", id="m2")
    with serve(memory, limits=Limits(max_reach=1)) as http:
        got = post_github(http, "repository", renamed("app", "acme/app2"))
    assert got.status_code == 422 and "2" in got.json()["error"]
    assert memory.corrections() == []


def test_a_connection_whose_headers_never_finish_is_closed(memory: nowline.Collection) -> None:
    """A client that sends half a request's headers is cut off after the header deadline.

    uvicorn waits for headers without a limit: 300 such connections kept /health at 503 for
    as long as their client held them (an adversarial review). A body that comes slowly has
    its own deadline (408).
    """
    app = create_app(memory, github_secret=SECRET, api_token=TOKEN)
    with running(app, header_timeout=0.5) as http:
        port = http.base_url.port
        assert port is not None
        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"POST /github HTTP/1.1\r\nHost: x\r\n")
            slow.settimeout(10)
            started = time.monotonic()
            assert slow.recv(100) == b""  # the server closed it
            assert time.monotonic() - started < 5
        assert http.get("/health").status_code == 200
