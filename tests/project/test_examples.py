"""Every example runs (STYLE.md 14): each examples/*.py main() is executed at a small size."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.py"))
SMALL_ARGS: dict[str, list[str]] = {
    "ufo_repo_move.py": ["--memories", "60"],
    "async_memory.py": [],  # starts its own Chroma server (chroma run), data under --path
}


def _load(path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Import an example file as a module (registered, so dataclasses work in it)."""
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example's main() completes and prints something."""
    module = _load(path, monkeypatch)
    args = SMALL_ARGS.get(path.name)
    if args is not None and "--path" not in args:
        args = [*args, "--path", str(tmp_path / "store")]
    module.main(args) if args is not None else module.main()
    assert capsys.readouterr().out.strip()


def test_demo_story_shows_now_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The main demo prints stale memories before, and the same with now-lines after."""
    module = _load(EXAMPLES_DIR / "ufo_repo_move.py", monkeypatch)
    module.main(["--memories", "60", "--path", str(tmp_path / "store")])
    out = capsys.readouterr().out
    before, after = out.split("After the correction:")
    assert "metalcraftai/ufo" in before and "now:" not in before.split("Correction stored")[0]
    assert f"\n    now: {module.CORRECTION}" in after
    hosted = after.split("The sibling repository is untouched:")[1].split("As the store")[0]
    assert "ufo-hosted" in hosted and "now:" not in hosted


def test_async_demo_recalls_with_now_lines_from_a_real_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The async example, against the ``chroma run`` server it starts, guards and recalls.

    The guarded tool refuses the old repository, and both concurrent recalls show the stale
    memory with the correction as its now-line.
    """
    module = _load(EXAMPLES_DIR / "async_memory.py", monkeypatch)
    module.main(["--path", str(tmp_path / "server")])
    out = capsys.readouterr().out
    assert "metalcraftai/ufo" in out.split("\n")[0]  # the StaleReference message comes first
    now = "\n    now: UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in"
    assert out.count("- [outdated] metalcraftai/ufo — PR #1705 passed review." + now) == 2
    assert (tmp_path / "server" / "data").is_dir()  # the server really stored it there
