"""An MCP server that gives a model nowline-backed memory tools, over stdio.

Start it with ``nowline mcp --path PATH [--collection NAME]`` and register that command with
an MCP client (see ``examples/mcp_client_config.md``). It offers the six tools of
:mod:`nowline.tools` (``remember``, ``correct``, ``recall``, ``preview``, ``check``,
``retract``), whose
input schemas are the JSON schemas of their pydantic models, and it sends
:data:`nowline.prompts.SYSTEM_PROMPT` as the server's instructions (and as the prompt
``nowline-memory``), since guidance in the system prompt is what makes a model fill
``deprecates`` well.

Every tool returns a text block for the model and a structured result: for ``recall`` the
text is the rendered context block (each outdated memory with its ``now:`` line beneath it),
the structured result is the evidence packet, and a second text block carries the packet as
JSON for clients that ignore structured content. Mistakes the model can fix come back as tool
results with ``isError`` set and a message that says what to do.

Built on the low-level server of the official MCP Python SDK (``mcp`` 2.x), so that the input
schemas are exactly the models' schemas. Needs the ``mcp`` extra:
``pip install 'nowline[mcp]'``.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

try:
    import anyio
    import mcp  # noqa: F401 (only to tell a missing SDK from an old one)
except ImportError as exc:
    raise ImportError(
        "nowline's MCP server needs the MCP Python SDK: pip install 'nowline[mcp]'"
    ) from exc
try:
    import mcp.types as types
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server
except ImportError as exc:  # pragma: no cover - an MCP SDK older than 2.x
    from importlib.metadata import version

    raise ImportError(
        f"nowline's MCP server needs version 2 of the MCP Python SDK (mcp {version('mcp')} is "
        "installed): pip install -U 'nowline[mcp]'"
    ) from exc

from nowline import Collection
from nowline.prompts import SYSTEM_PROMPT
from nowline.tools import TOOLS, input_schema, open_collection, output_schema, run_tool

__all__ = ["PROMPT_NAME", "SERVER_NAME", "build_server", "run", "serve", "serve_stdio"]

logger = logging.getLogger(__name__)

SERVER_NAME = "nowline"
"""The server's name, as MCP clients show it."""

PROMPT_NAME = "nowline-memory"
"""The prompt that carries :data:`nowline.prompts.SYSTEM_PROMPT`."""


def build_server(collection: Collection) -> Server[Any]:
    """Return an MCP server whose memory tools act on ``collection``.

    Tool calls run one at a time, in a worker thread, so a slow embedding never blocks the
    protocol.

    Args:
        collection: the nowline collection to remember into and recall from.

    Returns:
        A low-level ``mcp.server.Server``; run it with :func:`serve_stdio` or any transport.
    """
    from nowline import __version__

    limiter = anyio.CapacityLimiter(1)
    tools = [
        types.Tool(
            name=spec.name,
            description=spec.description,
            input_schema=input_schema(spec.input_model),
            output_schema=output_schema(spec.output_model),
        )
        for spec in TOOLS
    ]

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        """Offer the memory tools."""
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        """Run one tool call against the collection."""
        result = await anyio.to_thread.run_sync(
            run_tool, collection, params.name, params.arguments or {}, limiter=limiter
        )
        content: list[types.ContentBlock] = [types.TextContent(text=result.text)]
        if result.name == "recall" and result.data is not None:
            # The packet as JSON too: clients that drop structured content still get the ids.
            content.append(types.TextContent(text=_json(result.data)))
        return types.CallToolResult(
            content=content, structured_content=result.data, is_error=result.is_error
        )

    async def list_prompts(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        """Offer the memory guidance as a prompt."""
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=PROMPT_NAME,
                    description="System-prompt section: how to use the memory tools, and "
                    "how to fill deprecates when storing a correction.",
                )
            ]
        )

    async def get_prompt(
        ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        """Return the memory guidance."""
        if params.name != PROMPT_NAME:
            raise ValueError(f"Unknown prompt {params.name!r}; the prompt is {PROMPT_NAME!r}.")
        return types.GetPromptResult(
            description="How to use nowline's memory tools.",
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(text=SYSTEM_PROMPT))
            ],
        )

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=SYSTEM_PROMPT,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def _json(data: dict[str, Any]) -> str:
    """Return ``data`` as compact JSON."""
    import json

    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


async def serve_stdio(collection: Collection) -> None:
    """Serve the memory tools of ``collection`` over this process's stdin and stdout."""
    server = build_server(collection)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(collection: Collection) -> None:
    """Serve the memory tools of ``collection`` over stdio until the client disconnects.

    The embedding model starts loading in the background at once, so the first tool call
    does not wait for all of it.
    """
    threading.Thread(
        target=_warm_up, args=(collection,), name="nowline-warm-up", daemon=True
    ).start()
    anyio.run(serve_stdio, collection)


def run(path: str, collection: str | None = None, *, scope_key: str | None = None) -> None:
    """Open a local store and serve its memory tools over stdio (see :func:`serve`).

    An empty (or missing) store gets a collection named ``memory``; a missing
    ``collection`` is created.

    Args:
        path: the folder of a local ``chromadb.PersistentClient`` store.
        collection: the collection's name (default: the store's only collection).
        scope_key: passed to :func:`nowline.wrap` (DESIGN.md §7).

    Raises:
        InvalidInput: the collection cannot be chosen (see :func:`nowline.tools.open_collection`).
    """
    serve(open_collection(path, collection, create=True, scope_key=scope_key))


def _warm_up(collection: Collection) -> None:
    """Load the embedding model before the first call needs it."""
    function = collection.embedding_function
    if function is None:
        return
    try:
        function(["warm up"])
    except Exception:  # the first real call reports the problem to the client
        logger.warning("Loading the embedding function failed.", exc_info=True)
