"""Run the sync behaviour suite against nowline's async collection, without copying it.

:class:`Bridge` owns one asyncio event loop in a daemon thread; :class:`Synced` presents an
async object (a ``nowline.AsyncCollection``, a ``nowline.AsyncClient``, or chromadb's own async
collection and client under ``.raw``) with the sync API: each method call is sent to the loop
with ``asyncio.run_coroutine_threadsafe`` and its result awaited, and every async chromadb object
that comes back is wrapped again. ``guard`` turns the decorated plain function into a coroutine
function first, so the async guard itself is what a test exercises.

Every coroutine of a session runs on the one loop: chromadb's ``AsyncHttpClient`` keeps one
``httpx.AsyncClient`` per event loop (keyed by the loop's hash), so its clients must be created
and used on the same long-lived loop. Calls from several test threads at once run concurrently
on that loop, as tasks of one event loop do.

:func:`wrap` replaces ``nowline.wrap`` while the http backend runs (see tests/conftest.py): it
unwraps a :class:`Synced`, wraps the async object inside with the real ``nowline.wrap`` and
returns it synced, so tests that re-wrap ``memory.raw`` with other options run async too.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import chromadb
from chromadb.api import AsyncClientAPI
from chromadb.api.models.AsyncCollection import AsyncCollection as ChromaAsyncCollection

import nowline

T = TypeVar("T")

REAL_WRAP = nowline.wrap
"""``nowline.wrap`` itself, captured before any test replaces it."""


class Bridge:
    """One event loop running in a daemon thread, for sync callers."""

    def __init__(self) -> None:
        """Start the loop's thread."""
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="nowline-test-loop", daemon=True
        )
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the loop and return its result (or raise its exception)."""
        if threading.current_thread() is self._thread:
            raise RuntimeError("Bridge.run() called from the loop itself; it would deadlock.")
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def http_client(self, host: str, port: int, database: str) -> Synced:
        """Return a synced ``chromadb.AsyncHttpClient`` created on the loop."""
        return Synced(
            self.run(chromadb.AsyncHttpClient(host=host, port=port, database=database)), self
        )

    def close(self) -> None:
        """Stop the loop and its thread (pending calls are abandoned)."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)


def _is_async_object(value: object) -> bool:
    """Return whether ``value`` is an async chromadb collection or client (wrapped or not)."""
    return isinstance(value, (ChromaAsyncCollection, AsyncClientAPI))


class Synced:
    """An async chromadb or nowline object with its methods made blocking (see module doc)."""

    __slots__ = ("_bridge", "_target")

    def __init__(self, target: Any, bridge: Bridge) -> None:
        """Present ``target``'s API synchronously through ``bridge``."""
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_bridge", bridge)

    @property
    def target(self) -> Any:
        """The async object behind this one."""
        return self._target

    def _adapt(self, value: Any) -> Any:
        """Wrap async chromadb objects in a result (also inside a list) as Synced."""
        if _is_async_object(value):
            return Synced(value, self._bridge)
        if isinstance(value, list) and value and all(_is_async_object(v) for v in value):
            return [Synced(v, self._bridge) for v in value]
        return value

    def __getattr__(self, name: str) -> Any:
        """Return the target's attribute; a method becomes a blocking call.

        Private state of an async collection (``_core``) is read after its corrections load:
        a sync collection loads them when it is made, an async one at its first awaited call.
        """
        if name.startswith("_") and isinstance(self._target, nowline.AsyncCollection):
            self._bridge.run(self._target._ready())
        value = getattr(self._target, name)
        if not inspect.ismethod(value) and not inspect.iscoroutinefunction(value):
            return self._adapt(value)

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:
            args = tuple(_unsync(a) for a in args)
            kwargs = {k: _unsync(v) for k, v in kwargs.items()}
            result = value(*args, **kwargs)
            if inspect.isawaitable(result):
                result = self._bridge.run(_await(result))
            return self._adapt(result)

        return call

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the attribute on the target."""
        setattr(self._target, name, value)

    def __repr__(self) -> str:
        """Show the target."""
        return f"Synced({self._target!r})"

    def __eq__(self, other: object) -> bool:
        """Compare the targets (chromadb compares collections by their fields)."""
        return bool(self._target == _unsync(other))

    def __hash__(self) -> int:
        """Hash as the target."""
        return hash(self._target)

    def guard(self, func: Callable[..., Any] | None = None, **options: Any) -> Any:
        """Decorate a plain function with the async guard, and call it blockingly."""

        def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
            if not callable(f):
                return self._target.guard(f, **options)  # type: ignore[no-any-return]

            @functools.wraps(f)
            async def as_coroutine(*args: Any, **kwargs: Any) -> Any:
                return f(*args, **kwargs)

            guarded = self._target.guard(as_coroutine, **options)

            @functools.wraps(f)
            def blocking(*args: Any, **kwargs: Any) -> Any:
                return self._bridge.run(guarded(*args, **kwargs))

            return blocking

        return decorate(func) if func is not None else decorate


async def _await(awaitable: Any) -> Any:
    """Await ``awaitable`` (run_coroutine_threadsafe takes coroutines only)."""
    return await awaitable


def _unsync(value: Any) -> Any:
    """Return the async object behind a Synced argument (others unchanged)."""
    return value.target if isinstance(value, Synced) else value


def wrap(target: Any, *args: Any, **kwargs: Any) -> Any:
    """``nowline.wrap`` that also takes a Synced async object and returns it wrapped and synced.

    A wrapped async collection loads its corrections at once, as if its first awaited call
    followed: a sync ``wrap()`` loads them at wrap time, so errors of the stored state (a
    conflicting ``scope_key``) and the settled ``scope_key`` are there when the test looks.
    (That an async collection answers ``scope_key`` before it loads is reported in
    tests/regressions/test_async_faults.py.)
    """
    if not isinstance(target, Synced):
        return REAL_WRAP(target, *args, **kwargs)
    wrapped = REAL_WRAP(target.target, *args, **kwargs)
    if isinstance(wrapped, nowline.AsyncCollection):
        target._bridge.run(wrapped._ready())
    return Synced(wrapped, target._bridge)
