"""Tests of the harness that runs chromadb's shipped suite through nowline (not the suite)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from .differences import listed_reason, read_differences

HERE = Path(__file__).resolve().parent

# chromadb's conftest imports these; the `chromadb-suite` make target needs them installed.
SUITE_MODULES = ("fastapi", "opentelemetry.instrumentation.fastapi", "psutil")


def _missing_modules() -> list[str]:
    """Return the modules chromadb's test conftest needs that are not installed."""
    missing = []
    for name in SUITE_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            missing.append(name)
    return missing


def test_differences_file_lists_the_environment_failures() -> None:
    """DIFFERENCES.md parses into its two sections, with a reason for every listed test."""
    sections = read_differences()
    assert set(sections) == {"environment", "deliberate"}
    assert "test_api.py::test_default_embedding" in sections["environment"]
    for listed in sections.values():
        for test, reason in listed.items():
            assert "::" in test
            assert reason and reason != "listed"


def test_parser_reads_bullets_only_under_the_two_headings(tmp_path: Path) -> None:
    """Bullets under other headings, and prose lines, are not read as listed tests."""
    path = tmp_path / "DIFFERENCES.md"
    path.write_text(
        "# Title\n- `test_a.py::test_prelude` not in a section\n"
        "## Environment (x)\nProse mentioning `test_b.py::test_prose`.\n"
        "- `test_b.py::test_env` needs a download\n"
        "## Notes\n- `test_c.py::test_note` only a note\n"
        "## Deliberate differences\n- `test_d.py::test_diff` - nowline batches writes\n",
        encoding="utf-8",
    )
    assert read_differences(path) == {
        "environment": {"test_b.py::test_env": "needs a download"},
        "deliberate": {"test_d.py::test_diff": "nowline batches writes"},
    }


def test_listed_reason_matches_every_parametrisation_and_nothing_else() -> None:
    """A listed test matches its parametrised ids, not tests whose names merely start alike."""
    listed = {"test_api.py::test_persist": "why"}
    assert listed_reason("chromadb/test/test_api.py::test_persist", listed) == "why"
    assert listed_reason("chromadb/test/test_api.py::test_persist[local_persist_api]", listed)
    assert listed_reason("chromadb/test/test_api.py::test_persist_index_loading", listed) is None
    assert listed_reason("chromadb/test/property/test_api.py::test_persist", listed) is None


@pytest.mark.parametrize(("mode", "wrapped"), [("wrap", True), ("off", False)])
def test_run_wraps_the_client_fixture_only_when_asked(
    tmp_path: Path, mode: str, wrapped: bool
) -> None:
    """run.py runs chromadb's own test; its `client` goes through nowline.wrap in wrap mode."""
    missing = _missing_modules()
    if missing:
        pytest.skip(f"chromadb's test conftest needs {', '.join(missing)} (see README.md)")
    done = subprocess.run(
        [
            sys.executable,
            str(HERE / "run.py"),
            f"--mode={mode}",
            f"--out={tmp_path}",
            "-q",
            "-p",
            "no:warnings",
            "-k",
            "test_heartbeat",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    cases = list(ET.parse(tmp_path / f"{mode}.xml").getroot().iter("testcase"))
    assert {case.get("name") for case in cases} == {
        "test_heartbeat[rust_sqlite_ephemeral-classic]",
        "test_heartbeat[rust_sqlite_persistent-classic]",
    }
    for case in cases:
        props = {(p.get("name"), p.get("value")) for p in case.iter("property")}
        assert (("nowline_wrapped", "client") in props) is wrapped
