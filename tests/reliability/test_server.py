"""The Chroma server backend: its lifecycle in the test run, and batch limits of bulk writes.

A server reports the largest batch it accepts (``get_max_batch_size()``; 5,461 for chromadb
1.5.9), and chromadb's HttpClient refuses larger writes before sending them. A caller's write
above it is refused exactly as chromadb refuses it (nothing is written); nowline's own bulk
writes (links, unlinks, repairs) are split into batches of at most that size.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import nowline
from tests.conftest import ChromaServer, FakeEmbedding
from tests.reliability.invariants import links_match_reference, recall_matches_reference
from tests.reliability.procs import ROOT

pytestmark = pytest.mark.server

SMALL = 50


def _alive(pid: int) -> bool:
    """Return whether a process with this id exists (and is not a zombie of ours)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")


def test_server_answers_and_stops(tmp_path: Path) -> None:
    """A started server answers its heartbeat on loopback; stop() ends it and frees the port."""
    server = ChromaServer(path=tmp_path / "data").start()
    assert server.process is not None
    pid = server.process.pid
    assert server.client().heartbeat() > 0
    server.stop()
    server.stop()  # idempotent
    assert not _alive(pid)
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/v2/heartbeat", timeout=1)


def test_server_is_stopped_when_a_test_fails(tmp_path: Path) -> None:
    """A pytest run whose test fails still stops the session's server (fixture finalizer)."""
    pid_file = tmp_path / "pid"
    test_file = tmp_path / "test_fails.py"
    test_file.write_text(
        textwrap.dedent(
            f'''
            """A failing test that uses the session server."""
            from pathlib import Path


            def test_fails(chroma_server):
                """Record the server's pid, then fail."""
                Path({str(pid_file)!r}).write_text(str(chroma_server.process.pid))
                assert chroma_server.client().heartbeat() > 0
                raise AssertionError("deliberate failure")
            '''
        )
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), str(test_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert run.returncode == 1 and "deliberate failure" in run.stdout, run.stdout + run.stderr
    assert not _alive(int(pid_file.read_text()))


@pytest.fixture
def small_batches(
    chroma_server: ChromaServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Any, list[tuple[str, int]]]]:
    """Return a client whose server reports a max batch of 50, and a log of every write's size.

    chromadb's HttpClient then refuses any add, update or upsert of more than 50 records.
    """
    client = chroma_server.client(chroma_server.new_database())
    api = client._server  # type: ignore[attr-defined]
    checks = dict(api.get_pre_flight_checks())
    monkeypatch.setattr(api, "pre_flight_checks", {**checks, "max_batch_size": SMALL})
    sizes: list[tuple[str, int]] = []
    for op in ("_add", "_update", "_upsert", "_delete"):
        original: Callable[..., Any] = getattr(api, op)

        def logged(
            *args: Any, _op: str = op, _orig: Callable[..., Any] = original, **kw: Any
        ) -> Any:
            ids = kw.get("ids")
            sizes.append((_op, len(ids) if ids is not None else 0))
            return _orig(*args, **kw)

        monkeypatch.setattr(api, op, logged)
    assert client.get_max_batch_size() == SMALL
    yield client, sizes


def test_bulk_writes_stay_within_the_servers_batch_size(
    small_batches: tuple[Any, list[tuple[str, int]]],
) -> None:
    """add, correct (links), update, upsert, repair, retract and delete write <= 50 at a time."""
    client, sizes = small_batches
    raw = client.create_collection("batches", embedding_function=FakeEmbedding())
    with pytest.raises(ValueError, match="exceeds maximum batch size"):
        raw.add(ids=[f"x{i}" for i in range(SMALL + 1)], documents=["x"] * (SMALL + 1))
    sizes.clear()
    col = nowline.wrap(raw)
    n = 6 * SMALL + 7

    def chunks(prefix: str, text: str) -> Iterator[tuple[list[str], list[str]]]:
        for start in range(0, n, SMALL):
            ids = [f"{prefix}{i}" for i in range(start, min(n, start + SMALL))]
            yield ids, [text.format(i) for i in range(start, start + len(ids))]

    for ids, docs in chunks("m", "deploy acme/app {}"):
        col.add(ids=ids, documents=docs)
    report = col.correct("acme/app is acme/web.", deprecates=["acme/app"], id="c", max_reach=None)
    assert report.reached == n
    for ids, docs in chunks("m", "run acme/app {}"):
        col.update(ids=ids, documents=docs)
    for ids, docs in chunks("u", "acme/app up {}"):
        col.upsert(ids=ids, documents=docs)
    raw.update(ids=[f"u{i}" for i in range(SMALL)], metadatas=[{"nowline_by": ["gone"]}] * SMALL)
    col.repair()
    links_match_reference(col)
    col.correct("acme/web is now acme/site.", deprecates=["acme/web"], id="c2")
    col.retract("c")
    col.delete(ids=["c2"])
    recall_matches_reference(col)
    links_match_reference(col)
    writes = [(op, k) for op, k in sizes if op != "_delete"]
    assert max(k for _, k in writes) <= SMALL
    assert sum(k for op, k in writes if op == "_update") >= 3 * n  # links, unlinks, repair
    assert col.count() == 2 * n + 1  # m*, u* and c (c2 was deleted)


def test_one_call_larger_than_the_real_server_limit(chroma_server: ChromaServer) -> None:
    """An add bigger than the server's own max batch is refused as chromadb refuses it."""
    client = chroma_server.client(chroma_server.new_database())
    limit = client.get_max_batch_size()
    raw = client.create_collection("big", embedding_function=FakeEmbedding())
    n = limit + 100
    ids = [f"r{i}" for i in range(n)]
    embeddings = [[1.0, float(i % 7), 0.5] for i in range(n)]
    with pytest.raises(ValueError, match="exceeds maximum batch size"):
        raw.add(ids=ids, embeddings=embeddings)
    with pytest.raises(ValueError, match="exceeds maximum batch size"):
        nowline.wrap(raw).add(ids=ids, embeddings=embeddings, documents=["note"] * n)
    assert raw.count() == 0
    nowline.wrap(raw).add(ids=ids[:limit], embeddings=embeddings[:limit])
    assert raw.count() == limit
