"""The README, the docs and the public surface: snippets run, the reference matches the code."""

from __future__ import annotations

import enum
import importlib.util
import inspect
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import nowline
import nowline.matchers
import nowline.models
import nowline.requests

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def _page(name: str) -> str:
    """Return the text of a page under docs/."""
    return (DOCS / name).read_text(encoding="utf-8")


def _tables(text: str) -> dict[str, list[str]]:
    """Return the first column of the first table under each heading of a Markdown page.

    Keys are the headings' text with backticks removed; values are the first cells of the
    table's body rows, backticks removed.
    """
    tables: dict[str, list[str]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip().strip("`")
        elif line.startswith("|") and not re.match(r"\|[-:| ]+\|$", line):
            cells = tables.setdefault(heading, [])
            cells.append(line.split("|")[1].strip().replace("`", ""))
    return {h: rows[1:] for h, rows in tables.items()}  # rows[0] is the header row


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
    assert len(PYTHON_BLOCKS) >= 3


def test_the_readme_is_a_front_door() -> None:
    """The README stays short (at most 300 lines); the reference lives under docs/."""
    assert len(README.splitlines()) <= 300


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


@pytest.mark.parametrize("module", [nowline, nowline.matchers, nowline.requests])
def test_all_is_sorted_and_resolves(module: object) -> None:
    """__all__ is sorted isort-style (constants, classes, functions) and every name exists."""
    names = list(module.__all__)  # type: ignore[attr-defined]
    assert names == sorted(
        names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
    for name in names:
        assert hasattr(module, name), name


PUBLIC = [(nowline, n) for n in nowline.__all__]
PUBLIC += [(nowline.requests, n) for n in nowline.requests.__all__]


@pytest.mark.parametrize(("module", "name"), PUBLIC)
def test_public_name_is_documented(module: object, name: str) -> None:
    """Every public name (of nowline and its request layer) is on the API page, with a docstring."""
    assert f"`{name}`" in _page("api.md")
    obj = getattr(module, name)
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


# ----------------------------------------------------------------- the docs site

MODELS = [
    "Recall",
    "Hit",
    "NotCovered",
    "CorrectionRef",
    "CorrectionReport",
    "CorrectionSummary",
    "CorrectionChange",
    "RepairReport",
    "Trip",
    "Occurrence",
    "Preview",
]


def _fields(name: str) -> list[str]:
    """Return a result model's fields in order (Preview, a list, has annotated attributes)."""
    model = getattr(nowline.models, name)
    if hasattr(model, "model_fields"):
        return list(model.model_fields)
    return list(model.__annotations__)


def test_every_result_model_has_a_table() -> None:
    """The API page has a table of fields for every model of nowline.models (not its enums)."""
    public = {
        n
        for n in nowline.models.__all__
        if n != "Role"
        and n[0].isupper()
        and not n.isupper()
        and not issubclass(getattr(nowline.models, n), enum.Enum)
    }
    assert set(MODELS) == public


@pytest.mark.parametrize("name", MODELS)
def test_api_table_matches_the_model(name: str) -> None:
    """The API page's table of a model lists exactly its fields, in order."""
    tables = _tables(_page("api.md"))
    assert name in tables, f"docs/api.md has no table under a heading `{name}`"
    assert tables[name] == _fields(name)


def test_api_summary_row_names_real_fields() -> None:
    """The public-names row of CorrectionSummary lists its real fields, in order."""
    row = next(line for line in _page("api.md").splitlines() if line.startswith("| `CorrectionS"))
    listed = row.split("|")[2].split(":", 1)[1].split("(")[0]
    assert [f.strip() for f in listed.split(",")] == _fields("CorrectionSummary")


def _gen_cli() -> ModuleType:
    """Import docs/gen_cli.py, the generator of the CLI reference."""
    spec = importlib.util.spec_from_file_location("gen_cli", DOCS / "gen_cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_the_generated_page() -> None:
    """docs/cli.md is what docs/gen_cli.py writes from the typer app (run it after a CLI change)."""
    assert _page("cli.md") == _gen_cli().render(), "docs/cli.md is stale: python docs/gen_cli.py"


def test_cli_reference_documents_every_command_and_option() -> None:
    """Every command and every visible option of the nowline app has its entry in docs/cli.md."""
    import typer.main

    from nowline.surfaces.cli import app

    page = _page("cli.md")
    group = typer.main.get_command(app)
    missing = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        section = page.split(f"## `nowline {name}`\n", 1)
        if len(section) < 2:
            missing.append(name)
            continue
        body = section[1].split("\n## ", 1)[0]
        for param in command.params:
            names = [*param.opts, *param.secondary_opts]
            if param.param_type_name == "argument":
                names = [param.metavar or param.name.upper()]
            missing += [f"{name} {n}" for n in names if not param.hidden and f"{n}" not in body]
    assert missing == []


def test_the_command_line_page_shows_every_command() -> None:
    """docs/command-line.md's overview block runs each command of the nowline app once or more."""
    import typer.main

    from nowline.surfaces.cli import app

    block = re.search(r"```sh\n(.*?)```", _page("command-line.md"), re.S)
    assert block is not None
    shown = set(re.findall(r"^nowline ([\w-]+)", block.group(1), re.M))
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert sorted(commands - shown) == [] and sorted(shown - commands) == []


INDEX_INSTALL = re.compile(r"""(?:^|\s)['"]?nowline(?:\[[^\]]*\])?['"]?(?:\s|$)""")
"""``nowline`` or ``nowline[extra]`` as a pip argument: a name to look up on a package index."""


@pytest.mark.parametrize(
    "path",
    [ROOT / "README.md", *PAGES, *sorted((ROOT / "examples").glob("*"))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_install_line_asks_an_index_for_nowline(path: Path) -> None:
    """Every pip line installs nowline from a checkout or a path: no package index has it."""
    text = path.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if re.search(r"\bpip3? install\b", line)]
    bad = [line for line in lines if INDEX_INSTALL.search(line.split("pip", 1)[1].split(" #")[0])]
    assert bad == []


def test_configuration_table_lists_every_wrap_option() -> None:
    """Every keyword of nowline.wrap() has a row in the configuration table."""
    rows = {
        cell
        for row in _tables(_page("configuration.md"))["Configuration"]
        for cell in row.split(", ")
    }
    options = [p for p in inspect.signature(nowline.wrap).parameters if p != "target"]
    assert [o for o in options if o not in rows] == []


def test_configuration_table_lists_every_environment_variable() -> None:
    """Every NOWLINE_ environment variable named in the package has a row in the table."""
    rows = {
        cell
        for row in _tables(_page("configuration.md"))["Configuration"]
        for cell in row.split(", ")
    }
    named = set()
    for folder in ("plugin", "matchers"):
        for path in (ROOT / folder).rglob("*.py"):
            named |= set(re.findall(r"\bNOWLINE_[A-Z][A-Z_]*[A-Z]\b", path.read_text("utf-8")))
    assert named and sorted(named - rows) == []


def test_every_benchmark_result_is_included_once() -> None:
    """Each bench/results/*.md is included by exactly one benchmarks page, never copied."""
    pages = list((DOCS / "benchmarks").glob("*.md"))
    for result in sorted((ROOT / "bench" / "results").glob("*.md")):
        include = f'--8<-- "bench/results/{result.name}"'
        assert sum(include in p.read_text(encoding="utf-8") for p in pages) == 1, result.name
    tables = [line for p in PAGES for line in p.read_text(encoding="utf-8").splitlines()]
    for result in sorted((ROOT / "bench" / "results").glob("*.md")):
        rows = [
            line
            for line in result.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and any(c.isdigit() for c in line)
        ]
        assert not set(rows) & set(tables), f"a row of {result.name} is copied into docs/"


def test_every_page_is_in_the_nav_or_named_in_mkdocs_yml() -> None:
    """mkdocs.yml names every page under docs/ (a new page needs a place in the nav)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [str(p.relative_to(DOCS)) for p in PAGES if str(p.relative_to(DOCS)) not in config]
    assert missing == []


RESULTS = sorted((ROOT / "bench" / "results").glob("*.md"))  # included by the benchmark pages


@pytest.mark.parametrize(
    "path",
    [ROOT / "README.md", *PAGES, *RESULTS],
    ids=["README.md", *[str(p.relative_to(ROOT)) for p in [*PAGES, *RESULTS]]],
)
def test_docs_refer_to_nothing_users_lack(path: Path) -> None:
    """No page (nor an included result) cites the contract, a round, an issue, or ../shared."""
    text = path.read_text(encoding="utf-8")
    for phrase in ("DESIGN", "../shared", "this round", "last round", "first round"):
        assert phrase not in text, phrase
    assert re.search(r"(?i)\bissues? \d", text) is None


def test_readme_links_reach_existing_files() -> None:
    """Every relative link of the README names a file of the repository."""
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    relative = [t for t in targets if "://" not in t]
    assert relative and [t for t in relative if not (ROOT / t).exists()] == []
