"""The scope rule is decided once: a store whose corrections are scoped needs the caller's scope.

A collection wrapped without ``scope_key`` whose corrections all carry ``user_id`` ran
``Collection.check(text)`` unscoped (it asked only for the wrapper's own key), while
``nowline check`` and the ``check`` tool refused. Every surface now asks the one rule,
``nowline.requests.scope_needed``, and all four refuse alike, naming the key.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import chromadb
import mcp.types as types
import pytest
from mcp import Client

import nowline
from nowline.surfaces.mcp_server import build_server
from nowline.surfaces.tools import run_tool
from tests.cli.conftest import invoke
from tests.conftest import FakeEmbedding

MOVE = "UFO core moved from metalcraftai/ufo to ufo-ai/ufo."


@pytest.fixture
def unscoped_view(tmp_path: Path) -> tuple[str, nowline.Collection]:
    """Return a store's path and its collection wrapped WITHOUT a scope key.

    The store's corrections were written by a scoped writer, so they all carry ``user_id``.
    """
    path = str(tmp_path / "store")
    raw = chromadb.PersistentClient(path=path).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    writer = nowline.wrap(raw, scope_key="user_id")
    writer.correct(MOVE, deprecates=["metalcraftai/ufo"], metadata={"user_id": "alice"})
    view = nowline.wrap(raw)
    assert view.scope_key is None and view.scope_keys == {"user_id"}
    return path, view


def test_the_library_refuses_an_unscoped_check(
    unscoped_view: tuple[str, nowline.Collection],
) -> None:
    """Collection.check without the scope is refused, naming the key; with it, it trips."""
    _, view = unscoped_view
    with pytest.raises(nowline.InvalidInput, match="'user_id'"):
        view.check("git clone metalcraftai/ufo")
    assert view.check("git clone metalcraftai/ufo", metadata={"user_id": "alice"})
    assert not view.check("git clone metalcraftai/ufo", metadata={"user_id": "bob"})


def test_the_cli_refuses_an_unscoped_check(unscoped_view: tuple[str, nowline.Collection]) -> None:
    """`nowline check` without --scope is a usage error naming the key."""
    path, _ = unscoped_view
    result = invoke("check", path, "git clone metalcraftai/ufo")
    assert result.exit_code == 2 and "'user_id'" in result.stderr


def test_the_tools_refuse_an_unscoped_check(unscoped_view: tuple[str, nowline.Collection]) -> None:
    """The check tool without a bound scope is an error result naming the key."""
    _, view = unscoped_view
    result = run_tool(view, "check", {"text": "git clone metalcraftai/ufo"})
    assert result.is_error and "'user_id'" in result.text


def test_the_mcp_server_refuses_an_unscoped_check(
    unscoped_view: tuple[str, nowline.Collection],
) -> None:
    """Over MCP, the check tool without a bound scope is an error result naming the key."""
    _, view = unscoped_view
    got: list[types.CallToolResult] = []

    async def main() -> None:
        async with Client(build_server(view)) as client:
            got.append(await client.call_tool("check", {"text": "git clone metalcraftai/ufo"}))

    anyio.run(main)
    block = got[0].content[0]
    assert got[0].is_error and isinstance(block, types.TextContent) and "'user_id'" in block.text
