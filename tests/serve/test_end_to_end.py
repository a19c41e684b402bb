"""End to end: ``nowline serve`` as its own process, signed deliveries over loopback, recall.

The store is seeded with plain chromadb (which takes no nowline writer lock), the receiver
runs as ``nowline serve`` on a free 127.0.0.1 port with its secret in the environment, httpx
posts signed GitHub deliveries to it, and a separate wrapper in this process recalls the stale
memory and sees the now-line beneath it. The embedding model is the real one (the processes
build the store's persisted function), so this module takes 20 to 60 s on a busy machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import chromadb
import httpx
from chromadb.api.client import SharedSystemClient

import nowline
from tests.cli.conftest import invoke
from tests.serve.conftest import (
    SECRET,
    TOKEN,
    delivery_id,
    free_port,
    ping,
    post_correction,
    post_github,
    transferred,
)

NOWLINE = [sys.executable, "-c", "from nowline.surfaces.cli import main; main()"]
MEMORIES = [
    {"id": "pr", "text": "metalcraftai/ufo — PR #1705 passed review.", "observed_at": "2025-01-01"},
    {"id": "new", "text": "ufo-ai/ufo — release 0.9 tagged.", "observed_at": "2025-01-02"},
    {
        "id": "wiki",
        "text": "The team wiki lives at wiki.oldco.example.",
        "observed_at": "2025-01-03",
    },
]


def seed(path: str) -> None:
    """Create the store's collection with nowline's model and its memories (plain chromadb).

    Plain chromadb takes no nowline writer lock, so the receiver can be the store's writer.
    """
    raw = chromadb.PersistentClient(path=path).create_collection(
        "memory", embedding_function=nowline.embedding_function()
    )
    raw.add(
        ids=[m["id"] for m in MEMORIES],
        documents=[m["text"] for m in MEMORIES],
        metadatas=[{"observed_at": m["observed_at"]} for m in MEMORIES],
    )


ANNOUNCEMENTS_TOKEN = "it-announcements-token-0123456789"


@contextmanager
def receiver(store: str, log: Path) -> Iterator[httpx.Client]:
    """Run ``nowline serve`` on the store; yield a client of it; stop it at the end.

    Its tokens: NOWLINE_SERVE_TOKEN (source api) and a tokens file with a token for the
    source it-announcements.
    """
    port = free_port()
    tokens = log.parent / "tokens.json"
    tokens.write_text(json.dumps([{"token": ANNOUNCEMENTS_TOKEN, "source": "it-announcements"}]))
    tokens.chmod(0o600)
    env = {
        **os.environ,
        "NOWLINE_GITHUB_SECRET": SECRET,
        "NOWLINE_SERVE_TOKEN": TOKEN,
        "NOWLINE_SERVE_TOKENS_FILE": str(tokens),
    }
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [*NOWLINE, "serve", "--path", store, "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            deadline = time.monotonic() + 180
            while True:
                assert proc.poll() is None, log.read_text()
                try:
                    if http.get("/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
            yield http
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_a_signed_transfer_reaches_a_separate_wrappers_recall(tmp_path: Path) -> None:
    """A signed transfer is stored once; a separate wrapper recalls the now-line beneath."""
    store = str(tmp_path / "store")
    seed(store)
    delivery = delivery_id()
    payload = transferred("metalcraftai", "ufo-ai/ufo", org=True, updated_at="2025-02-01T09:00:00Z")
    with receiver(store, tmp_path / "serve.log") as served:
        assert post_github(served, "ping", ping("metalcraftai/ufo")).status_code == 202
        assert post_github(served, "repository", payload, secret="wrong").status_code == 401
        first = post_github(served, "repository", payload, delivery=delivery)
        assert first.status_code == 201 and first.json()["reached"] == 1, first.text
        again = post_github(served, "repository", payload, delivery=delivery)
        assert again.status_code == 200 and again.json() == first.json()
        wiki = {
            "body": "The team wiki moved from wiki.oldco.example to wiki.newco.example.",
            "deprecates": ["wiki.oldco.example"],
            "source_id": "2025-02-03-wiki",
        }
        claimed = post_correction(served, {**wiki, "source": "it-announcements"})
        assert claimed.status_code == 422, claimed.text  # the api token's source is api
        stored = post_correction(served, wiki, token=ANNOUNCEMENTS_TOKEN)
        assert stored.status_code == 201, stored.text
    SharedSystemClient.clear_system_cache()  # read the store afresh, as another process would
    memory = nowline.wrap(chromadb.PersistentClient(path=store)).get_collection("memory")
    packet = memory.recall("metalcraftai/ufo PR #1705 review", n_results=3)
    block = packet.render()
    stale = block.index("metalcraftai/ufo — PR #1705 passed review.")
    line = block.index(
        "now: GitHub repository metalcraftai/ufo was transferred to ufo-ai/ufo on 2025-02-01; "
        "use ufo-ai/ufo.",
        stale,
    )
    assert block.index("\n", stale) < line  # the now-line is beneath the memory
    (hit,) = [h for h in packet.hits if h.id == "pr"]
    assert hit.now[0].source == "github"
    assert hit.now[0].source_url == "https://github.com/ufo-ai/ufo"
    current = [h for h in packet.hits if h.id == "new"]
    assert current and current[0].role == "current"
    listed = invoke("corrections", store, "--json")
    assert listed.exit_code == 0, listed.output
    assert sorted(r["source"] for r in json.loads(listed.stdout)) == ["github", "it-announcements"]


def test_serve_refuses_to_start_without_a_secret_or_token(tmp_path: Path) -> None:
    """Without --github-secret or --api-token nothing could be received: a usage error."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NOWLINE_")}
    done = subprocess.run(
        [*NOWLINE, "serve", "--path", str(tmp_path / "s")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 2 and "--github-secret" in done.stderr
