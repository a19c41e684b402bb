"""The MCP server in-process: tools, schemas, results and prompt (fake embedder, fast)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp.types as types
from mcp import Client

import nowline
from nowline.mcp_server import PROMPT_NAME, build_server
from nowline.prompts import SYSTEM_PROMPT, openai_tools
from nowline.tools import TOOLS, output_schema

UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo."


def _with_client(memory: nowline.Collection, body: Callable[[Client], Awaitable[None]]) -> None:
    """Run ``body`` with an in-process MCP client connected to a server over ``memory``."""

    async def main() -> None:
        async with Client(build_server(memory)) as client:
            await body(client)

    anyio.run(main)


def _text(result: types.CallToolResult, i: int = 0) -> str:
    """Return the text of content block ``i``."""
    block = result.content[i]
    assert isinstance(block, types.TextContent)
    return block.text


def test_server_offers_the_tools_with_the_model_schemas(memory: nowline.Collection) -> None:
    """tools/list gives each tool's pydantic schema (as in openai_tools) and output schema."""
    seen: dict[str, Any] = {}

    async def body(client: Client) -> None:
        seen["tools"] = (await client.list_tools()).tools
        seen["instructions"] = client.instructions

    _with_client(memory, body)
    tools = seen["tools"]
    expected = {t["function"]["name"]: t["function"] for t in openai_tools()}
    assert [t.name for t in tools] == list(expected)
    for tool in tools:
        assert tool.input_schema == expected[tool.name]["parameters"]
        assert tool.description == expected[tool.name]["description"]
        spec = next(s for s in TOOLS if s.name == tool.name)
        assert tool.output_schema == output_schema(spec.output_model)
    assert seen["instructions"] == SYSTEM_PROMPT


def test_recall_returns_context_and_evidence(memory: nowline.Collection) -> None:
    """The recall tool returns the rendered block, the packet as JSON, and structured content."""
    memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
    results: dict[str, types.CallToolResult] = {}

    async def body(client: Client) -> None:
        results["correct"] = await client.call_tool(
            "correct", {"body": UFO, "deprecates": ["metalcraftai/ufo"]}
        )
        results["recall"] = await client.call_tool("recall", {"query": "ufo PR", "k": 2})

    _with_client(memory, body)
    assert not results["correct"].is_error
    cid = results["correct"].structured_content["id"]
    recall = results["recall"]
    assert not recall.is_error and len(recall.content) == 2
    packet = nowline.Recall.model_validate(recall.structured_content)
    assert _text(recall) == packet.render()
    assert f"- metalcraftai/ufo — PR #1705 passed review.\n    now: {UFO}" in _text(recall)
    assert json.loads(_text(recall, 1)) == recall.structured_content
    pr = next(h for h in packet.hits if h.id == "pr")
    assert pr.role == "historical" and [c.id for c in pr.now] == [cid]


def test_tool_mistakes_are_error_results(memory: nowline.Collection) -> None:
    """A bad call comes back with isError and the reason, and the session goes on."""
    results: list[types.CallToolResult] = []

    async def body(client: Client) -> None:
        results.append(await client.call_tool("correct", {"body": "Moved.", "deprecates": []}))
        results.append(await client.call_tool("retract", {"id": "nope"}))
        results.append(await client.call_tool("remember", {"body": "Still works."}))

    _with_client(memory, body)
    assert results[0].is_error and "deprecates" in _text(results[0])
    assert results[1].is_error and "No record has id 'nope'" in _text(results[1])
    assert not results[2].is_error and memory.count() == 1


def test_prompt_carries_the_system_prompt(memory: nowline.Collection) -> None:
    """The server offers the guidance as the prompt nowline-memory."""
    got: dict[str, Any] = {}

    async def body(client: Client) -> None:
        got["list"] = await client.list_prompts()
        got["prompt"] = await client.get_prompt(PROMPT_NAME)

    _with_client(memory, body)
    assert [p.name for p in got["list"].prompts] == [PROMPT_NAME]
    message = got["prompt"].messages[0]
    assert isinstance(message.content, types.TextContent)
    assert message.content.text == SYSTEM_PROMPT
