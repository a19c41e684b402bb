"""What the receiver trusts: what the sender vouched for, never what a request claims.

Each test crosses a real socket to a real receiver (uvicorn on loopback, ``conftest.running``):
a captured signed body re-sent under new delivery ids, a token holder claiming GitHub's
source, a scope given as text on a store of numbers, two receivers on one Chroma server
receiving one delivery at once, and an unarchive after an archive.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

import nowline
from nowline.requests import Audience, correction_id
from nowline.surfaces.github_events import DELIVERY_HEADER, event_key, sign
from nowline.surfaces.hook import decide, parse_event
from nowline.surfaces.serve import Token, create_app, read_tokens
from tests.conftest import ChromaServer, FakeEmbedding
from tests.serve.conftest import (
    SECRET,
    TOKEN,
    archived,
    delivery_id,
    post_correction,
    post_github,
    renamed,
    running,
    serve,
)

T1, T2, T3 = "2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", "2026-03-03T10:00:00Z"
STATUS_TOKEN = "statuspage-token-0123456789"


def post_raw(http: httpx.Client, raw: bytes, delivery: str) -> httpx.Response:
    """POST the same signed bytes as a repository delivery under ``delivery``."""
    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": "repository",
        DELIVERY_HEADER: delivery,
        "X-Hub-Signature-256": sign(SECRET, raw),
    }
    return http.post("/github", content=raw, headers=headers)


def unarchived(full_name: str, **repo: Any) -> dict[str, Any]:
    """Return a ``repository`` ``unarchived`` payload (GitHub's shape, as ``archived``)."""
    payload = archived(full_name, **repo)
    payload["action"] = "unarchived"
    payload["repository"]["archived"] = False
    return payload


def hook_denies(col: nowline.Collection, command: str) -> bool:
    """Return whether the hook's rule denies a Bash call running ``command``."""
    event = parse_event(
        json.dumps(
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command},
            }
        )
    )
    return decide(event, col.check(event.text)) is not None


# ---------------------------------------------------------------- replays


