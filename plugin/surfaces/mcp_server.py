"""An MCP server that gives a model nowline-backed memory tools, over stdio.

Start it with ``nowline mcp --path PATH`` (a local store) or ``nowline mcp --url URL`` (a
Chroma server, which several processes can share) and register that command with an MCP
client (see ``examples/mcp_client_config.md``). It offers the six tools of
:mod:`nowline.tools` (``remember``, ``correct``, ``recall``, ``preview``, ``check``,
``retract``), whose input schemas are the JSON schemas of their pydantic models, and it sends
:data:`prompts.SYSTEM_PROMPT` as the server's instructions (and as the prompt
``nowline-memory``), since guidance in the system prompt is what makes a model fill
``deprecates`` well.

Every tool returns one text block, written for the model to read, and a structured result
for programs: for ``recall`` the text is the rendered context block (each outdated memory with
its ``now:`` line beneath it) and the structured result is the evidence packet (ids, roles,
times), which conforms to the tool's output schema. The packet is deliberately not repeated
as JSON text: the MCP specification suggests that copy for backwards compatibility (a SHOULD),
but many hosts pass every text block to the model, and the copy costs about seven times the
tokens of the context block while telling the model nothing it should act on. A client that
predates structured content still gets the context block, which is what its model needs.
Mistakes the model can fix come back as tool results with ``isError`` set and a message that
names only the tool's fields; an unknown tool is a protocol error (``-32602``), as the
specification lists it.

Against a Chroma server (``nowline mcp --url URL``, or any collection whose client is a
``chromadb.HttpClient``) the tools run on the :class:`nowline.AsyncCollection` of the same
collection, over ``chromadb.AsyncHttpClient`` with the same connection settings (see
:func:`async_twin`): a tool call awaits its Chroma requests on the server's event loop, and
only embedding and large matcher scans go to worker threads, so calls run concurrently. A local
store (``--path``) has no async client; its calls run one at a time in a worker thread.

It offers one resource, ``nowline://corrections`` (:data:`CORRECTIONS_URI`): reading it gives
what ``nowline corrections --json`` prints, as ``application/json``. Clients can subscribe to
it; the server then sends ``notifications/resources/updated`` with the URI when a correction is
added, edited, retracted or deleted, by its own tools or by any other process, so a
long-running agent can re-check its plan. Protocol versions 2024-11-05 to 2025-11-25 subscribe
with ``resources/subscribe``; 2026-07-28 removed that request, and a client subscribes by
naming the URI in a ``subscriptions/listen`` stream, on which the same notification arrives.
Both are served, and the ``resources.subscribe`` capability is advertised in both. The first
subscription starts a watcher on the collection's ``changes()``, so a change is announced
within its freshness bound plus one polling interval (the README's "Freshness";
``refresh_seconds``, 1 s by default: under 1 s measured over a Chroma server). A subscriber is
told only when what it would read has changed.

A collection with a ``scope_key`` is served one scope at a time: ``build_server(collection,
metadata={"user_id": "alice"})`` (``nowline mcp --scope alice``) makes every tool write, read
and check in that scope only (see :func:`tools.run_tool`), and the resource lists
only the corrections whose metadata holds that scope (:func:`tools.corrections_json`).

Built on the low-level server of the official MCP Python SDK (``mcp`` 2.x), so that the input
schemas are exactly the models' schemas. Needs the ``mcp`` extra:
``pip install -c constraints.txt -e '.[mcp]'`` in a checkout (torch first, as the README says).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any, cast

try:
    import anyio
    import anyio.abc
    import anyio.from_thread
    import anyio.lowlevel
    import mcp  # noqa: F401 (only to tell a missing SDK from an old one)
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
except ImportError as exc:
    from ..errors import MissingExtra

    raise MissingExtra("nowline's MCP server needs the MCP Python SDK", "mcp") from exc
try:
    import mcp.types as types
    from mcp.server import Server, ServerRequestContext
    from mcp.server.session import ServerSession
    from mcp.server.stdio import stdio_server
    from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
    from mcp.shared.exceptions import MCPError
except ImportError as exc:  # pragma: no cover - an MCP SDK older than 2.x
    from importlib.metadata import version

    from ..errors import MissingExtra

    raise MissingExtra(
        f"nowline's MCP server needs version 2 of the MCP Python SDK (mcp {version('mcp')} is "
        "installed)",
        "mcp",
    ) from exc

from ..aio import AsyncCollection
from ..client import wrap
from ..collection import Collection
from ..errors import InvalidInput
from ..models import CorrectionChange
from ..stores import open_collection
from .prompts import SYSTEM_PROMPT
from .tools import (
    TOOLS,
    ToolResult,
    corrections_json,
    corrections_json_async,
    input_schema,
    output_schema,
    run_tool,
    run_tool_async,
)

if TYPE_CHECKING:
    from chromadb.api import ClientAPI

__all__ = [
    "CORRECTIONS_URI",
    "PROMPT_NAME",
    "SERVER_NAME",
    "async_twin",
    "build_server",
    "run",
    "run_tool_async",
    "serve",
    "serve_stdio",
]

logger = logging.getLogger(__name__)

SERVER_NAME = "nowline"
"""The server's name, as MCP clients show it."""

