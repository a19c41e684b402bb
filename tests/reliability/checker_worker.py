"""One process of the multi-process checker (``tests/reliability/checker.py``).

Run as ``python -m tests.reliability.checker_worker MODE ...`` from the repository root:

    serve URL DATABASE KIND SCOPE_KEY   a long-lived wrapper (KIND sync or async; SCOPE_KEY
                                        "-" for none) over a Chroma server; it reads one JSON
                                        command per stdin line and answers "R <json>".
    cli ARGS...                         the ``nowline`` command line, one command, then exit
                                        (the fake embedding function registered first).

The environment carries what differs between processes: ``NOWLINE_CACHE_DIR`` (the snapshot
folder) and ``NOWLINE_CLOCK_OFFSET`` (a clock that runs ahead or behind). A write command may
carry ``kill_after`` K: after the K-th Chroma write of that command the worker prints
``P paused`` and blocks, so that the checker kills it there with SIGKILL.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import sys
import traceback
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import chromadb

import nowline
from tests.conftest import FakeEmbedding

COLLECTION = "mem"
SMALL_BATCH = 8
"""The max batch the server reports to workers, so a correction propagates in many writes."""

_WRITES = ("_add", "_update", "_upsert", "_delete")


class _Pause:
    """Counts Chroma writes of the current command; blocks after the chosen one."""

    after: int | None = None
    count = 0

    @classmethod
    def arm(cls, after: int | None) -> None:
        cls.after, cls.count = after, 0

    @classmethod
    def tick(cls) -> None:
        cls.count += 1
        if cls.after is not None and cls.count >= cls.after:
            print("P paused", flush=True)
            sys.stdin.readline()  # the checker kills the process here
            raise SystemExit(3)


def _instrument() -> None:
    """Make the HTTP APIs report a small max batch and count every write."""
    from chromadb.api.async_fastapi import AsyncFastAPI
    from chromadb.api.fastapi import FastAPI

    def small(self: Any) -> int:
        return SMALL_BATCH

    async def small_async(self: Any) -> int:
        return SMALL_BATCH

    FastAPI.get_max_batch_size = small  # type: ignore[method-assign]
    AsyncFastAPI.get_max_batch_size = small_async  # type: ignore[method-assign]
    for name in _WRITES:
        sync_original: Callable[..., Any] = getattr(FastAPI, name)
        async_original: Callable[..., Awaitable[Any]] = getattr(AsyncFastAPI, name)

        @functools.wraps(sync_original)
        def counted(*a: Any, _orig: Callable[..., Any] = sync_original, **kw: Any) -> Any:
            result = _orig(*a, **kw)
            _Pause.tick()
            return result

        @functools.wraps(async_original)
        async def counted_async(
            *a: Any, _orig: Callable[..., Awaitable[Any]] = async_original, **kw: Any
        ) -> Any:
            result = await _orig(*a, **kw)
            _Pause.tick()
            return result

        setattr(FastAPI, name, counted)
        setattr(AsyncFastAPI, name, counted_async)


def _small_journal() -> None:
    """Fold the journal early (``CHECKER_JOURNAL_KEEP`` entries, every other write)."""
    import os

    from nowline._io import journal

    keep = os.environ.get("CHECKER_JOURNAL_KEEP")
    if keep:
        journal.KEEP = int(keep)
        journal.COMPACT_EVERY = 2


def _host_port(url: str) -> tuple[str, int]:
    """Return the host and port of an ``http://host:port`` URL."""
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None, url
    return parts.hostname, parts.port


