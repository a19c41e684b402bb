"""Tests of the harness that runs langchain-chroma's suite through nowline (not the suite)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import chromadb
import pytest

import nowline

HERE = Path(__file__).resolve().parent


def _plugin() -> object:
    """Import the plugin module from this folder under its own name."""
    spec = importlib.util.spec_from_file_location("lc_suite_plugin", HERE / "lc_suite_plugin.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("lc_suite_plugin", module)
    spec.loader.exec_module(module)
    return module


def test_differences_file_parses() -> None:
    """DIFFERENCES.md reads as a mapping of listed tests (none listed today)."""
    assert _plugin().read_differences() == {}  # type: ignore[attr-defined]


def test_wrapping_factory_returns_a_wrapped_client(tmp_path: Path) -> None:
    """A factory replaced by the plugin returns a nowline client that is a chromadb Client."""
    build = _plugin()._wrapping(chromadb.PersistentClient, "t")  # type: ignore[attr-defined]
    client = build(path=str(tmp_path / "s"))
    assert isinstance(client, nowline.Client)
    assert isinstance(client, chromadb.ClientCreator)


def test_run_fetches_nothing_when_the_sdist_is_unpacked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run.sdist() reuses an unpacked sdist without calling pip."""
    spec = importlib.util.spec_from_file_location("lc_suite_run", HERE / "run.py")
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    (tmp_path / "langchain_chroma-9.9.9" / "tests").mkdir(parents=True)
    monkeypatch.setattr(run, "BUILD", tmp_path)

    def no_pip(*args: object, **kwargs: object) -> None:
        raise AssertionError("pip was called")

    monkeypatch.setattr(run.subprocess, "check_call", no_pip)
    assert run.sdist("9.9.9") == tmp_path / "langchain_chroma-9.9.9"
