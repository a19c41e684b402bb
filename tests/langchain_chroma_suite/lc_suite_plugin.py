"""Pytest plugin: run langchain-chroma's own test suite with every chromadb client wrapped.

Load it with ``-p lc_suite_plugin`` with this folder on ``PYTHONPATH`` (``run.py`` does: the
sdist's own ``tests`` package must not meet the project's). langchain-chroma's
tests (its sdist's ``tests/``) are used as they are, never edited. langchain-chroma builds its
clients itself (``chromadb.Client``, ``chromadb.PersistentClient``, ``chromadb.HttpClient``,
``chromadb.CloudClient``), and its tests' ``client`` fixture calls ``chromadb.Client``, so the
plugin acts one level lower than a fixture: for every test, an autouse fixture replaces
chromadb's client factory functions by ones that return ``nowline.wrap(client)``, and puts them
back after the test. Only ``nowline.wrap`` is used from nowline.

Mode (``--nowline-mode`` or ``NOWLINE_SUITE_MODE``): ``wrap`` (default) or ``off`` (nothing is
wrapped: the baseline on bare chromadb). Tests listed in DIFFERENCES.md are marked as expected
failures when clients are wrapped (strict: a listed test that passes fails the run).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

MODES = ("wrap", "off")
DIFFERENCES = Path(__file__).with_name("DIFFERENCES.md")
# chromadb's public functions that build a client; each is replaced for the test's duration.
FACTORIES = ("Client", "EphemeralClient", "PersistentClient", "HttpClient", "CloudClient")


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--nowline-mode``."""
    parser.addoption(
        "--nowline-mode",
        choices=MODES,
        default=os.environ.get("NOWLINE_SUITE_MODE", "wrap"),
        help="wrap (default): every chromadb client through nowline.wrap; off: bare chromadb",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests DIFFERENCES.md lists as strict expected failures (wrap mode only)."""
    if config.getoption("--nowline-mode") == "off":
        return
    listed = read_differences()
    for item in items:
        test = item.nodeid.split("[", 1)[0]
        reason = next((r for name, r in listed.items() if test.endswith(name)), None)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(strict=True, reason=reason))


def read_differences(path: Path = DIFFERENCES) -> dict[str, str]:
    """Return the tests DIFFERENCES.md lists (``- `path::test` reason`` bullets) and reasons."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"- `([^`]+\.py::[^`]+)`\s*(.*)", line)
        if match:
            found[match.group(1)] = match.group(2).strip() or "listed"
    return found


# How many clients went through nowline, and in how many tests: printed at the end of the run.
_wrapped: dict[str, int] = {}


def _wrapping(factory: Callable[..., Any], test: str) -> Callable[..., Any]:
    """Return ``factory`` with its clients wrapped by ``nowline.wrap``."""
    import nowline

    @functools.wraps(factory)
    def build(*args: Any, **kwargs: Any) -> Any:
        """Build the client as chromadb does, then wrap it."""
        client = nowline.wrap(factory(*args, **kwargs))
        _wrapped[test] = _wrapped.get(test, 0) + 1
        return client

    return build


@pytest.fixture(autouse=True)
def _clients_through_nowline(request: pytest.FixtureRequest) -> Iterator[None]:
    """Make every chromadb client the test creates come back wrapped by nowline."""
    if request.config.getoption("--nowline-mode") == "off":
        yield
        return
    import chromadb

    originals = {name: getattr(chromadb, name) for name in FACTORIES}
    for name, factory in originals.items():
        setattr(chromadb, name, _wrapping(factory, request.node.nodeid))
    try:
        yield
    finally:
        for name, factory in originals.items():
            setattr(chromadb, name, factory)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how many clients went through nowline, in how many tests."""
    if _wrapped:
        terminalreporter.write_line(
            f"nowline: {sum(_wrapped.values())} chromadb clients wrapped in {len(_wrapped)} tests"
        )
