"""Every example runs (STYLE.md 14): each examples/*.py main() is executed at a small size."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))
SMALL_ARGS: dict[str, list[str]] = {"ufo_repo_move.py": ["--memories", "60"]}


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
    module = _load(Path(__file__).parent.parent / "examples" / "ufo_repo_move.py", monkeypatch)
    module.main(["--memories", "60", "--path", str(tmp_path / "store")])
    out = capsys.readouterr().out
    before, after = out.split("After the correction:")
    assert "metalcraftai/ufo" in before and "now:" not in before.split("Correction stored")[0]
    assert f"\n    now: {module.CORRECTION}" in after
    hosted = after.split("The sibling repository is untouched:")[1].split("As the store")[0]
    assert "ufo-hosted" in hosted and "now:" not in hosted
