"""The change journal on real stores: a catch-up reads what changed, by id, and never lists.

A reader process keeps a wrapper open over a ``chroma run`` server while another process
writes corrections through nowline; the reader sees every change without a listing. On a
local store, the journal is folded and read back through chromadb itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import chromadb
import pytest

import nowline
from nowline._io.execute import SyncStore, run_sync
from nowline._io.freshness import Freshness, load_flow, refresh_flow
from nowline._io.mark import companion_name
from nowline._rules.registry import Registry
from tests.conftest import ChromaServer, FakeEmbedding
from tests.reliability.procs import ROOT

OLD = "acme/api"


def _writer(server: ChromaServer, database: str, code: str) -> None:
    """Run nowline code over the server in another process (``col`` is its wrapper)."""
    script = (
        "import sys; sys.path.insert(0, '.'); import chromadb, nowline\n"
        "from tests.conftest import FakeEmbedding\n"
        "raw = chromadb.HttpClient(host=sys.argv[1], port=int(sys.argv[2]), "
        "database=sys.argv[3]).get_collection('mem', embedding_function=FakeEmbedding())\n"
        "col = nowline.wrap(raw)\n"
        f"{code}\n"
    )
    subprocess.run(
        [sys.executable, "-c", script, server.host, str(server.port), database],
        check=True,
        capture_output=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "NOWLINE_CACHE_DIR": os.devnull + "-unused"},
    )


def _trips(col: nowline.Collection, text: str) -> list[str]:
    """Return the ids of the corrections ``check`` trips on ``text``."""
    return sorted(t.correction.id for t in col.check(text))


@pytest.mark.server
def test_another_process_changes_are_read_by_id_not_listed(
    chroma_server: ChromaServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Addition, text edit, retraction and deletion elsewhere: seen, and no listing."""
    database = chroma_server.new_database()
    raw = chroma_server.client(database).create_collection(
        "mem", embedding_function=FakeEmbedding()
    )
    monkeypatch.setenv("NOWLINE_CACHE_DIR", str(tmp_path / "cache"))
    reader = nowline.wrap(raw, refresh_seconds=0)
    for i in range(20):
        reader.correct(f"Moved from svc/{i} to svc/new{i}.", deprecates=[f"svc/{i}"], id=f"c{i}")
    fresh = reader._core.fresh
    listings = fresh.listings
    _writer(chroma_server, database, f"col.correct('Moved {OLD} to acme/v2.', "
            f"deprecates=['{OLD}'], id='new')")  # fmt: skip
    assert _trips(reader, f"call {OLD}") == ["new"]
    _writer(chroma_server, database, "col.update(ids=['new'], documents=["
            f"'Moved {OLD} to acme/v3, said otherwise.'])")  # fmt: skip
    (trip,) = reader.check(f"call {OLD}")
    assert "acme/v3" in trip.correction.document
    _writer(chroma_server, database, "col.retract('c1')\ncol.delete(ids=['c2'])")
    assert _trips(reader, "svc/1 svc/2 svc/3") == ["c3"]
    assert fresh.listings == listings and fresh.journal_reads >= 3


def test_a_local_journal_is_folded_and_read_through_chromadb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes leave one entry each; folds keep the companion small; a reader applies them."""
    from nowline._io import journal

    monkeypatch.setattr(journal, "KEEP", 4)
    monkeypatch.setattr(journal, "COMPACT_EVERY", 1)
    client = chromadb.PersistentClient(str(tmp_path / "store"))
    raw = client.create_collection("mem", embedding_function=FakeEmbedding())
    writer = nowline.wrap(raw, refresh_seconds=0)
    writer.correct("Moved from svc/a to svc/b.", deprecates=["svc/a"], id="c0")
    reader, registry = Freshness(refresh_seconds=0), Registry()
    store = SyncStore(raw, None)  # a second process's view, without the shared registry
    run_sync(load_flow(reader, registry, None), store)
    for i in range(1, 12):
        writer.correct(f"Moved from svc/x{i} to svc/y{i}.", deprecates=[f"svc/x{i}"], id=f"c{i}")
    companion = client.get_collection(companion_name(raw.id))
    assert companion.count() <= journal.KEEP + 1
    assert run_sync(refresh_flow(reader, registry, None), store) is True
    assert set(registry.held()) == {f"c{i}" for i in range(12)}
    assert reader.listings == 1 and reader.journal_reads == 1
    assert [c.name for c in nowline.wrap(client).list_collections()] == ["mem"]