def test_a_captured_signed_body_resent_under_new_delivery_ids_is_stored_once(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """GitHub signs the body only: the same bytes under three delivery ids are one event."""
    memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
    payload = archived("metalcraftai/ufo")
    raw = json.dumps(payload).encode()
    first_delivery = delivery_id()
    answers = [post_raw(receiver, raw, d) for d in (first_delivery, delivery_id(), delivery_id())]
    assert [a.status_code for a in answers] == [201, 200, 200], [a.text for a in answers]
    expected = {"id": correction_id("github", event_key(payload)), "reached": 1}
    assert all(a.json() == expected for a in answers)
    (summary,) = memory.corrections()
    meta = memory.get(ids=[summary.id])["metadatas"][0]  # type: ignore[index]
    assert meta["source_id"] == first_delivery  # the delivery id stays, for people to trace


def test_the_same_body_respaced_is_the_same_event(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """The key is a digest of the parsed body: spacing and key order do not make a new event."""
    payload = archived("acme/app")
    compact = json.dumps(payload, separators=(",", ":")).encode()
    spaced = json.dumps(dict(reversed(list(payload.items()))), indent=2).encode()
    assert post_raw(receiver, compact, delivery_id()).status_code == 201
    assert post_raw(receiver, spaced, delivery_id()).status_code == 200
    assert len(memory.corrections()) == 1


def test_an_imported_delivery_received_before_under_another_id_is_skipped(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A file of deliveries names an event by its payload, whatever its delivery id."""
    from tests.cli.conftest import invoke

    payload = renamed("app", "acme/app2")
    with serve(memory) as http:
        assert post_github(http, "repository", payload).status_code == 201
    events = tmp_path / "events.jsonl"
    line = {"event": "repository", "delivery": delivery_id(), "payload": payload}
    events.write_text(json.dumps(line) + "\n")
    done = invoke("import", store_path, str(events), "--from", "github-events")
    assert done.exit_code == 0, done.output
    assert "1 delivery already stored" in " ".join(done.stdout.split())
    assert len(memory.corrections()) == 1


# ---------------------------------------------------------------- sources


def test_the_json_endpoint_is_stored_once_per_source_id_under_the_tokens_source(
    memory: nowline.Collection,
) -> None:
    """One source_id under two tokens' sources is two events; again under one is 200."""
    memory.remember("Call api.oldco.example for invoices.", id="m")
    body = {
        "body": "The billing API moved from api.oldco.example to api.newco.example.",
        "deprecates": ["api.oldco.example"],
        "source_id": "inc-7",
    }
    app = create_app(memory, api_token=TOKEN, tokens=[Token(STATUS_TOKEN, "statuspage")])
    with running(app) as http:
        api = post_correction(http, body)
        status = post_correction(http, body, token=STATUS_TOKEN)
        again = post_correction(http, body, token=STATUS_TOKEN)
    assert (api.status_code, status.status_code, again.status_code) == (201, 201, 200)
    assert api.json()["id"] == correction_id("api", "inc-7")
    assert status.json()["id"] == again.json()["id"] == correction_id("statuspage", "inc-7")
    assert sorted(c.source or "" for c in memory.corrections()) == ["api", "statuspage"]


@pytest.mark.parametrize("claimed", ["github", "statuspage", 5])
def test_a_token_cannot_claim_another_source_nor_skip_the_near_miss_guard(
    memory: nowline.Collection, receiver: httpx.Client, claimed: object
) -> None:
    """A body naming a source not its token's is 422 and stores nothing; the guard still holds."""
    memory.remember("Call api.oldco.example for invoices.", id="m")
    typo = {
        "body": "The billing API moved from api.olddco.example to api.newco.example.",
        "deprecates": ["api.olddco.example"],
        "source_url": "https://github.com/acme/app",
    }
    before = memory.raw.get(include=["metadatas", "documents"])
    spoofed = post_correction(receiver, {**typo, "source": claimed})
    assert spoofed.status_code == 422, spoofed.text
    error = spoofed.json()["error"]
    assert "not this token's" in error and "'api'" in error and "Leave source out" in error
    plain = post_correction(receiver, typo)
    assert plain.status_code == 422 and "api.oldco.example" in plain.json()["error"]
    assert memory.raw.get(include=["metadatas", "documents"]) == before
    own = post_correction(
        receiver,
        {
            **typo,
            "source": "api",
            "body": typo["body"].replace("olddco", "oldco"),
            "deprecates": ["api.oldco.example"],
        },
    )
    assert own.status_code == 201, own.text
    assert [c.source for c in memory.corrections()] == ["api"]


def test_a_tokens_scope_is_the_only_scope_it_writes(scoped: nowline.Collection) -> None:
    """A token for team-a cannot post for team-b (422); without a scope it writes team-a's."""
    scoped.remember("Deploy acme/app on Fridays.", id="a", metadata={"user_id": "team-a"})
    scoped.remember("Deploy acme/app on Fridays.", id="b", metadata={"user_id": "team-b"})
    token = Token("team-a-token-0123456789", "ci", scope="team-a")
    app = create_app(scoped, tokens=[token], audience=Audience("user_id"))
    body = {"body": "acme/app moved to acme/app3.", "deprecates": ["acme/app"]}
    with running(app) as http:
        crossing = post_correction(http, {**body, "user_id": "team-b"}, token=token.token)
        assert crossing.status_code == 422 and "team-a" in crossing.json()["error"]
        plain = post_correction(http, body, token=token.token)
        assert plain.status_code == 201 and plain.json()["reached"] == 1
    a, b = scoped.hits(["a", "b"])
    assert (a.role, b.role) == ("historical", "current")
    assert [c.source for c in a.now] == ["ci"]


def test_a_tokens_file_names_each_tokens_source_and_scope(tmp_path: Path) -> None:
    """The file is a JSON list of {token, source, scope}; scope keeps its JSON type."""
    path = tmp_path / "tokens.json"
    path.write_text(
        json.dumps(
            [
                {"token": STATUS_TOKEN, "source": "statuspage"},
                {"token": "team-42-token-0123456789", "source": "ci", "scope": 42},
            ]
        )
    )
    path.chmod(0o600)
    assert read_tokens(path) == [
        Token(STATUS_TOKEN, "statuspage"),
        Token("team-42-token-0123456789", "ci", 42),
    ]
    assert STATUS_TOKEN not in repr(read_tokens(path))


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([{"token": STATUS_TOKEN, "source": "github"}], "/github endpoint's"),
        ([{"token": STATUS_TOKEN, "source": "GitHub"}], "/github endpoint's"),
        ([{"token": "short", "source": "ci"}], "at least 16 characters"),
        ([{"token": STATUS_TOKEN}], "source is missing"),
        ([{"token": STATUS_TOKEN, "source": "ci", "role": "admin"}], "unknown field 'role'"),
        ([{"token": STATUS_TOKEN, "source": "ci", "scope": 1.5}], "scope must be"),
        ({"token": STATUS_TOKEN}, "JSON list"),
        ([], "JSON list"),
    ],
)
def test_a_bad_tokens_file_is_refused_before_anything_is_served(
    tmp_path: Path, entries: object, message: str
) -> None:
    """Each unusable entry is refused by its position, with what to change."""
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps(entries))
    path.chmod(0o600)
    with pytest.raises(nowline.InvalidInput, match=message):
        read_tokens(path)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620])
