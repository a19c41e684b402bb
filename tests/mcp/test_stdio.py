"""End to end: ``nowline mcp`` as a subprocess, every tool called over stdio (real model)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import chromadb
import mcp.types as types
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import nowline
from nowline.surfaces.prompts import SYSTEM_PROMPT, openai_tools

ROOT = Path(__file__).resolve().parents[2]
UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
MEMORIES = [
    "metalcraftai/ufo — PR #1705 passed review.",
    "Clone UFO core with git clone https://github.com/metalcraftai/ufo.git",
    "metalcraftai/ufo-hosted deploys every Friday.",
]


def _text(result: types.CallToolResult) -> str:
    """Return the first text block of a tool result."""
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


async def _session_run(store: str, log: Path) -> dict[str, Any]:
    """Start the server, call every tool, and return what came back."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "nowline.surfaces.cli", "mcp", "--path", store, "--create"],
        env={"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"},
        cwd=str(ROOT),
    )
    out: dict[str, Any] = {}
    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=240) as session,
        ):
            init = await session.initialize()
            out["instructions"] = init.instructions
            out["tools"] = (await session.list_tools()).tools
            out["remembered"] = [
                await session.call_tool("remember", {"body": text}) for text in MEMORIES
            ]
            out["preview"] = await session.call_tool(
                "preview", {"deprecates": ["metalcraftai/ufo"]}
            )
            out["correct"] = await session.call_tool(
                "correct", {"body": UFO, "deprecates": ["metalcraftai/ufo"]}
            )
            out["recall"] = await session.call_tool(
                "recall", {"query": "Where do I open a UFO core pull request?", "k": 4}
            )
            out["check"] = await session.call_tool(
                "check", {"text": "git clone https://github.com/metalcraftai/ufo.git"}
            )
            cid = out["correct"].structured_content["id"]
            out["retract"] = await session.call_tool("retract", {"id": cid})
            out["after"] = await session.call_tool(
                "recall", {"query": "Where do I open a UFO core pull request?", "k": 4}
            )
            out["bad"] = await session.call_tool("correct", {"body": "x", "deprecates": ["y"]})
    return out


@pytest.mark.model
def test_every_tool_over_stdio(tmp_path: Path) -> None:
    """A client starts `nowline mcp`, sees the schemas, and every tool works on a new store."""
    store = str(tmp_path / "store")
    log = tmp_path / "server.log"

    async def run() -> dict[str, Any]:
        with anyio.fail_after(600):
            return await _session_run(store, log)

    out = anyio.run(run)
    assert out["instructions"] == SYSTEM_PROMPT, log.read_text()
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in openai_tools()}
    assert {t.name: t.input_schema for t in out["tools"]} == schemas

    assert not any(r.is_error for r in out["remembered"])
    ids = [r.structured_content["id"] for r in out["remembered"]]
    assert out["preview"].structured_content["count"] == 2

    correct = out["correct"]
    assert not correct.is_error and correct.structured_content["reached"] == 2
    recall = out["recall"]
    packet = nowline.Recall.model_validate(recall.structured_content)
    assert _text(recall) == packet.render()
    assert f"- [outdated] {MEMORIES[0]}\n    now: {UFO}" in _text(recall)
    roles = {h.id: h.role for h in packet.hits}
    assert roles[ids[0]] == roles[ids[1]] == "historical" and roles[ids[2]] == "current"
    assert len(recall.content) == 1  # the context block once; the packet is structured content

    check = out["check"]
    assert not check.is_error and f"    now: {UFO}" in _text(check)
    assert (
        check.structured_content["trips"][0]["correction"]["id"] == correct.structured_content["id"]
    )

    assert not out["retract"].is_error
    assert "now:" not in _text(out["after"])
    assert out["bad"].is_error and 'body does not mention ["y"]' in _text(out["bad"])

    # The server created the store with chromadb's default model, persisted by name, not by
    # path; nowline embeds it with its offline copy of that model.
    raw = chromadb.PersistentClient(path=store).get_collection("memory")
    assert raw.configuration_json["embedding_function"]["name"] == "default"
    assert raw.count() == 4
