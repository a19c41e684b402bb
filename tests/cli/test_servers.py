"""Where the CLI's store lives: a Chroma server (--url), a local folder another process writes.

Also: commands that embed nothing never import torch or sentence-transformers (cold start).
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pytest
from typer.testing import CliRunner

import nowline
from nowline.surfaces.cli import app
from tests.cli.conftest import MEMORIES, UFO, invoke, invoke_json
from tests.conftest import ChromaServer, FakeEmbedding

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "sentence_transformers", "transformers")


def _seed(collection: nowline.Collection) -> None:
    """Store the CLI fixture's memories and its UFO correction."""
    for rid, text in MEMORIES.items():
        collection.remember(text, id=rid, observed_at="2025-01-01T00:00:00Z")
    collection.correct(UFO, deprecates=["metalcraftai/ufo"], id="move", observed_at="2025-02-01")


@pytest.fixture
def served(chroma_server: ChromaServer) -> Iterator[tuple[str, str]]:
    """Return (url, database) of a fresh server database holding the seeded collection."""
    database = chroma_server.new_database()
    client = nowline.wrap(chroma_server.client(database))
    _seed(client.create_collection("memory", embedding_function=FakeEmbedding()))
    yield f"http://{chroma_server.host}:{chroma_server.port}", database


def test_every_command_works_over_a_server(served: tuple[str, str], tmp_path: Path) -> None:
    """stats, corrections, recall, preview, check, import, retract and repair take --url."""
    url, db = served
    server = ("--url", url, "--database", db)
    assert invoke_json("stats", *server)["records"] == 6
    assert [r["id"] for r in invoke_json("corrections", *server)] == ["move"]
    recall = invoke("recall", *server, "metalcraftai/ufo PR review", "-k", "6")
    assert recall.exit_code == 0 and f"    now: {UFO}" in recall.stdout
    assert invoke_json("preview", *server, "-d", "#ufo-dev")["reach"] == 1
    assert invoke("check", *server, "git clone metalcraftai/ufo").exit_code == 1
    lines = tmp_path / "fix.jsonl"
    lines.write_text(
        json.dumps({"id": "chan", "text": "#ufo-dev is now #ufo-core.", "deprecates": ["#ufo-dev"]})
        + "\n",
        encoding="utf-8",
    )
    imported = invoke("import", *server, str(lines))
    assert imported.exit_code == 0, imported.output
    retracted = invoke("retract", *server, "move")
    assert retracted.exit_code == 0, retracted.output
    assert invoke("check", *server, "git clone metalcraftai/ufo").exit_code == 0
    assert invoke("repair", *server).exit_code == 0
    rows = {r["id"]: r["status"] for r in invoke_json("corrections", *server)}
    assert rows == {"move": "retracted", "chan": "active"}


def test_the_url_can_come_from_the_environment(served: tuple[str, str], store_path: str) -> None:
    """NOWLINE_URL stands in for --url; an explicit PATH still wins over it."""
    url, db = served
    env = {"NOWLINE_URL": url, "CHROMA_DATABASE": db}
    runner = CliRunner(env=env)
    stats = runner.invoke(app, ["stats", "--json"])
    assert stats.exit_code == 0, stats.output
    assert json.loads(stats.stdout)["records"] == 6 and json.loads(stats.stdout)["store"] == url
    lone = runner.invoke(app, ["retract", "move"])  # a lone argument is the ID
    assert lone.exit_code == 0, lone.output
    local = nowline.wrap(chromadb.PersistentClient(path=store_path)).create_collection(
        "local", embedding_function=FakeEmbedding()
    )
    local.remember("Only here.")
    on_path = runner.invoke(app, ["stats", store_path, "--json"])
    assert on_path.exit_code == 0 and json.loads(on_path.stdout)["records"] == 1


def test_path_and_url_together_is_a_usage_error(served: tuple[str, str], seeded: str) -> None:
    """Giving a folder and --url exits 2; so does --tenant without --url."""
    url, _ = served
    both = invoke("stats", seeded, "--url", url)
    assert both.exit_code == 2 and "--url" in both.stderr
    tenant = invoke("stats", seeded, "--tenant", "t")
    assert tenant.exit_code == 2 and "--tenant" in tenant.stderr


def test_a_server_that_does_not_answer_names_the_url() -> None:
    """An unreachable server exits 1 and says which URL and options to check."""
    result = invoke("stats", "--url", "http://127.0.0.1:9")
    assert result.exit_code == 1
    err = " ".join(result.stderr.split())
    assert "http://127.0.0.1:9" in err and "--url" in err and "chroma run" in err


def test_a_bad_url_is_a_usage_error() -> None:
    """A URL without http(s) or with credentials in it exits 2."""
    for url in ("localhost:8000", "ftp://h:1", "http://me:secret@h:8000"):
        result = invoke("stats", "--url", url)
        assert result.exit_code == 2 and "--url" in result.stderr, url


def test_chroma_server_host_in_the_environment_does_not_interfere(
    served: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CHROMA_SERVER_HOST (a server-side setting) does not make --url fail."""
    url, db = served
    monkeypatch.setenv("CHROMA_SERVER_HOST", "0.0.0.0")
    monkeypatch.setenv("CHROMA_SERVER_HTTP_PORT", "1")
    client = nowline.wrap(nowline.connect(url=url, database=db))  # hides the mark's companion
    assert [c.name for c in client.list_collections()] == ["memory"]


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Record each request's headers and answer 503."""

    seen: list[dict[str, str]] = []  # noqa: RUF012 (one list for the test)

    def do_GET(self) -> None:
        """Record the headers; refuse the request."""
        type(self).seen.append(dict(self.headers))
        self.send_response(503)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet."""


@pytest.mark.parametrize(
    ("header", "sent"), [("Authorization", "Bearer s3cret"), ("X-Chroma-Token", "s3cret")]
)
def test_the_token_goes_in_the_chosen_header(header: str, sent: str) -> None:
    """--token (or NOWLINE_TOKEN) is sent as chromadb's token auth sends it."""
    _Recorder.seen = []
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}"
        runner = CliRunner(env={"NOWLINE_TOKEN": "s3cret"})
        result = runner.invoke(app, ["stats", "--url", url, "--token-header", header])
    finally:
        httpd.shutdown()
    assert result.exit_code == 1
    assert any(seen.get(header) == sent for seen in _Recorder.seen), _Recorder.seen
    assert "s3cret" not in result.stderr