def test_a_tokens_file_others_may_read_or_change_is_refused(tmp_path: Path, mode: int) -> None:
    """The file holds secrets: readable or writable by others, it is refused, naming chmod."""
    path = tmp_path / "my tokens.json"
    path.write_text(json.dumps([{"token": STATUS_TOKEN, "source": "statuspage"}]))
    path.chmod(mode)
    with pytest.raises(nowline.InvalidInput) as info:
        read_tokens(path)
    assert f"mode {mode:o}" in str(info.value)
    assert f"chmod 600 '{path}'" in str(info.value)
    path.chmod(0o600)
    assert read_tokens(path) == [Token(STATUS_TOKEN, "statuspage")]


def test_a_token_given_twice_or_scoped_on_an_unscoped_store_is_refused(
    memory: nowline.Collection,
) -> None:
    """One secret for two sources, or a token scope without a scope key: refused at start."""
    with pytest.raises(nowline.InvalidInput, match="given twice"):
        create_app(memory, api_token=STATUS_TOKEN, tokens=[Token(STATUS_TOKEN, "statuspage")])
    with pytest.raises(nowline.InvalidInput, match="no scope key"):
        create_app(memory, tokens=[Token(STATUS_TOKEN, "statuspage", scope="team-a")])


# ---------------------------------------------------------------- typed scopes


def test_a_scope_given_as_text_is_stored_as_the_number_the_store_holds(
    scoped: nowline.Collection,
) -> None:
    """--scope 42 on a store of user 42 (a number): corrections reach user 42's memories.

    A post naming ``user_id: 42`` or ``"42"`` is the same scope and is accepted.
    """
    scoped.remember("Deploy acme/app on Fridays.", id="m42", metadata={"user_id": 42})
    scoped.remember("wiki.oldco.example has the runbook.", id="w42", metadata={"user_id": 42})
    scoped.remember("Call api.oldco.example.", id="a42", metadata={"user_id": 42})
    with serve(scoped, audience=Audience("user_id", default="42")) as http:
        rename = post_github(http, "repository", renamed("app", "acme/app2"))
        assert rename.status_code == 201 and rename.json()["reached"] == 1, rename.text
        number = post_correction(
            http,
            {
                "body": "The wiki moved from wiki.oldco.example to wiki.newco.example.",
                "deprecates": ["wiki.oldco.example"],
                "user_id": 42,
            },
        )
        assert number.status_code == 201 and number.json()["reached"] == 1, number.text
        text = post_correction(
            http,
            {
                "body": "The API moved from api.oldco.example to api.newco.example.",
                "deprecates": ["api.oldco.example"],
                "user_id": "42",
            },
        )
        assert text.status_code == 201 and text.json()["reached"] == 1, text.text
    metas = scoped.raw.get(where={"nowline_correction": True}, include=["metadatas"])
    assert [m["user_id"] for m in metas["metadatas"] or []] == [42, 42, 42]
    assert {h.role for h in scoped.hits(["m42", "w42", "a42"])} == {"historical"}
    assert scoped.check("git clone acme/app", metadata={"user_id": 42}) != []


def test_a_new_users_text_scope_takes_the_type_the_store_holds_for_the_key(
    scoped: nowline.Collection,
) -> None:
    """No record of user 43 yet, but the store's users are numbers: --scope 43 is 43."""
    scoped.remember("Deploy acme/app on Fridays.", id="m7", metadata={"user_id": 7})
    assert Audience("user_id", default="43").typed(scoped).default == 43
    assert Audience("user_id", default="team-a").typed(scoped).default == "team-a"
    scoped.remember("Deploy acme/app on Fridays.", id="mt", metadata={"user_id": "team-b"})
    assert Audience("user_id", default="43").typed(scoped).default == "43"  # mixed: as given


