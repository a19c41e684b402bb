"""A read that races a fresh server collection's first write is retried, briefly, and only then.

On chromadb 1.5.9 a query against a Chroma server that races the first write to a fresh
collection fails with "Error creating hnsw segment reader: Nothing found on disk"; a moment
later the same read succeeds. The drivers retry such a read (``_store.RACE_RETRIES``); every
other error, and any write, is raised at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from chromadb.errors import InternalError

from nowline._io import execute as _store
from nowline._io.ops import Count, Query, Write

RACE = "Internal error: Error creating hnsw segment reader: Nothing found on disk"


class _Client:
    """A client whose calls fail with the given errors first, then answer."""

    def __init__(self, errors: list[Exception]) -> None:
        self.errors = list(errors)
        self.calls = 0

    def _answer(self) -> Any:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return {"ids": [[]]}

    def _query(self, **_: Any) -> Any:
        return self._answer()

    def _count(self, **_: Any) -> Any:
        return self._answer()

    def _add(self, **_: Any) -> Any:
        return self._answer()


class _AsyncClient(_Client):
    """The same, awaited."""

    async def _query(self, **_: Any) -> Any:  # type: ignore[override]
        return self._answer()


class _Collection:
    """The attributes the drivers read of a chromadb collection."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.id = "c"
        self.tenant = "t"
        self.database = "d"


QUERY = Query(
    embeddings=[[0.0]], ids=None, n_results=1, where=None, where_document=None, include=()
)


@pytest.fixture(autouse=True)
def _no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retry without sleeping."""
    monkeypatch.setattr(_store, "RACE_RETRIES", (0.0, 0.0, 0.0))


def test_a_raced_read_is_retried_until_it_answers() -> None:
    """Two raced failures, then the answer: the read returns it."""
    client = _Client([InternalError(RACE), InternalError(RACE)])
    assert _store.SyncStore(_Collection(client), None).execute(QUERY) == {"ids": [[]]}
    assert client.calls == 3


def test_a_read_that_keeps_racing_raises_after_the_retries() -> None:
    """The retries are bounded: the last failure is raised."""
    client = _Client([InternalError(RACE)] * 10)
    with pytest.raises(InternalError, match="Nothing found on disk"):
        _store.SyncStore(_Collection(client), None).execute(Count())
    assert client.calls == len(_store.RACE_RETRIES) + 1


def test_other_errors_and_writes_are_not_retried() -> None:
    """Another error, or the race's message on a write, is raised at once."""
    client = _Client([InternalError("disk full")])
    with pytest.raises(InternalError, match="disk full"):
        _store.SyncStore(_Collection(client), None).execute(QUERY)
    writer = _Client([InternalError(RACE)])
    with pytest.raises(InternalError):
        _store.SyncStore(_Collection(writer), None).execute(Write("add", ids=["a"]))
    assert client.calls == writer.calls == 1


def test_the_async_driver_retries_the_same_way() -> None:
    """The async driver retries a raced read too."""
    client = _AsyncClient([InternalError(RACE)])
    store = _store.AsyncStore(_Collection(client))
    assert asyncio.run(store.execute(QUERY)) == {"ids": [[]]}
    assert client.calls == 2