HOLDER = textwrap.dedent(
    """
    import sys
    from tests.cli.test_servers import _seed  # registers the fake embedding function too
    import chromadb, nowline
    col = nowline.wrap(chromadb.PersistentClient(path=sys.argv[1])).get_collection("memory")
    _seed(col)
    col.remember("Held by another process.", id="held")
    print("holding", flush=True)
    sys.stdin.read()
    """
)


def test_reads_work_and_writes_name_url_while_another_process_writes(
    store_path: str, tmp_path: Path
) -> None:
    """With a local store held by another writer, reads succeed and writes point to --url."""
    raw = chromadb.PersistentClient(path=store_path).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )  # a plain chromadb write: this process takes no writer lock; the holder seeds it
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, store_path],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        assert invoke_json("stats", store_path)["records"] == 7
        assert invoke_json("corrections", store_path)[0]["id"] == "move"
        assert invoke("recall", store_path, "ufo PR").exit_code == 0
        assert invoke("preview", store_path, "-d", "metalcraftai/ufo").exit_code == 0
        assert invoke("check", store_path, "clone metalcraftai/ufo").exit_code == 1
        lines = tmp_path / "in.jsonl"
        lines.write_text(json.dumps({"text": "New memory."}) + "\n", encoding="utf-8")
        for args in (("retract", store_path, "move"), ("import", store_path, str(lines))):
            result = invoke(*args)
            err = " ".join(result.stderr.split())
            assert result.exit_code == 1, (args, result.output)
            assert "--url" in err and "chroma run --path" in err, err
            assert "HttpClient" not in err
        assert invoke("repair", store_path).exit_code == 0  # nothing to write: no lock needed
    finally:
        holder.communicate(timeout=60)
    assert {c.id: c.status for c in nowline.wrap(raw).corrections()} == {"move": "active"}


COLD = textwrap.dedent(
    """
    import json, sys
    from nowline.surfaces.cli import app
    heavy = {}
    for args in json.loads(sys.argv[1]):
        try:
            app(args, standalone_mode=False)
        except SystemExit:
            pass
        except Exception as exc:  # a failing command counts; report it
            heavy[" ".join(args)] = repr(exc)
            continue
        heavy[" ".join(args)] = [m for m in HEAVY if m in sys.modules]
    print("RESULT " + json.dumps(heavy))
    """.replace("HEAVY", repr(HEAVY))
)


def test_commands_that_embed_nothing_import_no_model(tmp_path: Path) -> None:
    """stats, corrections, preview, check, retract, repair and --help never import torch."""
    path = str(tmp_path / "store")
    col = chromadb.PersistentClient(path=path).create_collection("memory")  # chromadb's default
    docs = [*MEMORIES.values(), UFO]
    metas: list[Any] = [{"n": i} for i in range(len(MEMORIES))] + [
        {"deprecates": ["metalcraftai/ufo"]}
    ]
    vectors = np.random.default_rng(1).standard_normal((len(docs), 384)).astype(np.float32)
    col.add(ids=[*MEMORIES, "move"], documents=docs, metadatas=metas, embeddings=vectors)
    commands = [
        ["--help"],
        ["--version"],
        ["stats", path],
        ["corrections", path, "--json"],
        ["preview", path, "-d", "metalcraftai/ufo"],
        ["check", path, "git clone metalcraftai/ufo"],
        ["repair", path],
        ["retract", path, "move"],
    ]
    out = subprocess.run(
        [sys.executable, "-c", COLD, json.dumps(commands)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        check=False,
    )
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("RESULT ")), None)
    assert line is not None, out.stderr[-3000:]
    loaded = json.loads(line.removeprefix("RESULT "))
    assert loaded == {" ".join(c): [] for c in commands}
    assert nowline.wrap(col).hits(["pr"])[0].role == "current"  # the retract ran


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_no_chromadb(flag: str) -> None:
    """``nowline --help`` and ``--version`` answer without chromadb (docs/command-line.md).

    The command line's import of the import's modes (``OnExisting``) loaded the request layer,
    and with it chromadb: about 0.5 s of every ``--help`` (found by a user test of the wheel).
    """
    script = (
        "import sys\nfrom nowline.surfaces.launch import main\n"
        f"sys.argv = ['nowline', {flag!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('RESULT', 'chromadb' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert "RESULT False" in out.stdout, (out.stdout[-2000:], out.stderr[-2000:])


def test_an_embedding_function_the_cli_cannot_build_is_explained(store_path: str) -> None:
    """A recall of a collection whose embedding function is not registered exits 1, CLI terms."""
    chromadb.PersistentClient(path=store_path).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    out = subprocess.run(
        [sys.executable, "-m", "nowline.surfaces.cli", "recall", store_path, "anything"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        check=False,
    )
    err = " ".join(out.stderr.split())
    assert out.returncode == 1, out.stderr
    assert "cannot build" in err and "embedding_function=" not in err and "Traceback" not in err
