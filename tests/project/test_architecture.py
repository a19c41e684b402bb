"""The package's shape: the layers are the folders, one home per rule, private helpers.

These read the source (``ast``), so they hold whatever the tests exercise. The layers are read
from the folders, never from a hand-kept list, so a new module is checked by where it stands:

* ``matchers/`` (``nowline.matchers``): the matcher; it imports nothing else of nowline.
* ``plugin/_rules/``: the rules without I/O; no Chroma client, no I/O layer, no wrapper, no
  surface.
* ``plugin/_io/``: Chroma I/O, freshness and the flows; no wrapper and no surface.
* ``plugin/*.py``: the wrapper (collections, clients), the public models, errors and rendering,
  and the public modules that hand the rules to the surfaces; no surface.
* ``plugin/surfaces/``: the surfaces (CLI, MCP, tools, hook, scan, receiver, frameworks); they
  import public modules only: never ``_rules``, ``_io`` or a private module.

And everywhere: an explicit ``__all__``, no private name imported from another module, and no
module that imports the package's face (``nowline/__init__.py``) from inside.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = {"nowline": ROOT / "plugin", "nowline.matchers": ROOT / "matchers"}
LAYERS = ("matchers", "rules", "io", "top", "surfaces")


def _modules() -> dict[str, Path]:
    """Return every module of the package by dotted name (sub-packages included)."""
    out = {}
    for package, folder in PACKAGE.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [p for p in path.relative_to(folder).with_suffix("").parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def layer(name: str) -> str:
    """Return the layer a module stands in, read from its folder."""
    if name == "nowline.matchers" or name.startswith("nowline.matchers."):
        return "matchers"
    if name.startswith("nowline._rules"):
        return "rules"
    if name.startswith("nowline._io"):
        return "io"
    if name.startswith("nowline.surfaces"):
        return "surfaces"
    return "top"


def _package_of(name: str) -> str:
    """Return the package a module's relative imports start from."""
    return name if MODULES[name].name == "__init__.py" else name.rsplit(".", 1)[0]


@functools.cache
def _tree(path: Path) -> ast.Module:
    """Return a module's syntax tree (parsed once per run)."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def _imports(name: str) -> list[tuple[str, list[str]]]:
    """Return (absolute module, imported names) for every import of a module's source.

    ``from . import x`` where ``x`` is a module of the package counts as an import of ``x``.
    """
    tree = _tree(MODULES[name])
    base = _package_of(name)
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
            names = [alias.name for alias in node.names]
            submodules = [n for n in names if f"{module}.{n}" in MODULES]
            out += [(f"{module}.{n}", []) for n in submodules]
            rest = [n for n in names if n not in submodules]
            if rest or not names:
                out.append((module, rest))
    return out


def _nowline_imports(name: str) -> list[tuple[str, list[str]]]:
    """Return the imports of nowline's own modules (the face included)."""
    return [(m, n) for m, n in _imports(name) if m == "nowline" or m.startswith("nowline.")]


def _private(module: str) -> bool:
    """Return whether a module is private: it, or a package it is in, starts with ``_``."""
    return any(part.startswith("_") for part in module.split(".")[1:])


