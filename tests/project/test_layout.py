"""The tests' own layout (tests/README.md): every test file in a group, names without issues."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
TEST_FILES = sorted(TESTS.rglob("test_*.py"))
TRACKER = re.compile(r"issue|(?:^|_)gh\d", re.IGNORECASE)


def test_every_test_file_is_in_a_group() -> None:
    """No test file sits at the top of tests/: each goes in the folder of what it tests."""
    assert TEST_FILES
    assert [p.name for p in TESTS.glob("test_*.py")] == []


def test_every_group_is_a_package() -> None:
    """Every folder with test files has an ``__init__.py``, so same-named files never clash."""
    missing = sorted(
        str(p.parent.relative_to(TESTS))
        for p in TEST_FILES
        if not (p.parent / "__init__.py").exists()
    )
    assert missing == []


def test_names_say_what_they_test() -> None:
    """No test file, test function or test class names an issue of the tracker."""
    named = [str(p.relative_to(TESTS)) for p in TEST_FILES if TRACKER.search(p.stem)]
    for path in TEST_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            is_test = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            if is_test and node.name.lower().startswith("test") and TRACKER.search(node.name):
                named.append(f"{path.relative_to(TESTS)}::{node.name}")
    assert named == []


def test_every_rule_module_has_its_own_test_file() -> None:
    """Each module of plugin/_rules/ is tested by tests/core/test_<module>.py, found by name."""
    rules = sorted(p.stem for p in (TESTS.parent / "plugin" / "_rules").glob("*.py"))
    missing = [
        m for m in rules if m != "__init__" and not (TESTS / "core" / f"test_{m}.py").exists()
    ]
    assert missing == []


def test_the_server_backend_lists_existing_modules() -> None:
    """Every module ``--backend=http`` runs (and every skip it lists) names a file that exists."""
    from tests.conftest import ASYNC_SKIP, HTTP_SKIP, HTTP_SUITE

    root = TESTS.parent
    named = [*HTTP_SUITE, *(t.split("::")[0] for t in (*HTTP_SKIP, *ASYNC_SKIP))]
    assert [path for path in named if not (root / path).exists()] == []