class Worker:
    """A wrapped collection, sync or async, and the commands the checker sends it."""

    def __init__(self, url: str, database: str, kind: str, scope_key: str | None) -> None:
        """Open the checker's collection through nowline."""
        self.loop = asyncio.new_event_loop()
        host, port = _host_port(url)
        self.kind = kind
        if kind == "async":

            async def open_async() -> Any:
                client = await chromadb.AsyncHttpClient(host=host, port=port, database=database)
                raw = await client.get_collection(COLLECTION, embedding_function=FakeEmbedding())
                return nowline.wrap(raw, scope_key=scope_key, refresh_seconds=self.refresh)

            self.col: Any = None
            self._open: Callable[[], Any] = lambda: self.loop.run_until_complete(open_async())
        else:

            def open_sync() -> Any:
                client = chromadb.HttpClient(host=host, port=port, database=database)
                raw = client.get_collection(COLLECTION, embedding_function=FakeEmbedding())
                return nowline.wrap(raw, scope_key=scope_key, refresh_seconds=self.refresh)

            self._open = open_sync

    refresh = 0.5

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call a collection method; run it on the loop when it is a coroutine."""
        result = getattr(self.col, name)(*args, **kwargs)
        if inspect.isawaitable(result):
            result = self.loop.run_until_complete(result)
        return result

    def run(self, command: dict[str, Any]) -> Any:
        """Run one command and return its JSON-ready result."""
        op = command["op"]
        if op == "open":
            self.refresh = float(command["refresh"])
            self.col = self._open()
            return {"scope_key": self.col.scope_key}
        if op == "observe":
            return self.observe(command["probes"], command.get("strict", False))
        if op == "tick":  # a cheap read: a refresh when one is due
            return len(self.call("check", "tick", metadata={"user_id": None}))
        if op == "bounds":  # the freshness bounds this wrapper last measured (README)
            return list(self.col.freshness_bounds)
        _Pause.arm(command.get("kill_after"))
        try:
            return self.write(op, command)
        finally:
            _Pause.arm(None)

    def write(self, op: str, c: dict[str, Any]) -> Any:
        """Run a write command."""
        user = {"user_id": c["user"]} if "user" in c else None
        if op == "remember":
            return self.call("remember", c["text"], id=c["id"], metadata=user)
        if op == "correct":
            report = self.call(
                "correct",
                c["text"],
                deprecates=c["deprecates"],
                about=c.get("about") or None,
                id=c["id"],
                metadata=user,
                allow_absent=True,
                allow_generic=True,
                max_reach=None,
            )
            return report.reached
        if op == "retract":
            return self.call("retract", c["id"])
        if op == "delete":
            return self.call("delete", ids=[c["id"]])
        if op == "edit":
            meta = {"deprecates": c["deprecates"]} if c.get("deprecates") else None
            return self.call(
                "update",
                ids=[c["id"]],
                documents=[c["text"]],
                metadatas=[meta] if meta else None,
            )
        if op == "repair":
            return self.call("repair").updated
        raise ValueError(f"unknown command {op!r}")

    def observe(self, probes: list[list[Any]], strict: bool = False) -> dict[str, Any]:
        """Return what this process shows: recall of every record, trips, corrections, stats.

        ``strict`` (the journal profile) asks ``check()`` first: ``corrections()`` lists every
        correction, which would hide what the catch-ups by the journal missed.
        """

        # Otherwise corrections() and stats() first: recall() and check() read back by id the
        # corrections they show, which would hide from the others what the process knew.
        def trips() -> list[Any]:
            return [_guarded(lambda t=text, m=meta: self.trips(t, m)) for text, meta in probes]

        out: dict[str, Any] = {}
        if strict:
            out["trips"] = trips()
        out["corrections"] = _guarded(
            lambda: sorted([c.id, c.status] for c in self.call("corrections"))
        )
        out["stats"] = _guarded(lambda: self.call("stats"))
        if not strict:
            out["trips"] = trips()
        out["recall"] = _guarded(self.recall_all)
        return out

    def trips(self, text: str, meta: dict[str, Any]) -> list[list[str]]:
        """Return the (correction, newest) ids that ``text`` trips with ``meta``."""
        return sorted(
            [t.correction.id, t.newest.id] for t in self.call("check", text, metadata=meta)
        )

    def recall_all(self) -> dict[str, list[Any]]:
        """Recall every record: {id: [role, sorted direct ids, now ids]}."""
        n = self.call("count")
        if n == 0:
            return {}
        hits = list(self.call("recall", "memory", n_results=n).hits)
        got = {h.id for h in hits}
        missing = [i for i in self.call("get", include=[])["ids"] if i not in got]
        if missing:
            hits += self.call("hits", missing)
        return {h.id: [h.role, sorted(c.id for c in h.direct), [c.id for c in h.now]] for h in hits}


def _guarded(read: Callable[[], Any]) -> Any:
    """Return a read's result, or {"error": ...} when it raised."""
    try:
        return read()
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


_worker: Worker | None = None


def serve(url: str, database: str, kind: str, scope_key: str) -> None:
    """Answer the checker's commands until stdin closes."""
    global _worker
    _instrument()
    # Held until the interpreter exits, as a long-running process holds its collection: its
    # snapshot is written at exit (nowline keeps only a weak reference for that).
    worker = _worker = Worker(url, database, kind, None if scope_key == "-" else scope_key)
    print("ready", flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        try:
            result: dict[str, Any] = {"ok": worker.run(command)}
        except Exception as exc:
            result = {
                "error": type(exc).__name__,
                "message": str(exc)[:500],
                "nowline": isinstance(exc, (nowline.NowlineError, ValueError)),
                "trace": traceback.format_exc()[-1500:],
            }
        print("R " + json.dumps(result, default=str), flush=True)


def cli(args: list[str]) -> None:
    """Run one ``nowline`` command with the fake embedding function registered."""
    from nowline.surfaces.cli import main

    assert FakeEmbedding.name()  # registered with chromadb at import
    sys.argv = ["nowline", *args]
    main()


if __name__ == "__main__":
    _small_journal()
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:6])
    elif sys.argv[1] == "cli":
        cli(sys.argv[2:])
    else:
        raise SystemExit(f"unknown mode {sys.argv[1]!r}")
