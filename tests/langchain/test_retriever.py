"""NowlineRetriever: now-lines for documents retrieved from any LangChain vector store."""

from __future__ import annotations

import uuid

import chromadb
import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.vectorstores import InMemoryVectorStore

import nowline
from nowline.surfaces.langchain import NowlineRetriever
from tests.conftest import FakeEmbedding

UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
PR = "metalcraftai/ufo — PR #1705 passed review."
HOSTED = "metalcraftai/ufo-hosted deploys every Friday."


def _corrections(scope_key: str | None = None) -> nowline.Collection:
    """Return an empty nowline collection for corrections on an in-memory client."""
    raw = chromadb.EphemeralClient().create_collection(
        f"corr-{uuid.uuid4().hex}", embedding_function=FakeEmbedding()
    )
    return nowline.wrap(raw, scope_key=scope_key)


def _memories(docs: list[Document]) -> InMemoryVectorStore:
    """Return a LangChain in-memory vector store holding ``docs``."""
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    store.add_documents(docs)
    return store


def _by_id(docs: list[Document]) -> dict[str, Document]:
    """Return documents keyed by id."""
    return {d.id or "": d for d in docs}


def test_foreign_store_documents_get_now_lines() -> None:
    """A stale document from another store carries the correction; its sibling does not."""
    store = _memories(
        [
            Document(id="pr", page_content=PR, metadata={"topic": "pr"}),
            Document(id="hosted", page_content=HOSTED, metadata={"topic": "hosted"}),
        ]
    )
    corrections = _corrections()
    retriever = NowlineRetriever(
        retriever=store.as_retriever(search_kwargs={"k": 5}), corrections=corrections
    )
    assert _by_id(retriever.invoke("ufo"))["pr"].page_content == PR
    corrections.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    docs = _by_id(retriever.invoke("ufo"))
    assert docs["pr"] == Document(
        id="pr",
        page_content=f"{PR}\n    now: {UFO}",
        metadata={
            "topic": "pr",
            "nowline_role": "historical",
            "nowline_by": ["move"],
            "nowline_now": ["move"],
        },
    )
    hosted = Document(id="hosted", page_content=HOSTED, metadata={"topic": "hosted"})
    assert docs["hosted"] == hosted
    assert store.get_by_ids(["pr"])[0].page_content == PR


@pytest.mark.asyncio
async def test_async_retrieval_annotates() -> None:
    """``ainvoke`` annotates exactly as ``invoke`` does."""
    corrections = _corrections()
    corrections.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    retriever = NowlineRetriever(
        retriever=_memories([Document(id="pr", page_content=PR)]).as_retriever(),
        corrections=corrections,
    )
    docs = await retriever.ainvoke("ufo")
    assert [d.page_content for d in docs] == [f"{PR}\n    now: {UFO}"]


def test_retract_removes_the_now_line() -> None:
    """After the correction is retracted, the document comes back unchanged."""
    corrections = _corrections()
    corrections.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    retriever = NowlineRetriever(
        retriever=_memories([Document(id="pr", page_content=PR)]).as_retriever(),
        corrections=corrections,
    )
    corrections.retract("move")
    assert retriever.invoke("ufo") == [Document(id="pr", page_content=PR)]


def test_scope_is_read_from_the_document_metadata() -> None:
    """With a scope key, a correction annotates only documents of its own scope."""
    corrections = _corrections(scope_key="user_id")
    corrections.correct(UFO, deprecates=["metalcraftai/ufo"], metadata={"user_id": "alice"})
    store = _memories(
        [
            Document(id="a", page_content=PR, metadata={"user_id": "alice"}),
            Document(id="b", page_content=PR, metadata={"user_id": "bob"}),
            Document(id="c", page_content=PR),
        ]
    )
    retriever = NowlineRetriever(
        retriever=store.as_retriever(search_kwargs={"k": 5}), corrections=corrections
    )
    docs = _by_id(retriever.invoke("ufo"))
    assert docs["a"].page_content.endswith(f"\n    now: {UFO}")
    assert docs["b"].page_content == PR and docs["c"].page_content == PR
