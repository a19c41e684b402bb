"""The built wheel: what ``pip install nowline`` puts on a machine, run from outside the tree.

The tests everywhere else import the editable install, which reads every file of the source
tree. A wheel holds only what ``pyproject.toml`` names, so a data file the rules read and the
wheel lacks breaks every installed copy while every other test passes: ``given_names.txt``
was missing from the wheel until this test, and each ``correct()`` of an installed nowline
raised ``FileNotFoundError``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"plugin": "nowline", "matchers": "nowline/matchers"}  # source folder: wheel path


def _tracked(*paths: str) -> list[str]:
    """Return the files git tracks under ``paths`` (what a fresh clone builds from)."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", *paths],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [p for p in out.split("\0") if p]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel from a copy of the tracked files, as a fresh clone would."""
    src = tmp_path_factory.mktemp("src")
    for rel in _tracked("pyproject.toml", "README.md", "LICENSE", *PACKAGES):
        target = src / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((ROOT / rel).read_bytes())
    out = tmp_path_factory.mktemp("dist")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(src)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("nowline-*.whl")
    return built


def test_every_file_of_the_package_is_in_the_wheel(wheel: Path) -> None:
    """Each tracked file of ``plugin/`` and ``matchers/`` is in the wheel, and the licence."""
    inside = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        PACKAGES[rel.split("/", 1)[0]] + "/" + rel.split("/", 1)[1] for rel in _tracked(*PACKAGES)
    }
    assert {p for p in expected if not p.endswith(".py")} >= {
        "nowline/_rules/foldtable.txt",
        "nowline/_rules/given_names.txt",
        "nowline/py.typed",
    }
    assert sorted(expected - inside) == []
    meta = next(p for p in inside if p.endswith(".dist-info/METADATA"))
    metadata = zipfile.ZipFile(wheel).read(meta).decode()
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    licence = meta.replace("METADATA", "licenses/LICENSE")
    assert zipfile.ZipFile(wheel).read(licence) == (ROOT / "LICENSE").read_bytes()


def test_the_installed_wheel_reads_its_data_and_corrects(wheel: Path, tmp_path: Path) -> None:
    """Unpacked on its own, the wheel answers a correction, its name rules and the CLI."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = textwrap.dedent(
        """
        import sys
        import chromadb, nowline
        from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

        assert nowline.__file__.startswith(sys.argv[1]), nowline.__file__

        class Letters(EmbeddingFunction[Documents]):
            def __init__(self) -> None:
                pass

            def __call__(self, input: Documents) -> Embeddings:
                return [[float(t.lower().count(c)) + 0.1 for c in "abcdefgh"] for t in input]

            @staticmethod
            def name() -> str:
                return "letters"

        store = nowline.wrap(chromadb.PersistentClient(path=sys.argv[2]))
        memory = store.create_collection("memory", embedding_function=Letters())
        memory.remember("Clone metalcraftai/ufo for the UFO core.", id="m")
        memory.remember("Michelle Rivera owns billing.", id="p")
        try:
            memory.correct("Billing owner changed from Michelle Rivera to Dana Wu.",
                           deprecates=["Michelle Rivera"])
        except nowline.PersonName:
            pass
        else:
            raise SystemExit("a person's name was stored without an anchor")
        memory.correct("UFO core moved from metalcraftai/ufo to ufo-ai/ufo.",
                       deprecates=["metalcraftai/ufo"])
        (hit,) = memory.hits(["m"])
        assert hit.role == "historical", hit.role
        print("ok")
        """
    )
    env = {**os.environ, "PYTHONPATH": str(site), "ANONYMIZED_TELEMETRY": "False"}
    store = tmp_path / "store"
    done = subprocess.run(
        [sys.executable, "-c", script, str(site), str(store)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
    check = subprocess.run(
        [sys.executable, "-m", "nowline", "check", str(store), "git clone metalcraftai/ufo"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert check.returncode == 1 and "ufo-ai/ufo" in check.stdout, (check.stdout, check.stderr)
