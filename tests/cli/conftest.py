"""Fixtures for the CLI tests: a seeded store made in-process with the fake embedder."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import nowline
from nowline.surfaces.cli import app

UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
CHANNEL = "The Slack channel #ufo-dev was renamed to #ufo-core."
MEMORIES = {
    "pr": "metalcraftai/ufo — PR #1705 passed review.",
    "slack": "Subscribed to #ufo-dev, the Slack channel for metalcraftai/ufo.",
    "clone": "Clone with git clone https://github.com/metalcraftai/ufo.git",
    "hosted": "metalcraftai/ufo-hosted deploys every Friday.",
    "new": "ufo-ai/ufo — release 0.9 tagged.",
}


@pytest.fixture
def seeded(memory: nowline.Collection, store_path: str) -> str:
    """Return the path of a store with five memories and two corrections (fake embedder)."""
    for rid, text in MEMORIES.items():
        memory.remember(text, id=rid, observed_at="2025-01-01T00:00:00Z")
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move", observed_at="2025-02-01")
    memory.correct(CHANNEL, deprecates=["#ufo-dev"], id="chan", observed_at="2025-03-01")
    return store_path


def invoke(*args: str) -> Result:
    """Run ``nowline ARGS`` in-process and return the result."""
    return CliRunner().invoke(app, list(args))


def from_cli_json(data: Any) -> Any:
    """Return CLI JSON with its ISO 8601 times swapped back for the epoch (the models' form)."""
    if isinstance(data, list):
        return [from_cli_json(item) for item in data]
    if not isinstance(data, dict):
        return data
    out = {}
    for key, value in data.items():
        if key.endswith("_epoch"):
            continue
        out[key] = data[f"{key}_epoch"] if f"{key}_epoch" in data else from_cli_json(value)
    return out


def recall_packet(stdout: str) -> nowline.Recall:
    """Return the evidence packet that ``nowline recall --json`` printed."""
    return nowline.Recall.model_validate(from_cli_json(json.loads(stdout)))


def invoke_json(*args: str) -> Any:
    """Run ``nowline ARGS --json``, check it succeeded, and return the parsed output."""
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)
