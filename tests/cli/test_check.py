"""``nowline check``: a git hook or CI step that exits 1 on outdated names.

A coding agent's tool hook is ``nowline hook`` (``tests/boundary/``).
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from nowline.surfaces.cli import app
from tests.cli.conftest import UFO, invoke


def test_check_trips_and_exits_1(seeded: str) -> None:
    """A stale clone URL prints the now-line and exits 1."""
    result = invoke("check", seeded, "git clone https://github.com/metalcraftai/ufo.git")
    assert result.exit_code == 1
    assert f"    now: {UFO}" in result.stdout


def test_check_passes_the_sibling(seeded: str) -> None:
    """A current name exits 0."""
    result = invoke("check", seeded, "git clone https://github.com/metalcraftai/ufo-hosted.git")
    assert result.exit_code == 0, result.output
    assert "Nothing in this text is outdated." in result.stdout


def test_check_reads_stdin_and_prints_json(seeded: str) -> None:
    """With - the text comes from stdin; --json prints the trips."""
    result = CliRunner().invoke(
        app, ["check", seeded, "-", "--json"], input="post in #ufo-dev about metalcraftai/ufo\n"
    )
    assert result.exit_code == 1
    trips = json.loads(result.stdout)
    assert sorted(t["correction"]["id"] for t in trips) == ["chan", "move"]


def test_check_rejects_bad_metadata(seeded: str) -> None:
    """--metadata must be a JSON object; a usage error exits 2."""
    result = invoke("check", seeded, "x", "--metadata", "[1]")
    assert result.exit_code == 2


def test_check_of_an_empty_text_exits_2_as_recall_does(seeded: str) -> None:
    """An empty or blank text (argument or stdin) is a usage error, as for recall."""
    assert invoke("recall", seeded, "").exit_code == 2
    assert invoke("check", seeded, "").exit_code == 2
    assert invoke("check", seeded, "  \n").exit_code == 2
    from_stdin = CliRunner().invoke(app, ["check", seeded, "-"], input="")
    assert from_stdin.exit_code == 2
    assert "empty" in from_stdin.stderr
