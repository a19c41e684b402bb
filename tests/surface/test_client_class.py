"""A wrapped client is an instance of the wrapped client's own chromadb class (DESIGN.md §8)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import chromadb
import pytest
from chromadb.api import AsyncClientAPI, ClientAPI
from chromadb.api.async_client import AsyncClient as ChromaAsyncClient
from chromadb.api.client import Client as ChromaClient
from chromadb.api.shared_system_client import SharedSystemClient

import nowline
from tests.conftest import ChromaServer, FakeEmbedding


def _refcount(client: ClientAPI) -> int:
    """Return how many clients hold the chromadb system of ``client``."""
    return SharedSystemClient._identifier_to_refcount[client._identifier]  # type: ignore[attr-defined]


def test_persistent_client_is_its_concrete_class(tmp_path: Path) -> None:
    """wrap(PersistentClient) is a chromadb Client, a ClientCreator and a nowline Client."""
    wrapped = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path / "s")))
    assert isinstance(wrapped, ChromaClient)
    assert isinstance(wrapped, chromadb.ClientCreator)
    assert isinstance(wrapped, ClientAPI)
    assert isinstance(wrapped, nowline.Client)


def test_the_class_is_made_once(tmp_path: Path) -> None:
    """Two wrapped clients of one concrete class share one nowline class."""
    first = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path / "a")))
    second = nowline.wrap(chromadb.EphemeralClient())
    assert type(first) is type(second)
    assert type(first).__name__ == "Client"


def test_wrapping_opens_no_second_system(tmp_path: Path) -> None:
    """The concrete __init__ does not run: the system's reference count is unchanged."""
    raw = chromadb.PersistentClient(path=str(tmp_path / "s"))
    before = _refcount(raw)
    wrapped = nowline.wrap(raw)
    assert _refcount(raw) == before
    assert wrapped._system is raw._system  # type: ignore[attr-defined]


def test_state_lives_on_the_wrapped_client(tmp_path: Path) -> None:
    """The concrete class's attributes read and write the wrapped client's state."""
    raw = chromadb.PersistentClient(path=str(tmp_path / "s"))
    wrapped = nowline.wrap(raw)
    assert wrapped._server is raw._server  # type: ignore[attr-defined]
    assert wrapped._admin_client is raw._admin_client  # type: ignore[attr-defined]
    assert wrapped._identifier == raw._identifier  # type: ignore[attr-defined]
    assert wrapped.get_settings() is raw.get_settings()
    wrapped._closed = True  # type: ignore[attr-defined]
    assert raw._closed is True  # type: ignore[attr-defined]
    wrapped._closed = False  # type: ignore[attr-defined]


def test_close_closes_the_wrapped_client(tmp_path: Path) -> None:
    """close() on the wrapper closes the chromadb client it wraps, once."""
    raw = chromadb.PersistentClient(path=str(tmp_path / "s"))
    wrapped = nowline.wrap(raw)
    assert wrapped._closed is False  # type: ignore[attr-defined]
    wrapped.close()  # type: ignore[attr-defined]
    assert raw._closed is True  # type: ignore[attr-defined]
    assert wrapped._closed is True  # type: ignore[attr-defined]


def test_collections_still_come_back_wrapped(tmp_path: Path) -> None:
    """The concrete class behind nowline's does not take over the collection methods."""
    wrapped = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path / "s")))
    collection = wrapped.create_collection("mem", embedding_function=FakeEmbedding())
    assert isinstance(collection, nowline.Collection)
    assert all(isinstance(c, nowline.Collection) for c in wrapped.list_collections())


def test_class_level_attributes_are_the_concrete_class_ones() -> None:
    """Reading a concrete attribute on the class gives the concrete class's attribute."""
    wrapped = nowline.wrap(chromadb.EphemeralClient())
    assert type(wrapped).from_system == ChromaClient.from_system  # type: ignore[attr-defined]


def test_http_client_is_its_concrete_class(chroma_server: ChromaServer) -> None:
    """wrap(HttpClient) is a chromadb Client and reaches the server."""
    raw = chroma_server.client()
    wrapped = nowline.wrap(raw)
    assert isinstance(wrapped, chromadb.ClientCreator)
    assert wrapped.heartbeat() > 0
    assert wrapped._server is raw._server  # type: ignore[attr-defined]


def test_async_http_client_is_its_concrete_class(chroma_server: ChromaServer) -> None:
    """wrap(await AsyncHttpClient) is chromadb's AsyncClient and nowline's AsyncClient."""

    async def run() -> None:
        raw = await chromadb.AsyncHttpClient(host=chroma_server.host, port=chroma_server.port)
        wrapped = nowline.wrap(raw)
        assert isinstance(wrapped, ChromaAsyncClient)
        assert isinstance(wrapped, AsyncClientAPI)
        assert isinstance(wrapped, nowline.AsyncClient)
        assert wrapped._server is raw._server  # type: ignore[attr-defined]
        assert await wrapped.heartbeat() > 0

    asyncio.run(run())


def test_a_wrapped_client_is_still_refused() -> None:
    """Wrapping an already wrapped client raises, as before."""
    wrapped = nowline.wrap(chromadb.EphemeralClient())
    with pytest.raises(nowline.InvalidInput):
        nowline.wrap(wrapped)
