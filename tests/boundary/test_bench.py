"""Smoke runs of bench/hook.py and bench/scan.py: each runs at smoke size and writes its report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.boundary.conftest import ROOT


def test_the_hook_and_scan_benchmarks_run_and_report(tmp_path: Path) -> None:
    """Both scripts finish with --smoke and write JSON with every case and a markdown table."""
    env = {**os.environ, "NOWLINE_BENCH_QUIET": "1", "HF_HUB_OFFLINE": "1"}
    procs = {
        name: subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / f"{name}.py"), "--smoke", "--out", str(tmp_path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for name in ("hook", "scan")
    }
    for name, proc in procs.items():
        _, err = proc.communicate(timeout=400)
        assert proc.returncode == 0, (name, err[-3000:])
    hook = json.loads((tmp_path / "hook.json").read_text(encoding="utf-8"))
    assert set(hook["cases"]) == {
        "import chromadb",
        "nowline check",
        "hook: stale call (deny)",
        "hook: current call",
        "hook: 1 MB result",
        "hook: 1 MB stale write (deny)",
        "nowline check, full path",
        "hook: current call, full path",
    }
    assert all(c["wall_s"] > 0 for c in hook["cases"].values())
    scan = json.loads((tmp_path / "scan.json").read_text(encoding="utf-8"))
    assert scan["cases"]["nowline scan"]["found"] == "320 findings in 40 files"
    assert scan["cases"]["raw pyahocorasick"]["mb_per_s"] > 0
    assert "| nowline scan |" in (tmp_path / "scan.md").read_text(encoding="utf-8")