PROMPT_NAME = "nowline-memory"
"""The prompt that carries :data:`prompts.SYSTEM_PROMPT`."""

CORRECTIONS_URI = "nowline://corrections"
"""The resource that lists the corrections, as ``nowline corrections --json`` prints them."""


def build_server(
    collection: Collection | AsyncCollection, *, metadata: Mapping[str, Any] | None = None
) -> Server[Any]:
    """Return an MCP server whose memory tools act on ``collection``.

    It also serves the resource :data:`CORRECTIONS_URI` and its subscriptions (see the module's
    docstring); each run of the server (one client over stdio) holds its own subscriptions.

    On an async collection tool calls await it (:func:`run_tool_async`) and may run
    concurrently. On a sync collection they run one at a time, in a worker thread, so a slow
    embedding never blocks the protocol.

    Args:
        collection: the nowline collection to remember into and recall from.
        metadata: the scope every tool call is bound to (see :func:`tools.run_tool`);
            required, with the key, for a collection that has a ``scope_key``.

    Returns:
        A low-level ``mcp.server.Server``; run it with :func:`serve_stdio` or any transport.
    """
    from importlib.metadata import version

    binding = dict(metadata) if metadata is not None else None
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
    names = {spec.name for spec in TOOLS}

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        """Offer the memory tools."""
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        """Run one tool call against the collection."""
        if params.name not in names:
            known = ", ".join(spec.name for spec in TOOLS)
            raise MCPError(
                types.INVALID_PARAMS, f"Unknown tool {params.name!r}; the tools are: {known}."
            )

        arguments = params.arguments or {}
        if isinstance(collection, AsyncCollection):
            result = await run_tool_async(collection, params.name, arguments, metadata=binding)
        else:
            sync = collection

            def run() -> ToolResult:
                return run_tool(sync, params.name, arguments, metadata=binding)

            result = await anyio.to_thread.run_sync(run, limiter=limiter)
        return types.CallToolResult(
            content=[types.TextContent(text=result.text)],
            structured_content=result.data,
            is_error=result.is_error,
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

    resource = types.Resource(
        uri=CORRECTIONS_URI,
        name="corrections",
        title="Corrections",
        description="Every correction of this memory, oldest first (id, text, deprecates, "
        "about, time, status, reach, newest), as `nowline corrections --json` prints it. "
        "Subscribe to hear when a correction is added, edited, retracted or deleted, then "
        "re-check work in progress against it.",
        mime_type="application/json",
    )

    @contextlib.asynccontextmanager
    async def lifespan(server: Server[_Feed]) -> AsyncIterator[_Feed]:
        """Hold the subscriptions of one run of the server; end its watcher with the run."""
        async with anyio.create_task_group() as tasks:
            feed = _Feed(collection, binding, limiter, tasks)
            try:
                yield feed
            finally:
                feed.close()
                tasks.cancel_scope.cancel()

    async def list_resources(
        ctx: ServerRequestContext[_Feed], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        """Offer the corrections resource."""
        return types.ListResourcesResult(resources=[resource])

    async def read_resource(
        ctx: ServerRequestContext[_Feed], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        """Return the corrections, as ``nowline corrections --json`` prints them."""
        _known(params.uri)
        text = await ctx.lifespan_context.read()
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(
                    uri=CORRECTIONS_URI, mime_type="application/json", text=text
                )
            ]
        )

    async def subscribe(
        ctx: ServerRequestContext[_Feed], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        """Send this client ``notifications/resources/updated`` when a correction changes."""
        _known(params.uri)
        await ctx.lifespan_context.subscribe(ctx.session)
        return types.EmptyResult()

    async def unsubscribe(
        ctx: ServerRequestContext[_Feed], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        """Stop this client's notifications."""
        _known(params.uri)
        ctx.lifespan_context.unsubscribe()
        return types.EmptyResult()

    async def listen(
        ctx: ServerRequestContext[_Feed], params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        """Serve one ``subscriptions/listen`` stream (protocol 2026-07-28 and later)."""
        return await ctx.lifespan_context.listen(ctx, params)

    return Server(
        SERVER_NAME,
        version=version("nowline"),
        instructions=SYSTEM_PROMPT,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_subscriptions_listen=listen,
    )


def _known(uri: str) -> None:
    """Refuse a resource URI other than :data:`CORRECTIONS_URI` (a protocol error)."""
    if uri != CORRECTIONS_URI:
        raise MCPError(
            types.INVALID_PARAMS,
            f"Unknown resource {uri!r}; the resource is {CORRECTIONS_URI!r}.",
        )


class _Feed:
    """The corrections resource of one server run: its readers, subscribers and watcher.

    Subscribers are of two kinds, one per era of the protocol: a client of a handshake version
    (2024-11-05 to 2025-11-25) sends ``resources/subscribe`` and gets
    ``notifications/resources/updated`` on its connection; a client of 2026-07-28 opens a
    ``subscriptions/listen`` stream whose filter names the URI, and gets the same notification
    on that stream. The first subscription of either kind starts one watcher, which iterates
    the collection's ``changes()`` (in a daemon thread for a sync collection, whose iterator
    blocks) and, after each burst of changes, reads the resource again: subscribers are told
    only when what they would read has changed (so a change in another scope tells them
    nothing).
    """

    def __init__(
        self,
        collection: Collection | AsyncCollection,
        binding: dict[str, Any] | None,
        limiter: anyio.CapacityLimiter,
        tasks: anyio.abc.TaskGroup,
    ) -> None:
        """Serve ``collection``'s corrections (in ``binding``'s scope) for one server run."""
        self._collection = collection
        self._binding = binding
        self._limiter = limiter
        self._tasks = tasks
        self._session: ServerSession | None = None  # the handshake-era subscriber
        self._bus = InMemorySubscriptionBus()
        self._listener = ListenHandler(self._bus)
        self._last: str | None = None  # the resource as it was last read or announced
        self._watching = False
        self._stop = threading.Event()

    async def read(self) -> str:
        """Return the resource's text (and remember it as what subscribers have seen)."""
        collection, binding = self._collection, self._binding
        if isinstance(collection, AsyncCollection):
            text = await corrections_json_async(collection, metadata=binding)
        else:
            sync = collection

            def run() -> str:
                return corrections_json(sync, metadata=binding)

            text = await anyio.to_thread.run_sync(run, limiter=self._limiter)
        self._last = text
        return text

    async def subscribe(self, session: ServerSession) -> None:
        """Subscribe the run's client (handshake era) and make sure the watcher runs.

        A run of the server serves one connection (stdio), so the subscriber is that
        connection; ``session`` is the request's handle on it, which sends on the
        connection's own channel.
        """
        await self._watch()
        self._session = session

    def unsubscribe(self) -> None:
        """Unsubscribe the run's client (handshake era); unsubscribing twice does nothing."""
        self._session = None

    async def listen(
        self, ctx: ServerRequestContext[Any], params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        """Serve a listen stream; the SDK's handler delivers what the bus carries."""
        if CORRECTIONS_URI in (params.notifications.resource_subscriptions or ()):
            await self._watch()
        return await self._listener(ctx, params)

    def close(self) -> None:
        """End the listen streams and the watcher thread (at its next change)."""
        self._listener.close()
        self._stop.set()

    async def _watch(self) -> None:
        """Start the watcher once, after a read that takes the store's corrections in.

        The read lists the corrections at once (a forced catch-up), so the watcher's
        baseline, taken right after, holds no change that a subscriber has not read yet.
        """
        if self._watching:
            return
        await self.read()  # a failure fails the subscription, and the next one tries again
        if self._watching:  # another subscription started it meanwhile
            return
        self._watching = True
        collection = self._collection
        if isinstance(collection, AsyncCollection):
            self._tasks.start_soon(self._watch_async, collection)
        else:
            send, receive = anyio.create_memory_object_stream[CorrectionChange](100)
            token = anyio.lowlevel.current_token()
            threading.Thread(
                target=self._pump,
                args=(collection, send, token),
                name="nowline-changes",
                daemon=True,
            ).start()
            self._tasks.start_soon(self._relay, receive)

    async def _watch_async(self, collection: AsyncCollection) -> None:
        """Announce each burst of changes an async collection observes."""
        try:
            async for _ in collection.changes():
                await self._announce()
        except Exception:  # the store went away: subscribers hear nothing more
            logger.warning("Watching the corrections failed.", exc_info=True)

    def _pump(
        self,
        collection: Collection,
        send: MemoryObjectSendStream[CorrectionChange],
        token: anyio.lowlevel.EventLoopToken,
    ) -> None:
        """Pass a sync collection's changes to the server's loop (in a daemon thread)."""
        try:
            for change in collection.changes():
                if self._stop.is_set():
                    return
                with contextlib.suppress(anyio.WouldBlock):  # a full buffer announces anyway
                    anyio.from_thread.run_sync(send.send_nowait, change, token=token)
        except Exception:  # the loop or the store went away
            if not self._stop.is_set():
                logger.warning("Watching the corrections failed.", exc_info=True)

    async def _relay(self, receive: MemoryObjectReceiveStream[CorrectionChange]) -> None:
        """Announce each burst of changes that the watcher thread passes on."""
        async for _ in receive:
            while True:  # a burst is announced once
                try:
                    receive.receive_nowait()
                except anyio.WouldBlock:
                    break
            await self._announce()

    async def _announce(self) -> None:
        """Tell every subscriber that the resource changed, if what they would read did."""
        before = self._last
        try:
            text = await self.read()
        except Exception:  # a failed read is a change the client can read for itself
            logger.warning("Reading the corrections failed.", exc_info=True)
            text = None
        if text is not None and text == before:
            return
        session = self._session
        if session is not None:
            try:
                await session.send_resource_updated(CORRECTIONS_URI)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._session = None  # the client has gone
        await self._bus.publish(ResourceUpdated(uri=CORRECTIONS_URI))


async def serve_stdio(
    collection: Collection | AsyncCollection, *, metadata: Mapping[str, Any] | None = None
) -> None:
    """Serve the memory tools of ``collection`` over this process's stdin and stdout.

    A sync collection on a Chroma server is served through its async twin (:func:`async_twin`).
    """
    served = await _for_serving(collection)
    await _serve_stdio(served, metadata)


async def _serve_stdio(
    collection: Collection | AsyncCollection, metadata: Mapping[str, Any] | None
) -> None:
    """Run the MCP server over stdio until the client disconnects."""
    server = build_server(collection, metadata=metadata)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(
    collection: Collection | AsyncCollection, *, metadata: Mapping[str, Any] | None = None
) -> None:
    """Serve the memory tools of ``collection`` over stdio until the client disconnects.

    A collection on a Chroma server is served through its async twin (:func:`async_twin`).
    The embedding model, Chroma's index and nowline's registry start loading at once (in a
    background thread, or a task of the server's loop for an async collection), so the first
    ``recall`` or ``remember`` does not wait for all of it; the time it takes is logged to
    stderr.

    Args:
        collection: the nowline collection to serve.
        metadata: the scope every tool call is bound to (see :func:`build_server`).
    """
    anyio.run(functools.partial(_serve_warm, collection, metadata))


async def _serve_warm(
    collection: Collection | AsyncCollection, metadata: Mapping[str, Any] | None
) -> None:
    """Warm the collection up in the background while serving it over stdio."""
    served = await _for_serving(collection)
    if isinstance(served, Collection):
        threading.Thread(
            target=_warm_up, args=(served,), name="nowline-warm-up", daemon=True
        ).start()
        await _serve_stdio(served, metadata)
        return
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_warm_up_async, served)
        await _serve_stdio(served, metadata)
        tasks.cancel_scope.cancel()


def run(
    path: str | None = None,
    collection: str | None = None,
    *,
    client: ClientAPI | None = None,
    scope_key: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> None:
    """Open a store and serve its memory tools over stdio (see :func:`serve`).

    The store is a local folder (``path``) or a chromadb client (``client``, e.g. from
    :func:`nowline.stores.connect`; a server's is served through the async collection). An
    empty (or missing) store gets a collection named ``memory``; a missing ``collection`` is
    created.

    Args:
        path: the folder of a local ``chromadb.PersistentClient`` store.
        collection: the collection's name (default: the store's only collection).
        client: a chromadb client to serve instead of ``path``.
        scope_key: passed to :func:`nowline.wrap` (the README's "Scope").
        metadata: the scope every tool call is bound to (see :func:`build_server`).

    Raises:
        InvalidInput: the collection cannot be chosen (see :func:`nowline.stores.open_collection`).
    """
    if (path is None) == (client is None):
        raise InvalidInput("run() takes a path or a client (one of them).")
    where: str | ClientAPI = client if client is not None else cast(str, path)
    opened = open_collection(where, collection, create=True, scope_key=scope_key)
    serve(opened, metadata=metadata)


# ------------------------------------------------------------------- server mode: async

_SYNC_HTTP = "chromadb.api.fastapi.FastAPI"
_ASYNC_HTTP = "chromadb.api.async_fastapi.AsyncFastAPI"


async def async_twin(collection: Collection) -> AsyncCollection | None:
    """Return the async collection of the same Chroma server collection, or None if local.

    The twin talks to the server through ``chromadb.AsyncHttpClient`` with the sync client's
    connection settings (host, port, SSL, headers, auth, tenant, database) and is wrapped with
    the same nowline options, including the settled ``scope_key`` and the embedding function
    (the same object, so a model loads once). A local store has no async client: None.

    Args:
        collection: a nowline collection, e.g. from :func:`nowline.stores.open_collection`.

    Returns:
        A :class:`nowline.AsyncCollection` (its corrections loaded), or None.
    """
    import chromadb

    raw = collection.raw
    settings = raw._client.get_settings()
    if settings.chroma_api_impl != _SYNC_HTTP:
        return None
    twin = settings.model_copy(update={"chroma_api_impl": _ASYNC_HTTP})
    client = await chromadb.AsyncHttpClient(
        host=str(twin.chroma_server_host),
        port=int(twin.chroma_server_http_port or 8000),
        ssl=bool(twin.chroma_server_ssl_enabled),
        headers=twin.chroma_server_headers,
        settings=twin,
        tenant=raw.tenant,
        database=raw.database,
    )
    options = {**collection.options, "embedding_function": collection.embedding_function}
    return await wrap(client, **options).get_collection(raw.name)


async def _for_serving(collection: Collection | AsyncCollection) -> Collection | AsyncCollection:
    """Return the collection to serve: a server's through its async twin, else as given."""
    if isinstance(collection, AsyncCollection):
        return collection
    twin = await async_twin(collection)
    if twin is None:
        return collection
    logger.info("nowline: serving the Chroma server's collection %r asynchronously", twin.name)
    return twin


# ------------------------------------------------------------------------- warm-up


_WARM_TEXT = "warm up"


def _warm_up(collection: Collection) -> None:
    """Make the first tool call fast: load the embedding model, the index and the registry.

    The model loads by embedding one text. A collection that holds records is then recalled
    from once (Chroma's vector index, nowline's first refresh); an empty one is only checked
    (the corrections), never queried: on a Chroma server a query that races the first write
    to a fresh collection fails (chromadb 1.5.9: "Error creating hnsw segment reader: Nothing
    found on disk"), and an empty collection has no index to load. It only reads, and the
    collection's reads are thread-safe. The time it took is logged.
    """
    start = time.perf_counter()
    try:
        function = collection.embedding_function
        if function is None:
            return
        function([_WARM_TEXT])
        if collection.count() > 0:
            collection.recall(_WARM_TEXT, n_results=1)
        else:
            collection.check(_WARM_TEXT)
    except Exception:  # the first real call reports the problem to the client
        logger.warning("Warming up the memory tools failed.", exc_info=True)
        return
    logger.info("nowline: memory tools ready in %.1f s", time.perf_counter() - start)


async def _warm_up_async(collection: AsyncCollection) -> None:
    """As :func:`_warm_up`, for an async collection, as a task of the server's loop."""
    start = time.perf_counter()
    try:
        function = collection.embedding_function
        if function is not None:
            await anyio.to_thread.run_sync(function, [_WARM_TEXT])
        if function is not None and await collection.count() > 0:
            await collection.recall(_WARM_TEXT, n_results=1)
        else:
            await collection.check(_WARM_TEXT)  # loads the corrections at least
    except Exception:
        logger.warning("Warming up the memory tools failed.", exc_info=True)
        return
    logger.info("nowline: memory tools ready in %.1f s", time.perf_counter() - start)
