"""Fixtures for the tool-boundary tests: real stores in temp folders, the CLI as a subprocess.

The stores persist no embedding function (``embedding_function=None``) and are written with
the fake embedder, so the ``nowline`` subprocess can open them without loading a model; the
hook and the scan embed nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import chromadb
import pytest

import nowline
from tests.conftest import FakeEmbedding

ROOT = Path(__file__).resolve().parents[2]
UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
CHANNEL = "The Slack channel #ufo-dev was renamed to #ufo-core."
CLONE = "git clone https://github.com/metalcraftai/ufo.git"


def make_store(
    path: Path | None = None,
    *,
    client: chromadb.api.ClientAPI | None = None,
    scoped: bool = False,
) -> nowline.Collection:
    """Create a store with a memory and two corrections; return its collection.

    The store is a local folder at ``path``, or ``client``'s database on a server. With
    ``scoped`` it keeps scopes apart by ``user_id`` and the corrections are u1's.
    """
    if client is None:
        assert path is not None
        client = chromadb.PersistentClient(path=str(path))
    raw = client.create_collection("memory", embedding_function=None)
    col = nowline.wrap(
        raw, embedding_function=FakeEmbedding(), scope_key="user_id" if scoped else None
    )
    meta = {"user_id": "u1"} if scoped else None
    col.remember(f"Clone with {CLONE}", id="clone", metadata=meta)
    col.correct(UFO, deprecates=["metalcraftai/ufo"], id="move", metadata=meta)
    col.correct(CHANNEL, deprecates=["#ufo-dev"], id="chan", metadata=meta)
    return col


@pytest.fixture
def store(tmp_path: Path) -> str:
    """Return the path of a store with the UFO move and the channel rename."""
    path = tmp_path / "store"
    make_store(path)
    return str(path)


def cli_env(**extra: str) -> dict[str, str]:
    """Return the environment of a ``nowline`` subprocess: offline, this venv's scripts first."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("NOWLINE_URL", None)
    env.update(extra)
    return env


def run_cli(
    *args: str,
    stdin: str | bytes | None = None,
    cwd: Path | str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``nowline ARGS`` as a real subprocess (``env`` added); return its code and output."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    out = subprocess.run(
        [sys.executable, "-m", "nowline.surfaces.cli", *args],
        input=data,
        capture_output=True,
        cwd=cwd,
        env=cli_env(**(env or {})),
        timeout=180,
        check=False,
    )
    return subprocess.CompletedProcess(
        out.args, out.returncode, out.stdout.decode("utf-8"), out.stderr.decode("utf-8")
    )


def git(folder: Path, *args: str) -> None:
    """Run git in ``folder`` (a throwaway repository with its own identity)."""
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=60,
    )
