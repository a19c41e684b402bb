"""The package's shape: one home per rule, private helpers, adapters on public names only.

These read the source (``ast``), so they hold whatever the tests exercise: every module has an
explicit ``__all__``; no module imports a private name (``_x``) of another module; the
adapters (CLI, MCP server, LangChain, tools, prompts, the receiver) import only nowline's
public surface; the rules that must stay free of I/O (validation, records, links, assembly,
registry, rendering, the matcher) import neither chromadb's clients nor the store layer.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = {"nowline": ROOT / "plugin", "nowline.matchers": ROOT / "matchers"}
ADAPTERS = ["cli", "mcp_server", "langchain", "tools", "prompts", "serve"]
PUBLIC_MODULES = {
    "nowline",
    "nowline.render",
    "nowline.models",
    "nowline.errors",
    "nowline.matchers",
    "nowline.hook",
    "nowline.scan",
    "nowline.ingest",
    "nowline.github_events",
    "nowline.stores",
    "nowline.jsonl",
}
PUBLIC_MODULES |= {f"nowline.{name}" for name in ADAPTERS} | {"nowline.embedding"}
PURE_RULES = [
    "_validate",
    "_records",
    "_links",
    "_assembly",
    "_registry",
    "render",
    "_generic",
    "hook",
]


def _modules() -> dict[str, Path]:
    """Return every module of the package by dotted name."""
    out = {}
    for package, folder in PACKAGE.items():
        for path in sorted(folder.glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            out[name] = path
    return out


def _imports(path: Path, package: str) -> list[tuple[str, list[str]]]:
    """Return (absolute module, imported names) for every import of a module's source."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    base = package
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base.split(".")
                parts = parts[: len(parts) - node.level + 1]
                module = ".".join([*parts, node.module] if node.module else parts)
            else:
                module = node.module or ""
            out.append((module, [alias.name for alias in node.names]))
    return out


def _package_of(name: str) -> str:
    """Return the package a module belongs to."""
    return name if name in PACKAGE else name.rsplit(".", 1)[0]


@pytest.mark.parametrize("name", sorted(_modules()))
def test_every_module_declares_its_public_names(name: str) -> None:
    """Each module has an explicit ``__all__`` (ruff keeps it sorted)."""
    tree = ast.parse(_modules()[name].read_text(encoding="utf-8"))
    names = [
        target.id
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    ]
    assert "__all__" in names


@pytest.mark.parametrize("name", sorted(_modules()))
def test_no_module_imports_a_private_name(name: str) -> None:
    """A private helper used by another module belongs in a shared home with a public name."""
    for module, names in _imports(_modules()[name], _package_of(name)):
        if not module.startswith("nowline"):
            continue
        private = [n for n in names if n.startswith("_") and n != "__version__"]
        allowed_modules = {"_records", "_flows", "_snapshot", "_foldtable", "_embedding", "_verbs"}
        private = [n for n in private if n not in allowed_modules]
        assert not private, (name, module, private)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_adapters_use_public_names_only(adapter: str) -> None:
    """The CLI, MCP server, LangChain store, tools, prompts and receiver use the public API."""
    for module, names in _imports(PACKAGE["nowline"] / f"{adapter}.py", "nowline"):
        if not module.startswith("nowline"):
            continue
        assert module in PUBLIC_MODULES, (adapter, module)
        assert not any(n.startswith("_") and n != "__version__" for n in names), (adapter, names)


@pytest.mark.parametrize("rule", PURE_RULES)
def test_rules_do_no_io(rule: str) -> None:
    """The rules import no chromadb client and not the store layer: records in, decisions out."""
    for module, names in _imports(PACKAGE["nowline"] / f"{rule}.py", "nowline"):
        assert module not in ("nowline._store", "nowline._flows", "nowline.collection"), module
        assert not module.startswith(("chromadb.api.client", "chromadb.api.models")) or (
            module == "chromadb.api.models.CollectionCommon" and names == ["validation_context"]
        ), (rule, module)


def test_importing_nowline_loads_no_heavy_module() -> None:
    """``import nowline`` loads no chromadb, torch, sentence-transformers or wordfreq."""
    code = (
        "import sys, nowline; "
        "print(sorted(m for m in ('chromadb', 'torch', 'sentence_transformers', 'wordfreq') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_design_card_shape_is_in_the_file_names() -> None:
    """Wrapper -> links in metadata -> automaton -> post-retrieval assembly, one module each."""
    files = {p.stem for p in PACKAGE["nowline"].glob("*.py")} | {"matchers"}
    assert {"collection", "client", "_links", "_registry", "matchers", "_assembly"} <= files


def _string_literals(path: Path) -> list[str]:
    """Return every string constant of a module's code (docstrings left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


# The bookkeeping keys (``nowline_role`` …) are named in _records.py alone; the role names in
# models.py (``Role``, ``CURRENT`` …) and where _records.py stores them. "retracted" is also a
# line kind, a change kind and a status, so it is not searched for.
KEY_HOMES = {"nowline._records"}
ROLE_HOMES = {"nowline.models", "nowline._records"}
ROLE_NAMES = {"current", "historical", "transition"}


@pytest.mark.parametrize("name", sorted(_modules()))
def test_bookkeeping_keys_are_named_only_in_their_home(name: str) -> None:
    """No module but _records.py spells a ``nowline_`` metadata key: the others use its names."""
    if name in KEY_HOMES:
        return
    found = [s for s in _string_literals(_modules()[name]) if s.startswith("nowline_")]
    assert not found, (name, found)


@pytest.mark.parametrize("name", sorted(_modules()))
def test_role_names_are_spelled_only_in_their_home(name: str) -> None:
    """Role names come from nowline.models (``CURRENT``, ``HISTORICAL``, ``TRANSITION``)."""
    if name in ROLE_HOMES:
        return
    found = [s for s in _string_literals(_modules()[name]) if s in ROLE_NAMES]
    assert not found, (name, found)
