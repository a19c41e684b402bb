"""Fixtures for the receiver tests: GitHub-shaped payloads and a real server on loopback.

The payloads follow GitHub's documented ``repository`` and ``ping`` webhook payloads (the keys
and nesting of docs.github.com's "Webhook events and payloads"), trimmed of the URL templates
nowline never reads. :func:`running` serves an app with uvicorn in a thread on a free
127.0.0.1 port, so every request crosses a real socket and a real HTTP parser.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import uvicorn

import nowline
from nowline.requests import Audience
from nowline.surfaces.github_events import sign
from nowline.surfaces.serve import HEADER_TIMEOUT, Limits, create_app, server_config

SECRET = "It's a Secret to Everybody"
TOKEN = "api-token-for-tests"


def _account(login: str, kind: str = "Organization") -> dict[str, Any]:
    """Return a GitHub account object as webhook payloads carry it."""
    return {
        "login": login,
        "id": abs(hash(login)) % 10**8,
        "node_id": "MDQ6VXNlcjE=",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{abs(hash(login)) % 10**8}?v=4",
        "gravatar_id": "",
        "url": f"https://api.github.com/users/{login}",
        "html_url": f"https://github.com/{login}",
        "type": kind,
        "site_admin": False,
    }


def repository(
    full_name: str, *, updated_at: str | int | None = "2026-03-02T10:00:00Z", archived: bool = False
) -> dict[str, Any]:
    """Return a ``repository`` object shaped like GitHub's webhook payloads."""
    owner, name = full_name.split("/")
    repo: dict[str, Any] = {
        "id": 186853261,
        "node_id": "MDEwOlJlcG9zaXRvcnkxODY4NTMyNjE=",
        "name": name,
        "full_name": full_name,
        "private": False,
        "owner": _account(owner),
        "html_url": f"https://github.com/{full_name}",
        "description": None,
        "fork": False,
        "url": f"https://api.github.com/repos/{full_name}",
        "created_at": "2019-05-15T15:20:42Z",
        "pushed_at": "2019-05-15T15:20:33Z",
        "git_url": f"git://github.com/{full_name}.git",
        "ssh_url": f"git@github.com:{full_name}.git",
        "clone_url": f"https://github.com/{full_name}.git",
        "archived": archived,
        "disabled": False,
        "default_branch": "main",
        "visibility": "public",
    }
    if updated_at is not None:
        repo["updated_at"] = updated_at
    return repo


def _common(full_name: str) -> dict[str, Any]:
    """Return the sender and organization keys every repository delivery carries."""
    owner = full_name.split("/")[0]
    return {
        "sender": _account("Codertocat", "User"),
        "organization": {
            "login": owner,
            "id": 38302899,
            "url": f"https://api.github.com/orgs/{owner}",
            "description": "",
        },
    }


def renamed(old_name: str, full_name: str, **repo: Any) -> dict[str, Any]:
    """Return a ``repository`` ``renamed`` payload: ``full_name`` is the new name."""
    return {
        "action": "renamed",
        "changes": {"repository": {"name": {"from": old_name}}},
        "repository": repository(full_name, **repo),
        **_common(full_name),
    }


def transferred(
    old_owner: str, full_name: str, *, org: bool = False, **repo: Any
) -> dict[str, Any]:
    """Return a ``repository`` ``transferred`` payload (old owner a user, or an organization)."""
    source = {"organization": _account(old_owner)} if org else {"user": _account(old_owner, "User")}
    return {
        "action": "transferred",
        "changes": {"owner": {"from": source}},
        "repository": repository(full_name, **repo),
        **_common(full_name),
    }


def archived(full_name: str, **repo: Any) -> dict[str, Any]:
    """Return a ``repository`` ``archived`` payload."""
    return {
        "action": "archived",
        "repository": repository(full_name, archived=True, **repo),
        **_common(full_name),
    }


def ping(full_name: str) -> dict[str, Any]:
    """Return a ``ping`` payload: GitHub sends it when a webhook is created."""
    return {
        "zen": "Keep it logically awesome.",
        "hook_id": 30,
        "hook": {
            "type": "Repository",
            "id": 30,
            "name": "web",
            "active": True,
            "events": ["repository"],
            "config": {
                "content_type": "json",
                "insecure_ssl": "0",
                "url": "https://memory.example.com/github",
            },
            "updated_at": "2026-03-01T10:00:00Z",
            "created_at": "2026-03-01T10:00:00Z",
        },
        "repository": repository(full_name),
        "sender": _account("Codertocat", "User"),
    }


def delivery_id() -> str:
    """Return a new delivery id, a GUID as GitHub sends it."""
    return str(uuid.uuid4())


def post_github(
    http: httpx.Client,
    event: str,
    payload: Any,
    *,
    delivery: str | None = None,
    secret: str | None = SECRET,
    body: bytes | None = None,
    content_type: str = "application/json",
) -> httpx.Response:
    """POST one delivery as GitHub does: JSON body, event, delivery id and signature headers."""
    raw = body if body is not None else json.dumps(payload).encode("utf-8")
    headers = {
        "Content-Type": content_type,
        "User-Agent": "GitHub-Hookshot/044aadd",
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery or delivery_id(),
        "X-GitHub-Hook-ID": "30",
    }
    if secret is not None:
        headers["X-Hub-Signature-256"] = sign(secret, raw)
    return http.post("/github", content=raw, headers=headers)


def post_correction(
    http: httpx.Client, obj: Any, *, token: str | None = TOKEN, body: bytes | None = None
) -> httpx.Response:
    """POST a JSON correction with the bearer token."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    raw = body if body is not None else json.dumps(obj).encode("utf-8")
    return http.post("/corrections", content=raw, headers=headers)


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running(app: Any, *, header_timeout: float = HEADER_TIMEOUT) -> Iterator[httpx.Client]:
    """Serve ``app`` as ``nowline serve`` does, on a free loopback port; yield a client for it.

    The settings are those of :func:`nowline.serve.server_config` (the header deadline, the
    limits, the h11 parser), with uvicorn's own logging kept to warnings.
    """
    config = server_config(
        app, port=free_port(), log_level="warning", header_timeout=header_timeout
    )
    config.lifespan = "off"
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the receiver did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            yield http
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def receiver(memory: nowline.Collection) -> Iterator[httpx.Client]:
    """Return a client of a receiver over the test's store, with both endpoints enabled."""
    app = create_app(memory, github_secret=SECRET, api_token=TOKEN)
    with running(app) as http:
        yield http


def serve(
    col: nowline.Collection,
    *,
    audience: Audience | None = None,
    limits: Limits | None = None,
) -> Any:
    """Return a context manager serving a receiver over ``col`` (both endpoints enabled)."""
    return running(
        create_app(col, audience=audience, github_secret=SECRET, api_token=TOKEN, limits=limits)
    )
