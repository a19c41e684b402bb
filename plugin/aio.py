"""Async nowline: ``AsyncCollection`` and ``AsyncClient``, for chromadb's ``AsyncHttpClient``.

They are chromadb's async types (``isinstance`` holds) and follow exactly the rules of the sync
collection: both run the same read and write paths (:mod:`nowline._flows`), prepared by the same
validate-and-prepare steps (:mod:`nowline._facade`). Only the I/O differs: here every Chroma
call is awaited, and CPU-heavy steps (embedding, matcher scans of many records, loading a
word-frequency list) run in a worker thread, so the event loop is never blocked by them.

    client = nowline.wrap(await chromadb.AsyncHttpClient(host="localhost", port=8000))
    memory = await client.get_or_create_collection("agent")
    await memory.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"])
    packet = await memory.recall("where is the app?")

Writes of one collection run one at a time (an ``asyncio.Lock`` per wrapper); reads run
concurrently with them. The corrections load when an ``AsyncClient`` accessor opens the
collection (so ``scope_key`` is settled from them at once, as for a sync collection), or,
for ``nowline.wrap(async_collection)``, at the first awaited call.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any, ParamSpec, TypeVar
from uuid import UUID

from chromadb.api import AsyncClientAPI
from chromadb.api.async_client import AsyncClient as ChromaAsyncClient
from chromadb.api.collection_configuration import UpdateCollectionConfiguration
from chromadb.api.models.AsyncCollection import AsyncCollection as ChromaAsyncCollection
from chromadb.api.types import (
    CollectionMetadata,
    DataLoader,
    DeleteResult,
    EmbeddingFunction,
    GetResult,
    QueryResult,
)
from chromadb.errors import NotFoundError

from . import models
from ._facade import (
    DEFAULT_EF,
    ClientFacade,
    CreateArgs,
    Facade,
    OpenArgs,
    Options,
    Path,
    forward_client_api,
)
from ._io.execute import AsyncStore, run_async
from ._io.flows import drain_flow
from ._io.freshness import retry_delays
from ._io.mark import companion_name, is_companion, visible_page
from ._io.snapshot import save_at_exit
from ._rules import verbs as V
from ._rules.guard import raise_if_stale, text_arguments
from .errors import InvalidInput, NowlineError, SnapshotDamaged
from .models import annotated

__all__ = ["AsyncClient", "AsyncCollection"]

logger = logging.getLogger("nowline")

P = ParamSpec("P")
T = TypeVar("T")
U = TypeVar("U")


class AsyncCollection(Facade[ChromaAsyncCollection], ChromaAsyncCollection):
    """A chromadb ``AsyncCollection`` whose recalled stale memories carry their corrections.

    The async counterpart of :class:`nowline.Collection`: the same methods, parameters, rules,
    errors and results, as coroutines. Create one with :func:`nowline.wrap`.
    """

    def __init__(self, collection: ChromaAsyncCollection, options: Options | None = None) -> None:
        """Wrap ``collection``; prefer :func:`nowline.wrap`.

        The corrections load at the first awaited call (``__init__`` cannot await), so until
        then ``scope_key`` is the option given; the ``AsyncClient`` accessors await that load
        before they return the collection.

        Raises:
            InvalidInput: the collection is already wrapped, or its embedding function cannot
                be built in this process.
        """
        super().__init__(collection, options)
        self._store = AsyncStore(self)
        self._write_lock: asyncio.Lock | None = None
        self._load_lock: asyncio.Lock | None = None

    async def _ready(self) -> None:
        """Load the corrections (once), at the first awaited call."""
        if self._load is None:
            return
        if self._load_lock is None:
            self._load_lock = asyncio.Lock()
        async with self._load_lock:
            if self._load is None:
                return
            try:
                size = await self._client.get_max_batch_size()
                self._core.max_batch = max(1, int(size))
            except Exception:  # an API that cannot tell keeps the default
                pass
            await run_async(self._load, self._store)
            self._load = None
            save_at_exit(self._core, self._snapshot)

    async def _arun(self, prepare: Callable[..., Path[Any, U]], *args: Any) -> U:
        """Prepare a path (after loading) and run it with awaited I/O; writes one at a time.

        A path that found the snapshot this process started from damaged
        (:class:`~nowline.errors.SnapshotDamaged`, raised before anything is written) runs
        once more: its registry is then read from the store.
        """
        await self._ready()
        for again in (False, True):
            try:
                return await self._arun_once(prepare(*args))
            except SnapshotDamaged:
                if again:
                    raise
        raise AssertionError("unreachable")

    async def _arun_once(self, path: Path[Any, U]) -> U:
        """Run a prepared path with awaited I/O; writes one at a time."""
        if not path.writes:
            return path.finish(await run_async(path.flow, self._store))
        if self._write_lock is None:
            self._write_lock = asyncio.Lock()
        async with self._write_lock:
            return path.finish(await run_async(path.flow, self._store))

    def __repr__(self) -> str:
        """Return a short description."""
        return f"nowline.AsyncCollection(name={self.name!r})"

    # ------------------------------------------------------------ chromadb methods

    @V.takes(V.InsertArgs)
    async def add(self, call: V.InsertArgs) -> None:
        """Add records and link them, as :meth:`nowline.Collection.add`."""
        await self._arun(self._insert_path, "add", call)

    @V.takes(V.InsertArgs)
    async def upsert(self, call: V.InsertArgs) -> None:
        """Add or update records and relink them, as :meth:`nowline.Collection.upsert`."""
        await self._arun(self._insert_path, "upsert", call)

    @V.takes(V.InsertArgs)
    async def update(self, call: V.InsertArgs) -> None:
        """Update records and relink them, as :meth:`nowline.Collection.update`."""
        await self._arun(self._insert_path, "update", call)

    @V.takes(V.DeleteArgs)
    async def delete(self, call: V.DeleteArgs) -> DeleteResult:
        """Delete records, as :meth:`nowline.Collection.delete`."""
        return await self._arun(self._delete_path, call)

    @V.takes(V.GetArgs)
    async def get(self, call: V.GetArgs) -> GetResult:
        """Return records as chromadb does, as :meth:`nowline.Collection.get`."""
        return await self._arun(self._get_path, call)

    async def peek(self, limit: int = 10) -> GetResult:
        """Return the first records, as :meth:`nowline.Collection.peek`."""
        return await self._arun(self._peek_path, limit)

    @V.takes(V.QueryArgs)
    async def query(self, call: V.QueryArgs) -> QueryResult:
        """Query nearest neighbours with correction lines, as :meth:`nowline.Collection.query`."""
        return await self._arun(self._query_path, call)

    async def modify(
        self,
        name: str | None = None,
        metadata: CollectionMetadata | None = None,
        configuration: UpdateCollectionConfiguration | None = None,
    ) -> None:
        """Rename the collection or change its metadata, as chromadb's ``modify``."""
        await self._arun(self._modify_path, name, metadata, configuration)

    async def fork(self, new_name: str) -> AsyncCollection:
        """Fork the collection (hosted Chroma only), as chromadb's; the fork is wrapped too."""
        return AsyncCollection(await self.raw.fork(new_name), self._options)

    # ------------------------------------------------------------ nowline methods

    @V.takes(V.RememberArgs)
    async def remember(self, call: V.RememberArgs) -> str:
        """Store one memory and return its id, as :meth:`nowline.Collection.remember`."""
        return await self._arun(self._remember_path, call)

    @V.takes(V.CorrectArgs)
    async def correct(self, call: V.CorrectArgs) -> models.CorrectionReport:
        """Store a correction and link what it reaches, as :meth:`nowline.Collection.correct`."""
        return await self._arun(self._correct_path, call)

    @V.takes(V.RecallArgs)
    async def recall(self, call: V.RecallArgs) -> models.Recall:
        """Recall memories as an evidence packet, as :meth:`nowline.Collection.recall`."""
        return await self._arun(self._recall_path, call)

    async def hits(
        self, ids: Sequence[str], *, as_of: str | float | int | None = None
    ) -> list[models.Hit]:
        """Return records as hits, as :meth:`nowline.Collection.hits`."""
        return await self._arun(self._hits_path, ids, as_of)

    @V.takes(V.PreviewArgs)
    async def preview(self, call: V.PreviewArgs) -> models.Preview:
        """Return what a correction would reach, as :meth:`nowline.Collection.preview`."""
        return await self._arun(self._preview_path, call)

    async def retract(self, correction_id: str) -> None:
        """Undo a wrong correction, as :meth:`nowline.Collection.retract`."""
        await self._arun(self._retract_path, correction_id)

    async def repair(self) -> models.RepairReport:
        """Rebuild every link and persist what differs, as :meth:`nowline.Collection.repair`."""
        return await self._arun(self._repair_path)

    async def corrections(self) -> list[models.CorrectionSummary]:
        """List every correction, as :meth:`nowline.Collection.corrections`."""
        return await self._arun(self._corrections_path)

    async def stats(self) -> dict[str, int]:
        """Count the records of each stored role, as :meth:`nowline.Collection.stats`."""
        return await self._arun(self._stats_path)

    async def changes(
        self, *, poll_seconds: float | None = None
    ) -> AsyncIterator[models.CorrectionChange]:
        """Yield each change of a correction observed, as :meth:`nowline.Collection.changes`.

        Use it as ``async for change in collection.changes(): ...``.
        """
        wait = self._poll_seconds(poll_seconds)

        async def step(baseline: Any) -> Any:
            """One catch-up; a store that cannot be reached is tried again, with backoff."""
            for delay in retry_delays():
                try:
                    return await self._arun(self._changes_path, baseline)
                except NowlineError:
                    raise
                except Exception:  # the store went away (a server restarting, say)
                    logger.warning("Reading the corrections failed; trying again.", exc_info=True)
                    await asyncio.sleep(delay)
            raise AssertionError("unreachable")  # pragma: no cover

        _, baseline = await step(None)
        while True:
            await asyncio.sleep(wait)
            found, baseline = await step(baseline)
            for change in found:
                yield change

    # ------------------------------------------------------------ guarding actions

    async def check(
        self, text: str, *, metadata: Mapping[str, Any] | None = None
    ) -> list[models.Trip]:
        """Return the corrections ``text`` trips, as :meth:`nowline.Collection.check`."""
        return await self._arun(self._check_path, text, metadata)

    async def annotate(self, text: str, *, metadata: Mapping[str, Any] | None = None) -> str:
        """Return ``text`` with its correction lines, as :meth:`nowline.Collection.annotate`."""
        return annotated(text, await self.check(text, metadata=metadata))

    async def require_current(self, *texts: str, metadata: Mapping[str, Any] | None = None) -> None:
        """Raise StaleReference if a text names a superseded string (as the sync method).

        Raises:
            StaleReference: with the trips; its message gives the lines.
        """
        raise_if_stale([await self.check(text, metadata=metadata) for text in texts], override=None)

    def guard(
        self,
        func: Callable[P, Awaitable[T]] | None = None,
        *,
        metadata: Mapping[str, Any] | None = None,
    ) -> Any:
        """Decorate an async tool function so that it never runs on a superseded string.

        As :meth:`nowline.Collection.guard`, for coroutine functions: every string argument is
        checked before the call; ``allow_stale=True`` runs it anyway.
        """

        def decorate(f: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
            if not callable(f):
                raise InvalidInput(f"guard() decorates a function, not {type(f).__name__}.")
            if not inspect.iscoroutinefunction(f):
                raise InvalidInput(
                    "AsyncCollection.guard() decorates an async function; use "
                    "Collection.guard() for a plain one."
                )

            @functools.wraps(f)
            async def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
                if kwargs.pop("allow_stale", False):
                    return await f(*args, **kwargs)
                checked = [
                    await self.check(text, metadata=metadata)
                    for text in text_arguments(args, kwargs)
                ]
                raise_if_stale(checked, override="allow_stale=True")
                return await f(*args, **kwargs)

            return guarded

        return decorate(func) if func is not None else decorate


class AsyncClient(ClientFacade[AsyncClientAPI], AsyncClientAPI):
    """A chromadb async client whose collections come back wrapped by nowline.

    The async counterpart of :class:`nowline.Client`. A server owns its store, so no
    writer lock is needed: several processes may write through their own clients.
    """

    def __repr__(self) -> str:
        """Return a short description."""
        return f"nowline.AsyncClient({self._client!r})"

    async def _wrap(self, collection: ChromaAsyncCollection) -> AsyncCollection:
        """Wrap one collection with this client's options and load its corrections.

        Loading here (the accessors are coroutines anyway) settles ``scope_key`` before the
        caller sees the collection, as ``nowline.wrap`` of a sync collection does.
        """
        wrapped = AsyncCollection(collection, self._options)
        await wrapped._ready()
        return wrapped

    @V.takes(CreateArgs)
    async def create_collection(self, call: CreateArgs) -> AsyncCollection:
        """Create a collection, as chromadb's, wrapped."""
        return await self._wrap(await self._client.create_collection(**V.as_kwargs(call)))

    @V.takes(OpenArgs)
    async def get_or_create_collection(self, call: OpenArgs) -> AsyncCollection:
        """Open or create a collection, as chromadb's, wrapped."""
        return await self._wrap(await self._client.get_or_create_collection(**V.as_kwargs(call)))

    async def get_collection(
        self,
        name: str,
        embedding_function: EmbeddingFunction[Any] | None = DEFAULT_EF,
        data_loader: DataLoader[Any] | None = None,
    ) -> AsyncCollection:
        """Open a collection, as chromadb's, wrapped."""
        return await self._wrap(
            await self._client.get_collection(
                name=name, embedding_function=embedding_function, data_loader=data_loader
            )
        )

    async def get_collection_by_id(
        self,
        id: UUID,
        embedding_function: EmbeddingFunction[Any] | None = DEFAULT_EF,
        data_loader: DataLoader[Any] | None = None,
    ) -> AsyncCollection:
        """Open a collection by its id, as chromadb's, wrapped."""
        return await self._wrap(
            await self._client.get_collection_by_id(
                id=id, embedding_function=embedding_function, data_loader=data_loader
            )
        )

    async def list_collections(
        self, limit: int | None = None, offset: int | None = None
    ) -> Sequence[AsyncCollection]:
        """List the collections, wrapped, as chromadb's (nowline's companions left out)."""
        found = await self._client.list_collections(limit=limit, offset=offset)
        if limit is not None or offset is not None:
            found = visible_page(await self._client.list_collections(), found, limit, offset)
        return [await self._wrap(c) for c in found if not is_companion(c.name)]

    async def count_collections(self) -> int:
        """Count the collections, as chromadb's, leaving out nowline's companion collections."""
        total = await self._client.count_collections()
        if total == 0:
            return 0
        everything = await self._client.list_collections()
        return sum(1 for c in everything if not is_companion(c.name))

    async def delete_collection(self, name: str) -> None:
        """Delete a collection and its records, as chromadb's (records first: chroma#7594)."""
        collection = await self._client.get_collection(name=name)
        await run_async(drain_flow(), AsyncStore(collection))
        await self._client.delete_collection(name=name)
        with contextlib.suppress(NotFoundError):  # its generation mark goes with it
            await self._client.delete_collection(name=companion_name(collection.id))


# Forward every other method of chromadb's async client API explicitly (see client.py).
forward_client_api(AsyncClient, AsyncClientAPI, ChromaAsyncClient)
