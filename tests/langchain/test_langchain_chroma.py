"""langchain-chroma's ``Chroma(client=nowline.wrap(...))``: search, MMR and the retriever."""

from __future__ import annotations

from pathlib import Path

import chromadb
import pytest
from langchain_chroma import Chroma
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

import nowline
from tests.frameworks.conftest import (
    DEPRECATES,
    FIX,
    QUERY,
    SIBLING,
    STALE,
    check,
    original,
    vector,
    vectors,
)


class HashEmbeddings(Embeddings):
    """LangChain embeddings from the deterministic test vectors."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents."""
        return vectors(texts)

    def embed_query(self, text: str) -> list[float]:
        """Embed a query."""
        return vector(text)


@pytest.fixture
def store(tmp_path: Path) -> Chroma:
    """Return a Chroma store on a wrapped client holding the scenario and its correction."""
    client = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path / "s")))
    db = Chroma(client=client, collection_name="agent", embedding_function=HashEmbeddings())
    db.add_texts([STALE, SIBLING], ids=["pr", "hosted"])
    db.add_texts([FIX], ids=["fix"], metadatas=[{"deprecates": DEPRECATES}])
    return db


def _by_text(documents: list[Document]) -> dict[str, str]:
    """Return {original memory: page content} of LangChain documents."""
    return {original(d.page_content): d.page_content for d in documents}


def test_similarity_search(store: Chroma) -> None:
    """similarity_search hands the stale memory with its now-line, the sibling unchanged."""
    found = store.similarity_search(QUERY, k=3)
    check(_by_text(found))
    stale = next(d for d in found if original(d.page_content) == STALE)
    assert stale.metadata["nowline_role"] == "historical"
    assert stale.metadata["nowline_now"] == ["fix"]
    assert next(d for d in found if d.page_content == SIBLING).metadata == {}


def test_similarity_search_with_score(store: Chroma) -> None:
    """similarity_search_with_score carries the same documents and chromadb's distances."""
    found = store.similarity_search_with_score(QUERY, k=3)
    check(_by_text([d for d, _ in found]))
    assert all(isinstance(score, float) for _, score in found)


def test_max_marginal_relevance_search(store: Chroma) -> None:
    """MMR, which queries with embeddings and re-ranks, hands on the annotated memory."""
    check(_by_text(store.max_marginal_relevance_search(QUERY, k=3, fetch_k=3)))


def test_retriever(store: Chroma) -> None:
    """The retriever (what a chain hands the model) shows the now-line."""
    retriever = store.as_retriever(search_kwargs={"k": 3})
    check(_by_text(retriever.invoke(QUERY)))
