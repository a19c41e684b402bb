"""The MCP server in-process: tools, schemas, results and prompt (fake embedder, fast)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp.types as types
from mcp import Client
from mcp.shared.exceptions import MCPError

import nowline
from nowline.surfaces.mcp_server import PROMPT_NAME, build_server
from nowline.surfaces.prompts import SYSTEM_PROMPT, openai_tools
from nowline.surfaces.tools import TOOLS, output_schema

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
    """The recall tool returns the rendered block once, as its only text, and the packet."""
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
    assert not recall.is_error and len(recall.content) == 1
    packet = nowline.Recall.model_validate(recall.structured_content)
    assert _text(recall) == packet.render()
    assert f"- [outdated] metalcraftai/ufo — PR #1705 passed review.\n    now: {UFO}" in _text(
        recall
    )
    assert cid not in _text(recall)  # ids and times are for programs: structured content only
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


def test_every_tool_returns_one_text_block(memory: nowline.Collection) -> None:
    """Each tool's content is a single text block; its structured result is not repeated."""
    results: list[types.CallToolResult] = []

    async def body(client: Client) -> None:
        results.append(await client.call_tool("remember", {"body": "Deploys go to #ops."}))
        results.append(
            await client.call_tool(
                "correct", {"body": "#ops was renamed to #deploys.", "deprecates": ["#ops"]}
            )
        )
        results.append(await client.call_tool("recall", {"query": "deploys"}))
        results.append(await client.call_tool("preview", {"deprecates": ["#ops"]}))
        results.append(await client.call_tool("check", {"text": "post in #ops"}))
        results.append(await client.call_tool("retract", {"id": "nope"}))

    _with_client(memory, body)
    for result in results:
        assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent)
        assert not _text(result).lstrip().startswith("{")
    assert [r.is_error for r in results] == [False, False, False, False, False, True]


def test_unknown_tool_is_a_protocol_error(memory: nowline.Collection) -> None:
    """A call to a tool the server does not offer is a JSON-RPC error naming the tools."""
    caught: list[MCPError] = []

    async def body(client: Client) -> None:
        try:
            await client.call_tool("forget", {})
        except MCPError as exc:
            caught.append(exc)

    _with_client(memory, body)
    assert caught and caught[0].code == types.INVALID_PARAMS
    assert "Unknown tool 'forget'" in caught[0].message and "remember" in caught[0].message


def test_scoped_server_reads_and_writes_one_scope(scoped: nowline.Collection) -> None:
    """A server bound to a scope stores the scope key and recalls, checks and retracts in it."""
    scoped.remember("Bob clones metalcraftai/ufo.", id="bob", metadata={"user_id": "bob"})
    bob_fix = scoped.correct(
        "Bob: metalcraftai/ufo moved to bob/ufo.",
        deprecates=["metalcraftai/ufo"],
        metadata={"user_id": "bob"},
    ).id
    got: dict[str, types.CallToolResult] = {}

    async def body(client: Client) -> None:
        got["remember"] = await client.call_tool(
            "remember", {"body": "Alice clones metalcraftai/ufo."}
        )
        got["recall"] = await client.call_tool("recall", {"query": "clones metalcraftai/ufo"})
        got["check"] = await client.call_tool("check", {"text": "git clone metalcraftai/ufo"})
        got["retract"] = await client.call_tool("retract", {"id": bob_fix})
        got["correct"] = await client.call_tool(
            "correct",
            {
                "body": "Moved from metalcraftai/ufo to ufo-ai/ufo.",
                "deprecates": ["metalcraftai/ufo"],
            },
        )

    async def main() -> None:
        async with Client(build_server(scoped, metadata={"user_id": "alice"})) as client:
            await body(client)

    anyio.run(main)
    alice = got["remember"].structured_content["id"]
    assert (scoped.get(ids=[alice])["metadatas"] or [{}])[0] == {"user_id": "alice"}
    hits = nowline.Recall.model_validate(got["recall"].structured_content).hits
    assert [h.id for h in hits] == [alice] and hits[0].role == "current"
    assert _text(got["check"]) == "Nothing in this text is outdated."
    assert got["retract"].is_error and "No record has id" in _text(got["retract"])
    assert {c.id: c.status for c in scoped.corrections()}[bob_fix] == "active"
    fix = got["correct"].structured_content
    assert fix["reached"] == 1
    assert (scoped.get(ids=[fix["id"]])["metadatas"] or [{}])[0]["user_id"] == "alice"


def test_scoped_store_without_a_scope_is_an_error_result(scoped: nowline.Collection) -> None:
    """On a scoped store, tools without a bound scope refuse and name the key."""
    got: list[types.CallToolResult] = []

    async def body(client: Client) -> None:
        got.append(await client.call_tool("check", {"text": "metalcraftai/ufo"}))
        got.append(await client.call_tool("recall", {"query": "ufo"}))

    _with_client(scoped, body)
    for result in got:
        assert result.is_error and "'user_id'" in _text(result)
        assert "allow_stale" not in _text(result)


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
