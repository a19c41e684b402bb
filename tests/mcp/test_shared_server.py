"""Two processes, one Chroma server: `nowline mcp --url` serves a model while the CLI fixes memory.

The set-up the README shows: ``chroma run`` owns the store, ``nowline mcp --url`` serves the
memory tools, and ``nowline retract/import --url`` run from a shell at the same time. The MCP
server sees each change within its freshness bound (``refresh_seconds``, 1 s by default).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import nowline
from tests.cli.conftest import invoke
from tests.conftest import ChromaServer, FakeEmbedding

ROOT = Path(__file__).resolve().parents[2]
BOUND = 1.0  # refresh_seconds: how stale another process's change may be, at most
PR = "metalcraftai/ufo — PR #1705 passed review."
SLACK = "Subscribed to #ufo-dev, the Slack channel for UFO core."
UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo."
CHANNEL = "The Slack channel #ufo-dev was renamed to #ufo-core."
# `nowline mcp`, with the test's fake embedding function registered first.
LAUNCH = "import tests.conftest; from nowline.surfaces.cli import main; main()"


def _text(result: types.CallToolResult) -> str:
    """Return the only text block of a tool result."""
    assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent)
    return result.content[0].text


async def _wait_out_the_bound() -> None:
    """Sleep past the freshness bound, so another process's change must be visible."""
    await anyio.sleep(BOUND + 0.5)


def test_mcp_server_sees_cli_changes_through_a_chroma_server(
    chroma_server: ChromaServer, tmp_path: Path
) -> None:
    """The CLI retracts and corrects over --url while `nowline mcp --url` serves recall."""
    database = chroma_server.new_database()
    url = f"http://{chroma_server.host}:{chroma_server.port}"
    memory = nowline.wrap(chroma_server.client(database)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory.remember(PR, id="pr")
    memory.remember(SLACK, id="slack")
    fix = tmp_path / "fix.jsonl"
    fix.write_text(
        json.dumps({"id": "chan", "text": CHANNEL, "deprecates": ["#ufo-dev"]}) + "\n",
        encoding="utf-8",
    )
    shell = ("--url", url, "--database", database)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", LAUNCH, "mcp", "--url", url, "--database", database],
        env={"HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"},
        cwd=str(ROOT),
    )
    seen: dict[str, Any] = {}

    async def session_run() -> None:
        with (tmp_path / "server.log").open("w") as log:
            async with (
                stdio_client(params, errlog=log) as (read, write),
                ClientSession(read, write, read_timeout_seconds=120) as session,
            ):
                await session.initialize()

                async def recall() -> str:
                    result = await session.call_tool("recall", {"query": "ufo PR slack", "k": 3})
                    assert not result.is_error, _text(result)
                    return _text(result)

                made = await session.call_tool(
                    "correct", {"body": UFO, "deprecates": ["metalcraftai/ufo"]}
                )
                assert not made.is_error, _text(made)
                cid = made.structured_content["id"]
                seen["corrected"] = await recall()
                seen["retract"] = invoke("retract", *shell, cid)  # the shell, meanwhile
                await _wait_out_the_bound()
                seen["retracted"] = await recall()
                seen["import"] = invoke("import", *shell, str(fix))
                await _wait_out_the_bound()
                seen["imported"] = await recall()
                seen["check"] = _text(
                    await session.call_tool("check", {"text": "post it in #ufo-dev"})
                )

    anyio.run(session_run)
    assert f"- [outdated] {PR}\n    now: {UFO}" in seen["corrected"]
    assert seen["retract"].exit_code == 0, seen["retract"].output
    assert "now:" not in seen["retracted"]
    assert seen["import"].exit_code == 0, seen["import"].output
    assert f"- [outdated] {SLACK}\n    now: {CHANNEL}" in seen["imported"]
    assert f"    now: {CHANNEL}" in seen["check"]
