"""changes(): long-running work hears about every kind of correction change."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromadb
import pytest

import nowline
from tests.conftest import ChromaServer, FakeEmbedding


def _collect(changes: Iterator[nowline.CorrectionChange], n: int) -> list[Any]:
    """Consume ``n`` changes in a daemon thread; return the list they are put in."""
    got: list[Any] = []

    def run() -> None:
        for change in changes:
            got.append((change.id, change.kind))
            if len(got) >= n:
                return

    threading.Thread(target=run, daemon=True).start()
    return got


def _wait_for(got: list[Any], n: int, seconds: float = 20.0) -> None:
    """Wait until ``got`` holds ``n`` items (or fail)."""
    deadline = time.monotonic() + seconds
    while len(got) < n and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(got) >= n, got


def test_changes_reports_additions_edits_retractions_and_deletions(store_path: str) -> None:
    """Another wrapper's changes arrive in order of kind."""
    client = chromadb.PersistentClient(path=store_path)
    raw = client.get_or_create_collection("mem", embedding_function=FakeEmbedding())
    watcher = nowline.wrap(raw, refresh_seconds=0.1)
    writer = nowline.wrap(raw)
    got = _collect(watcher.changes(poll_seconds=0.1), 5)
    time.sleep(0.3)  # the first next() has taken its baseline
    writer.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="c1")
    _wait_for(got, 1)
    writer.update(ids=["c1"], documents=["Moved from acme/app to acme/www."])
    _wait_for(got, 2)
    writer.retract("c1")
    _wait_for(got, 3)
    writer.correct("Moved from acme/api to acme/v2.", deprecates=["acme/api"], id="c2")
    _wait_for(got, 4)
    writer.delete(ids=["c2"])
    _wait_for(got, 5)
    assert got == [
        ("c1", "added"),
        ("c1", "edited"),
        ("c1", "retracted"),
        ("c2", "added"),
        ("c2", "deleted"),
    ]


def test_a_deletion_around_nowline_is_reported_by_the_resync(store_path: str) -> None:
    """A plain client's deletion moves no mark: the resync listing finds it gone."""
    from nowline._io import freshness

    client = chromadb.PersistentClient(path=store_path)
    raw = client.get_or_create_collection("mem", embedding_function=FakeEmbedding())
    watcher = nowline.wrap(raw, refresh_seconds=0.1)
    watcher.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="c1")
    got = _collect(watcher.changes(poll_seconds=0.1), 1)
    time.sleep(0.3)
    raw.delete(ids=["c1"])
    time.sleep(0.5)
    assert got == []  # within the resync interval nothing says it changed
    watcher._core.fresh.listed_at -= freshness.RESYNC_SECONDS  # the interval has passed
    _wait_for(got, 1)
    assert got == [("c1", "deleted")]


def test_changes_refuses_a_bad_interval(memory: nowline.Collection) -> None:
    """poll_seconds must be a positive number (or None)."""
    for bad in (0, -1, True, "1", float("inf")):
        with pytest.raises(nowline.InvalidInput, match="poll_seconds"):
            memory.changes(poll_seconds=bad)  # type: ignore[arg-type]


@pytest.mark.server
def test_async_changes_hear_another_process(chroma_server: ChromaServer) -> None:
    """``async for`` over changes() sees a correction written by a plain sync wrapper."""
    database = chroma_server.new_database()
    sync = nowline.wrap(
        chroma_server.client(database).create_collection("mem", embedding_function=FakeEmbedding())
    )

    async def main() -> list[tuple[str, str]]:
        client = nowline.wrap(
            await chromadb.AsyncHttpClient(
                host=chroma_server.host, port=chroma_server.port, database=database
            )
        )
        col = await client.get_collection("mem", embedding_function=FakeEmbedding())
        stream = col.changes(poll_seconds=0.1)
        first = asyncio.ensure_future(stream.__anext__())
        await asyncio.sleep(0.5)
        await asyncio.to_thread(
            sync.correct, "Moved from acme/app to acme/web.", deprecates=["acme/app"], id="c1"
        )
        change = await asyncio.wait_for(first, 20)
        return [(change.id, change.kind)]

    assert asyncio.run(main()) == [("c1", "added")]


EDIT = """
import sys
import chromadb, nowline
from tests.conftest import FakeEmbedding
port, database = int(sys.argv[1]), sys.argv[2]
client = nowline.wrap(chromadb.HttpClient(host="127.0.0.1", port=port, database=database))
memory = client.get_collection("mem", embedding_function=FakeEmbedding())
memory.update(ids=["c1"], documents=["Moved from acme/app to acme/www, for good."])
"""


@pytest.mark.server
def test_changes_hear_another_process_edit_a_corrections_text(
    chroma_server: ChromaServer,
) -> None:
    """An edit of a correction's text alone, by another process, is reported as edited."""
    import subprocess
    import sys

    database = chroma_server.new_database()
    col = nowline.wrap(
        chroma_server.client(database).create_collection("mem", embedding_function=FakeEmbedding()),
        refresh_seconds=0.1,
    )
    col.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="c1")
    got = _collect(col.changes(poll_seconds=0.1), 1)
    time.sleep(0.3)
    subprocess.run(
        [sys.executable, "-c", EDIT, str(chroma_server.port), database],
        cwd=Path(__file__).resolve().parents[2],
        check=True,
        timeout=120,
        capture_output=True,
    )
    _wait_for(got, 1)
    assert got == [("c1", "edited")]
    assert [c.document for c in col.corrections()] == ["Moved from acme/app to acme/www, for good."]
