"""Haystack's ``ChromaDocumentStore`` (chroma-haystack) through ``nowline.instrument()``.

The store builds its own client from ``persist_path``; instrument() wraps it. The store's
``"default"`` embedding function is chromadb's default, which nowline embeds with the same
model offline, so these tests load the real model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from haystack import Document
from haystack_integrations.components.retrievers.chroma import (
    ChromaEmbeddingRetriever,
    ChromaQueryTextRetriever,
)
from haystack_integrations.document_stores.chroma import ChromaDocumentStore

import nowline
from tests.frameworks.conftest import DEPRECATES, FIX, QUERY, SIBLING, STALE, check, original

pytestmark = [pytest.mark.model, pytest.mark.usefixtures("instrumented")]


@pytest.fixture
def store(tmp_path: Path) -> ChromaDocumentStore:
    """Return a document store holding the scenario, its correction written by write_documents."""
    store = ChromaDocumentStore(collection_name="agent", persist_path=str(tmp_path / "s"))
    store.write_documents(
        [
            Document(id="pr", content=STALE),
            Document(id="hosted", content=SIBLING),
            Document(id="fix", content=FIX, meta={"deprecates": DEPRECATES}),
        ]
    )
    return store


def _by_text(documents: list[Document]) -> dict[str, str]:
    """Return {original memory: content} of Haystack documents."""
    return {original(d.content or ""): d.content or "" for d in documents}


def test_the_store_client_is_wrapped(store: ChromaDocumentStore) -> None:
    """The client the store built for itself is nowline's."""
    assert isinstance(store._client, nowline.Client)


def test_query_text_retriever(store: ChromaDocumentStore) -> None:
    """ChromaQueryTextRetriever's documents carry the now-line and nowline's keys in meta."""
    found = ChromaQueryTextRetriever(document_store=store).run(query=QUERY, top_k=3)["documents"]
    check(_by_text(found))
    stale = next(d for d in found if d.id == "pr")
    assert stale.meta["nowline_role"] == "historical"
    assert stale.meta["nowline_by"] == ["fix"]
    assert next(d for d in found if d.id == "hosted").meta == {}


def test_embedding_retriever(store: ChromaDocumentStore) -> None:
    """ChromaEmbeddingRetriever (the query embedded by the caller) hands on the now-line."""
    embedding = [float(x) for x in nowline.embedding_function()([QUERY])[0]]
    retriever = ChromaEmbeddingRetriever(document_store=store)
    check(_by_text(retriever.run(query_embedding=embedding, top_k=3)["documents"]))
