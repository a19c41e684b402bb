"""The README and the public surface: snippets run, names are documented, extras stay lazy."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nowline
import nowline.matchers

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    """The README's first code block holds the demo and the test command."""
    first = re.search(r"```sh\n(.*?)```", README, re.S)
    assert first is not None and README.index(first.group(0)) < README.index("\n## ")
    commands = [line.split("#")[0].strip() for line in first.group(1).splitlines()]
    assert commands == ["make demo", "make test"]


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run calls the test command the README gives."""
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


PYTHON_BLOCKS = [
    (README[: m.start()].count("\n") + 2, m.group(1))
    for m in re.finditer(r"```python\n(.*?)```", README, re.S)
]


def test_the_readme_has_python_blocks() -> None:
    """The README shows runnable code (the test below runs each block)."""
    assert len(PYTHON_BLOCKS) >= 5


@pytest.mark.parametrize(
    ("line", "block"), PYTHON_BLOCKS, ids=[f"line-{n}" for n, _ in PYTHON_BLOCKS]
)
def test_readme_python_block_runs_on_its_own(
    line: int, block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every python block of the README runs alone, in a fresh namespace and an empty folder.

    A reader copies one block, not the whole README: each must import what it uses and
    create what it needs.
    """
    monkeypatch.chdir(tmp_path)
    code = compile("\n" * (line - 1) + block, "README.md", "exec")
    exec(code, {"__name__": "__readme__"})


DOC_BLOCKS = [
    (f"{page.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 2}", m.group(1))
    for page in sorted((ROOT / "docs").rglob("*.md"))
    for text in [page.read_text(encoding="utf-8")]
    for m in re.finditer(r"```python\n(.*?)```", text, re.S)
]


@pytest.mark.parametrize(("where", "block"), DOC_BLOCKS, ids=[w for w, _ in DOC_BLOCKS])
def test_docs_python_block_runs_on_its_own(
    where: str, block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every python block of the pages under docs/ runs alone, in an empty folder."""
    monkeypatch.chdir(tmp_path)
    page, line = where.rsplit(":", 1)
    code = compile("\n" * (int(line) - 1) + block, page, "exec")
    exec(code, {"__name__": "__docs__"})


@pytest.mark.parametrize("module", [nowline, nowline.matchers])
def test_all_is_sorted_and_resolves(module: object) -> None:
    """__all__ is sorted isort-style (constants, classes, functions) and every name exists."""
    names = list(module.__all__)  # type: ignore[attr-defined]
    assert names == sorted(
        names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
    for name in names:
        assert hasattr(module, name), name


@pytest.mark.parametrize("name", nowline.__all__)
def test_public_name_is_documented(name: str) -> None:
    """Every public name appears in the README and has a docstring."""
    assert f"`{name}`" in README
    obj = getattr(nowline, name)
    if inspect.isclass(obj) or inspect.isfunction(obj):
        assert (obj.__doc__ or "").strip(), name


def test_importing_nowline_leaves_extras_alone() -> None:
    """Importing nowline imports neither LangChain, typer nor the MCP SDK."""
    code = (
        "import sys, nowline; "
        "bad = [m for m in ('langchain_core', 'langchain_chroma', 'typer', 'mcp') "
        "if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_version_agrees_with_the_package_metadata() -> None:
    """``nowline.__version__`` is the version pyproject.toml declares (and pip installed)."""
    from importlib.metadata import version

    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert nowline.__version__ == declared["project"]["version"]
    assert version("nowline") == nowline.__version__
