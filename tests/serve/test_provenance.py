"""Provenance rides with a correction: through a new process's snapshot start, into packets."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import chromadb

import nowline
from tests.conftest import FakeEmbedding
from tests.snapshot_files import read_state, snapshot_file

WRITER = """
import sys
sys.path.insert(0, ".")
import chromadb, nowline
from tests.conftest import FakeEmbedding
col = nowline.wrap(chromadb.PersistentClient(sys.argv[1])).get_or_create_collection(
    "mem", embedding_function=FakeEmbedding()
)
col.remember("Deploy acme/app on Fridays.", id="m")
col.correct(
    "GitHub repository acme/app was renamed to acme/app2 on 2026-03-02; use acme/app2.",
    deprecates=["acme/app"],
    id="c",
    metadata={"source": "github", "source_id": "d1", "source_url": "https://github.com/acme/app2"},
)
"""


def test_a_new_process_started_from_the_snapshot_shows_the_provenance(tmp_path: Path) -> None:
    """The snapshot keeps source and source_url; a wrapper that starts from it shows them."""
    path = str(tmp_path / "store")
    subprocess.run(
        [sys.executable, "-c", WRITER, path],
        check=True,
        capture_output=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        env=dict(os.environ),
    )
    columns = read_state(snapshot_file(path))["corrections"]
    assert (columns["source"], columns["source_url"]) == (
        ["github"],
        ["https://github.com/acme/app2"],
    )
    raw = chromadb.PersistentClient(path=path).get_collection(
        "mem", embedding_function=FakeEmbedding()
    )
    col = nowline.wrap(raw)
    (hit,) = col.hits(["m"])
    assert (hit.now[0].source, hit.now[0].source_url) == ("github", "https://github.com/acme/app2")
    (trip,) = col.check("clone acme/app")
    assert trip.correction.source == "github"


def test_a_correction_written_without_provenance_has_none(memory: nowline.Collection) -> None:
    """A correction with no source metadata shows None; a non-string source is ignored."""
    memory.remember("Deploy acme/app.", id="m")
    memory.correct("acme/app moved to acme/app2.", deprecates=["acme/app"], metadata={"source": 5})
    (hit,) = memory.hits(["m"])
    assert (hit.now[0].source, hit.now[0].source_url) == (None, None)
    assert memory.corrections()[0].source is None
