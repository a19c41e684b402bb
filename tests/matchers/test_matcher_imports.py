"""The matcher stands alone: the standard library and pyahocorasick; nothing of the package above.

``import nowline.matchers`` runs ``nowline/__init__.py`` first, so the matcher stays light only
when that ``__init__`` loads the wrapper (chromadb, pydantic, numpy) lazily.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import nowline.matchers

# The third-party top-level modules the matcher may load, besides nowline itself.
ALLOWED_THIRD_PARTY = {"ahocorasick"}
# The nowline modules the matcher may load.
ALLOWED_NOWLINE = {
    "nowline",
    "nowline._version",
    "nowline.matchers",
    "nowline.matchers._errors",
    "nowline.matchers._gcpause",
    "nowline.matchers._matcher",
    "nowline.matchers._normalize",
}

_PROBE = """
import json, sys
before = set(sys.modules)
import nowline.matchers
new = sorted(set(sys.modules) - before)
print(json.dumps(new))
"""


def _imports(path: Path) -> list[tuple[int, str]]:
    """Return every import of a source file as (relative level, module name)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def _is_stdlib(name: str) -> bool:
    """Return whether ``name`` is a module of the standard library."""
    return name.split(".")[0] in sys.stdlib_module_names


@pytest.mark.parametrize(
    "path", sorted(Path(nowline.matchers.__file__).parent.glob("*.py")), ids=lambda p: p.name
)
def test_matcher_source_imports_only_stdlib_pyahocorasick_and_siblings(path: Path) -> None:
    """A matcher module imports the stdlib, ahocorasick and its siblings, nothing from above."""
    for level, name in _imports(path):
        if level == 0:
            assert _is_stdlib(name) or name in ALLOWED_THIRD_PARTY, name
        elif level == 1:
            assert name.startswith("_"), name  # a sibling module of the matcher package
        else:
            raise AssertionError(f"imports from the package above: {(level, name)}")


def test_importing_the_matcher_loads_no_chromadb_pydantic_or_numpy() -> None:
    """A fresh interpreter that imports nowline.matchers loads no wrapper dependency."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    new = json.loads(done.stdout)
    assert not [m for m in new if m.split(".")[0] in {"chromadb", "pydantic", "numpy"}]
    third_party = {m.split(".")[0] for m in new if not _is_stdlib(m)} - {"nowline"}
    assert third_party <= ALLOWED_THIRD_PARTY
    assert {m for m in new if m.split(".")[0] == "nowline"} <= ALLOWED_NOWLINE
