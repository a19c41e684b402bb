"""``nowline serve`` as its own process logs each request once, with its delivery id.

The store is made with the test embedder, which the served process registers by importing
``tests.conftest`` before nowline's CLI runs, so no model is loaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import chromadb
import httpx

from tests.conftest import FakeEmbedding
from tests.serve.conftest import SECRET, TOKEN, archived, free_port, post_correction, post_github

ROOT = Path(__file__).resolve().parents[2]
SERVE = [
    sys.executable,
    "-c",
    "import sys; sys.path.insert(0, sys.argv.pop(1)); import tests.conftest; "
    "from nowline.surfaces.cli import main; main()",
    str(ROOT),
]


def test_each_request_is_logged_once(tmp_path: Path) -> None:
    """One line per request, nowline's own (none from uvicorn's access log), 404s too."""
    store = str(tmp_path / "store")
    # plain chromadb takes no nowline writer lock, so the served process can write
    chromadb.PersistentClient(path=store).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    port = free_port()
    env = {**os.environ, "NOWLINE_GITHUB_SECRET": SECRET, "NOWLINE_SERVE_TOKEN": TOKEN}
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [*SERVE, "serve", "--path", store, "-c", "memory", "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            deadline = time.monotonic() + 120
            while True:
                assert proc.poll() is None, log.read_text()
                try:
                    http.post("/nowhere")  # answered 404 by the router, and logged
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.2)
            assert (
                post_github(http, "repository", archived("acme/app"), delivery="d-1").status_code
                == 201
            )
            assert (
                post_github(http, "repository", archived("acme/app"), delivery="d-2").status_code
                == 200
            )
            body = {"body": "acme/app moved to acme/app2.", "deprecates": ["acme/app"]}
            assert post_correction(http, body).status_code == 201
            # a path that would write a line of its own into the log, and a wrong method
            hostile = http.get("/x%0APOST /github -> 201 (delivery 'forged')")
            assert hostile.status_code == 404 and "endpoints" in hostile.json()["error"]
            assert http.get("/github").status_code == 405
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    lines = [line for line in log.read_text().splitlines() if " -> " in line]
    assert lines[0] == "POST '/nowhere' -> 404 (delivery '-') from 127.0.0.1", log.read_text()
    assert lines[-5:-2] == [
        "POST '/github' -> 201 (delivery 'd-1') from 127.0.0.1",
        "POST '/github' -> 200 (delivery 'd-2') from 127.0.0.1",
        "POST '/corrections' -> 201 (delivery '-') from 127.0.0.1",
    ], log.read_text()
    # the hostile path is one quoted line (the newline is gone or escaped), answered 404
    assert lines[-2].startswith('GET "/x') and "forged" in lines[-2], log.read_text()
    assert lines[-2].endswith("-> 404 (delivery '-') from 127.0.0.1")
    assert lines[-1] == "GET '/github' -> 405 (delivery '-') from 127.0.0.1"
    assert not any("forged" in line and not line.startswith("GET ") for line in lines)
