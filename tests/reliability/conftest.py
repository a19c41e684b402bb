"""Fixtures for the reliability tests: one store per module, a fresh collection per test."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import chromadb
import pytest

import nowline
from tests.conftest import ChromaServer, FakeEmbedding, ServerDatabase, backend

_names = itertools.count()


@pytest.fixture(scope="module")
def module_client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, io: str
) -> chromadb.api.ClientAPI:
    """Return one chromadb client per module on the run's backend (opening a store is slow).

    With ``io == "async"`` (http backend only) it is an AsyncHttpClient with the sync API.
    """
    if backend(request.config) == "http":
        server = request.getfixturevalue("chroma_server")
        database = ServerDatabase(server, server.new_database())
        if io == "async":
            return database.async_client(request.getfixturevalue("bridge"))
        return database.client()
    return chromadb.PersistentClient(path=str(tmp_path_factory.mktemp("reliability") / "store"))


@pytest.fixture
def new_collection(
    module_client: chromadb.api.ClientAPI,
) -> Callable[..., nowline.Collection]:
    """Return a factory of fresh, empty wrapped collections (fake embedder) on the module's store.

    Collections are never deleted: chromadb 1.5.9 leaks a deleted collection's list-valued
    metadata into the next record written (chroma-core/chroma#7594).
    """

    def make(scope_key: str | None = None, **options: object) -> nowline.Collection:
        raw = module_client.create_collection(
            f"col{next(_names)}", embedding_function=FakeEmbedding()
        )
        return nowline.wrap(raw, scope_key=scope_key, **options)  # type: ignore[arg-type]

    return make


@pytest.fixture
def memory(new_collection: Callable[..., nowline.Collection]) -> nowline.Collection:
    """Return a fresh, empty wrapped collection (overrides the root fixture: no new store)."""
    return new_collection()


@pytest.fixture
def scoped(new_collection: Callable[..., nowline.Collection]) -> nowline.Collection:
    """Return a fresh, empty wrapped collection scoped by ``user_id``."""
    return new_collection(scope_key="user_id")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChromaServer]:
    """Start a Chroma server per module that asks (restore steps stop and restart it)."""
    started = ChromaServer(path=tmp_path_factory.mktemp("server") / "data").start()
    try:
        yield started
    finally:
        started.stop()
