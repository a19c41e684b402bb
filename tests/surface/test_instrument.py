"""``nowline.instrument()``: every chromadb client created afterwards comes back wrapped."""

from __future__ import annotations

import abc
import asyncio
import inspect
import typing
from collections.abc import Iterator
from pathlib import Path

import chromadb
import pytest
from chromadb import PersistentClient  # taken before instrument(), as CrewAI does
from chromadb.api.async_client import AsyncClient as ChromaAsyncClient
from chromadb.api.client import Client as ChromaClient

import nowline
from tests.conftest import ChromaServer, FakeEmbedding


@pytest.fixture(autouse=True)
def _uninstrumented() -> Iterator[None]:
    """Leave the process uninstrumented after each test, also on failure."""
    yield
    nowline.uninstrument()


def _persistent(path: Path) -> chromadb.config.Settings:
    """Return the settings of a persistent store at ``path``."""
    return chromadb.config.Settings(is_persistent=True, persist_directory=str(path))


def test_every_factory_returns_a_wrapped_client(tmp_path: Path) -> None:
    """Client, EphemeralClient, PersistentClient and the class itself come back wrapped."""
    nowline.instrument()
    made = [
        chromadb.PersistentClient(path=str(tmp_path / "a")),
        chromadb.EphemeralClient(),
        chromadb.Client(_persistent(tmp_path / "c")),
        ChromaClient(settings=_persistent(tmp_path / "d")),
    ]
    for client in made:
        assert isinstance(client, nowline.Client)
        assert isinstance(client, chromadb.ClientCreator)
        assert type(client.raw) is ChromaClient


def test_an_old_reference_to_a_factory_is_reached(tmp_path: Path) -> None:
    """A PersistentClient imported before instrument() builds a wrapped client."""
    nowline.instrument()
    assert isinstance(PersistentClient(path=str(tmp_path / "s")), nowline.Client)


def test_the_options_are_wraps(tmp_path: Path) -> None:
    """The clients carry instrument()'s options, and its options are wrap()'s (WrapOptions)."""
    nowline.instrument(scope_key="user_id", annotate=False)
    client = chromadb.PersistentClient(path=str(tmp_path / "s"))
    assert client._options.scope_key == "user_id"  # type: ignore[attr-defined]
    assert client._options.annotate is False  # type: ignore[attr-defined]
    wrap_options = list(inspect.signature(nowline.wrap).parameters)[1:]
    assert list(typing.get_type_hints(nowline.WrapOptions)) == wrap_options
    (options,) = inspect.signature(nowline.instrument).parameters.values()
    assert options.kind is inspect.Parameter.VAR_KEYWORD
    nowline.instrument(text_key="data")
    assert chromadb.PersistentClient(path=str(tmp_path / "t"))._options.text_key == "data"  # type: ignore[attr-defined]


def test_an_invalid_option_is_refused_and_instruments_nothing(tmp_path: Path) -> None:
    """An invalid option raises at once, and clients stay plain."""
    with pytest.raises(nowline.InvalidInput):
        nowline.instrument(refresh_seconds=-1)
    assert not isinstance(chromadb.PersistentClient(path=str(tmp_path / "s")), nowline.Client)


def test_a_second_instrument_wraps_once_with_the_latest_options(tmp_path: Path) -> None:
    """Instrumenting twice wraps each client once; the latest options apply to new clients."""
    nowline.instrument(scope_key="user_id")
    first = chromadb.PersistentClient(path=str(tmp_path / "a"))
    nowline.instrument(scope_key="agent_id")
    second = chromadb.PersistentClient(path=str(tmp_path / "b"))
    assert type(second.raw) is ChromaClient
    assert first._options.scope_key == "user_id"  # type: ignore[attr-defined]
    assert second._options.scope_key == "agent_id"  # type: ignore[attr-defined]


def test_uninstrument_restores_plain_clients(tmp_path: Path) -> None:
    """After uninstrument() chromadb builds plain clients and its class is as it was."""
    nowline.instrument()
    wrapped = chromadb.PersistentClient(path=str(tmp_path / "a"))
    nowline.uninstrument()
    plain = chromadb.PersistentClient(path=str(tmp_path / "b"))
    assert type(plain) is ChromaClient
    assert type(ChromaClient) is abc.ABCMeta
    assert "create" not in vars(ChromaAsyncClient) or inspect.ismethod(ChromaAsyncClient.create)
    assert isinstance(wrapped, nowline.Client)  # what was wrapped stays wrapped
    nowline.uninstrument()  # a second call is harmless


def test_wrap_of_an_instrumented_client_takes_wraps_options(tmp_path: Path) -> None:
    """wrap() of a client instrument() wrapped re-wraps its chromadb client, not the wrapper."""
    nowline.instrument(scope_key="user_id")
    instrumented = chromadb.PersistentClient(path=str(tmp_path / "s"))
    rewrapped = nowline.wrap(instrumented, scope_key="agent_id")
    assert rewrapped.raw is instrumented.raw
    assert rewrapped._options.scope_key == "agent_id"  # type: ignore[attr-defined]
    with pytest.raises(nowline.InvalidInput):
        nowline.wrap(rewrapped)


def test_an_instrumented_client_annotates_a_stale_memory(tmp_path: Path) -> None:
    """A library's own client, built after instrument(), shows the now-line under a stale hit."""
    nowline.instrument()
    client = chromadb.PersistentClient(path=str(tmp_path / "s"))
    memory = client.get_or_create_collection("agent", embedding_function=FakeEmbedding())
    memory.add(
        ids=["pr", "hosted"],
        documents=["metalcraftai/ufo PR #1705 passed review.", "metalcraftai/ufo-hosted is up."],
    )
    memory.add(
        ids=["fix"],
        documents=["Moved from metalcraftai/ufo to ufo-ai/ufo."],
        metadatas=[{"deprecates": ["metalcraftai/ufo"]}],
    )
    found = memory.query(query_texts=["ufo PR"], n_results=3)
    documents = dict(zip(found["ids"][0], found["documents"][0], strict=True))  # type: ignore[index]
    assert "now: Moved from metalcraftai/ufo to ufo-ai/ufo." in documents["pr"]
    assert documents["hosted"] == "metalcraftai/ufo-hosted is up."


def test_http_clients_come_back_wrapped(chroma_server: ChromaServer) -> None:
    """HttpClient and AsyncHttpClient built after instrument() are wrapped, with their class."""
    nowline.instrument()
    sync = chromadb.HttpClient(host=chroma_server.host, port=chroma_server.port)
    assert isinstance(sync, nowline.Client) and isinstance(sync, chromadb.ClientCreator)

    async def build() -> object:
        return await chromadb.AsyncHttpClient(host=chroma_server.host, port=chroma_server.port)

    made = asyncio.run(build())
    assert isinstance(made, nowline.AsyncClient)
    assert isinstance(made, ChromaAsyncClient)
    assert type(made.raw) is ChromaAsyncClient
    nowline.uninstrument()
    assert type(asyncio.run(build())) is ChromaAsyncClient
