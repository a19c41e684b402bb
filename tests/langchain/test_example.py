"""The LangChain example prints the retrieved context before and after a correction."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "langchain_retriever.py"


@pytest.mark.model
def test_example_shows_now_lines_after_the_correction(capsys: pytest.CaptureFixture[str]) -> None:
    """Before the correction no now-line shows; after it, each stale memory carries one."""
    spec = importlib.util.spec_from_file_location("example_langchain_retriever", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main()
    out = capsys.readouterr().out
    before, after = out.split("=== After the correction ===")
    after, stored = after.split("=== get_by_ids returns what was stored ===")
    now = f"\n    now: {module.CORRECTION}"
    assert module.MEMORIES["pr"] in before and "now:" not in before
    assert f"- {module.MEMORIES['pr']}{now}\n" in after
    assert f"- {module.MEMORIES['clone']}{now}\n" in after
    assert f"- {module.MEMORIES['hosted']}\n" in after
    assert f"- {module.MEMORIES['hosted']}{now}" not in after
    assert f"pr: {module.MEMORIES['pr']}\n" in stored and "now:" not in stored