def test_cli_import_and_check_type_a_numeric_scope_as_the_store_holds_it(
    scoped: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """`nowline import --from github-events --scope 42`, then `nowline check --scope 42`."""
    from tests.cli.conftest import invoke

    scoped.remember("Deploy acme/app on Fridays.", id="m42", metadata={"user_id": 42})
    events = tmp_path / "events.jsonl"
    line = {
        "event": "repository",
        "delivery": delivery_id(),
        "payload": renamed("app", "acme/app2"),
    }
    events.write_text(json.dumps(line) + "\n")
    store = ("-c", "scoped", "--scope-key", "user_id")
    done = invoke(
        "import", store_path, *store, "--from", "github-events", str(events), "--scope", "42"
    )
    assert done.exit_code == 0, done.output
    (meta,) = scoped.raw.get(where={"nowline_correction": True}, include=["metadatas"])[
        "metadatas"
    ] or [None]
    assert meta is not None and meta["user_id"] == 42
    checked = invoke("check", store_path, *store, "--scope", "42", "git clone acme/app")
    assert checked.exit_code == 1, checked.output
    assert "acme/app2" in checked.output


# ---------------------------------------------------------------- concurrency


def at_once(
    receivers: list[httpx.Client], payload: dict[str, Any], delivery: str
) -> tuple[list[int], set[str]]:
    """POST one delivery to every receiver at the same moment; return the codes and ids."""
    start = threading.Barrier(len(receivers))
    got: dict[int, httpx.Response] = {}

    def send(i: int) -> None:
        start.wait(10)
        got[i] = post_github(receivers[i], "repository", payload, delivery=delivery)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(receivers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return sorted(r.status_code for r in got.values()), {r.json().get("id") for r in got.values()}


def test_two_receivers_on_one_server_answer_one_delivery_201_once(
    chroma_server: ChromaServer,
) -> None:
    """Two receivers over one Chroma database get each delivery at the same moment.

    Each delivery is stored once and answered 201 by one of them and 200 by the other.
    """
    database = chroma_server.new_database()
    raw = [chroma_server.client(database) for _ in range(2)]
    first = nowline.wrap(raw[0]).create_collection("memory", embedding_function=FakeEmbedding())
    first.remember("Deploy acme/app on Fridays.", id="m")
    second = nowline.wrap(raw[1]).get_collection("memory", embedding_function=FakeEmbedding())
    names = [f"acme/app{i}" for i in range(6)]
    with (
        running(create_app(first, github_secret=SECRET)) as one,
        running(create_app(second, github_secret=SECRET)) as two,
    ):
        for name in names:
            codes, ids = at_once([one, two], archived(name), delivery_id())
            assert codes == [200, 201], name
            assert len(ids) == 1
    stored = sorted(d for c in first.corrections() for d in c.deprecates)
    assert stored == sorted(names)


# ---------------------------------------------------------------- revivals


def test_an_unarchive_makes_the_repository_current_again(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """Archived then unarchived: acme/app reads as current for check(), recall and the hook."""
    memory.remember("Clone acme/app for the mobile client.", id="app")
    memory.remember("acme/app is archived; do not push to it.", id="note")
    assert (
        post_github(receiver, "repository", archived("acme/app", updated_at=T1)).status_code == 201
    )
    assert hook_denies(memory, "git clone https://github.com/acme/app")
    back = post_github(receiver, "repository", unarchived("acme/app", updated_at=T2))
    assert back.status_code == 201, back.text
    assert memory.check("git clone https://github.com/acme/app") == []
    assert not hook_denies(memory, "git clone https://github.com/acme/app")
    app, note = memory.hits(["app", "note"])
    assert app.role == "current"
    assert note.role == "historical" and "unarchived" in note.now[0].document
    assert (
        post_github(receiver, "repository", archived("acme/app", updated_at=T3)).status_code == 201
    )
    assert hook_denies(memory, "git clone https://github.com/acme/app")


def test_a_rename_back_leaves_the_first_name_current_for_check_and_the_hook(
    memory: nowline.Collection, receiver: httpx.Client
) -> None:
    """acme/app -> acme/app2 -> acme/app, delivered by GitHub: acme/app is current again."""
    memory.remember("Clone acme/app for the mobile client.", id="app")
    there = post_github(receiver, "repository", renamed("app", "acme/app2", updated_at=T1))
    assert there.status_code == 201
    assert hook_denies(memory, "git clone https://github.com/acme/app")
    back = post_github(receiver, "repository", renamed("app2", "acme/app", updated_at=T2))
    assert back.status_code == 201, back.text
    assert memory.check("git clone https://github.com/acme/app") == []
    assert not hook_denies(memory, "git clone https://github.com/acme/app")
    assert hook_denies(memory, "git clone https://github.com/acme/app2")
    assert memory.hits(["app"])[0].role == "current"