def test_every_module_is_in_a_layer_folder() -> None:
    """The package's folders are the layers; nothing stands outside them."""
    folders = {p.parent.relative_to(ROOT).as_posix() for p in MODULES.values()}
    assert folders == {"plugin", "plugin/_rules", "plugin/_io", "plugin/surfaces", "matchers"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_declares_its_public_names(name: str) -> None:
    """Each module has an explicit ``__all__`` (ruff keeps it sorted)."""
    tree = _tree(MODULES[name])
    names = [
        target.id
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    ]
    assert "__all__" in names


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_a_private_name(name: str) -> None:
    """A private helper used by another module belongs in a shared home with a public name."""
    for module, names in _nowline_imports(name):
        private = [n for n in names if n.startswith("_")]
        assert not private, (name, module, private)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_the_package_face(name: str) -> None:
    """The face (``nowline/__init__.py``) is for users; inside, every module imports its home."""
    if name == "nowline":
        return
    faces = [names for module, names in _nowline_imports(name) if module == "nowline"]
    assert not faces, (name, faces)


# What each layer may import of nowline, besides its own layer.
MAY_IMPORT = {
    "matchers": set(),
    "rules": {"matchers", "top-leaf"},
    "io": {"matchers", "rules", "top-leaf"},
    "top": {"matchers", "rules", "io", "top"},
    "surfaces": {"matchers", "top-public"},
}
# The public modules at the top that import no wrapper: the rules and I/O may use them.
TOP_LEAVES = {
    "nowline.errors",
    "nowline.models",
    "nowline.render",
    "nowline.terms",
    "nowline._version",
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_layer_imports_only_the_layers_below(name: str) -> None:
    """Rules import no I/O, wrapper or surface; I/O no wrapper or surface; surfaces: public."""
    own = layer(name)
    if name == "nowline.__main__":  # ``python -m nowline`` runs the command line
        assert {m for m, _ in _nowline_imports(name)} == {"nowline.surfaces.launch"}
        return
    for module, _ in _nowline_imports(name):
        if module == "nowline":
            continue  # the face: test_no_module_imports_the_package_face
        target = layer(module)
        if target == own:
            continue
        allowed = MAY_IMPORT[own]
        if target == "top" and module in TOP_LEAVES and "top-leaf" in allowed:
            continue
        if target == "top" and "top-public" in allowed:
            assert not _private(module), (name, module)
            continue
        assert target in allowed, (name, module)


@pytest.mark.parametrize("name", [n for n in sorted(MODULES) if layer(n) == "rules"])
def test_rules_use_no_chroma_client(name: str) -> None:
    """The rules import no chromadb client or collection: records in, decisions out."""
    for module, names in _imports(name):
        assert not module.startswith(("chromadb.api.client", "chromadb.api.models")) or (
            module == "chromadb.api.models.CollectionCommon" and names == ["validation_context"]
        ), (name, module)


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
    assert {
        "nowline.collection",
        "nowline.client",
        "nowline._rules.links",
        "nowline._rules.registry",
        "nowline.matchers",
        "nowline._rules.assembly",
    } <= set(MODULES)


def _string_literals(path: Path) -> list[str]:
    """Return every string constant of a module's code (docstrings left out)."""
    tree = _tree(path)
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
KEY_HOMES = {"nowline._rules.records"}
ROLE_HOMES = {"nowline.models", "nowline._rules.records"}
ROLE_NAMES = {"current", "historical", "transition"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_bookkeeping_keys_are_named_only_in_their_home(name: str) -> None:
    """No module but _records.py spells a ``nowline_`` metadata key: the others use its names."""
    if name in KEY_HOMES:
        return
    found = [s for s in _string_literals(MODULES[name]) if s.startswith("nowline_")]
    assert not found, (name, found)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_role_names_are_spelled_only_in_their_home(name: str) -> None:
    """Role names come from nowline.models (``CURRENT``, ``HISTORICAL``, ``TRANSITION``)."""
    if name in ROLE_HOMES:
        return
    found = [s for s in _string_literals(MODULES[name]) if s in ROLE_NAMES]
    assert not found, (name, found)


def test_every_documented_old_path_imports_the_module_itself() -> None:
    """The import paths before 0.3 (docs/api.md) give the new module object, in a fresh process.

    ``nowline.ingest`` pointed at ``nowline.surfaces.ingest``, which no longer exists, while
    the docs and the changelog said it was ``nowline.requests`` and kept working.
    """
    docs = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    import nowline

    moved = nowline._MOVED
    assert "nowline.ingest" in moved and all(f"`{old}`" in docs for old in moved)
    script = "\n".join(
        f"import {old}, {new}; assert {old} is {new}, {old!r}" for old, new in moved.items()
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
