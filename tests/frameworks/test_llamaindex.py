"""LlamaIndex's ``ChromaVectorStore(chroma_collection=...)`` on a wrapped collection."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromadb
import pytest
from llama_index.core import Settings, VectorStoreIndex
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.llms import MockLLM
from llama_index.core.schema import TextNode
from llama_index.vector_stores.chroma import ChromaVectorStore

import nowline
from tests.frameworks.conftest import (
    DEPRECATES,
    FIX,
    NOW_LINE,
    QUERY,
    SIBLING,
    STALE,
    check,
    original,
    vector,
)


class HashEmbedding(BaseEmbedding):
    """A LlamaIndex embedding model from the deterministic test vectors."""

    def _get_query_embedding(self, query: str) -> list[float]:
        """Embed a query."""
        return vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        """Embed a query."""
        return vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        """Embed a text."""
        return vector(text)


@pytest.fixture(autouse=True)
def _offline_tokenizer() -> Iterator[None]:
    """Count tokens by words: LlamaIndex's default tokenizer downloads its encoding."""
    previous = Settings._tokenizer
    Settings.tokenizer = str.split
    yield
    Settings._tokenizer = previous


@pytest.fixture
def index(tmp_path: Path) -> VectorStoreIndex:
    """Return an index over a wrapped collection holding the scenario and its correction."""
    client = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path / "s")))
    store = ChromaVectorStore(chroma_collection=client.create_collection("agent"))
    nodes = [
        TextNode(id_="pr", text=STALE, embedding=vector(STALE)),
        TextNode(id_="hosted", text=SIBLING, embedding=vector(SIBLING)),
        # LlamaIndex refuses list metadata: the correction names its one string as a string.
        TextNode(
            id_="fix", text=FIX, embedding=vector(FIX), metadata={"deprecates": DEPRECATES[0]}
        ),
    ]
    store.add(nodes)
    return VectorStoreIndex.from_vector_store(store, embed_model=HashEmbedding())


def test_a_list_valued_correction_is_refused_by_llamaindex(tmp_path: Path) -> None:
    """LlamaIndex itself refuses list metadata, which is why a correction passes one string."""
    client = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path / "s")))
    store = ChromaVectorStore(chroma_collection=client.create_collection("agent"))
    node = TextNode(id_="fix", text=FIX, embedding=vector(FIX), metadata={"deprecates": DEPRECATES})
    with pytest.raises(ValueError):
        store.add([node])


def test_retriever(index: VectorStoreIndex) -> None:
    """The retriever's nodes show the now-line beneath the stale memory, none on the sibling."""
    found = index.as_retriever(similarity_top_k=3).retrieve(QUERY)
    texts = {original(n.node.get_content()): n.node.get_content() for n in found}
    check(texts)
    # LlamaIndex rebuilds a node's metadata from its own copy (``_node_content``), so nowline's
    # keys stay out of node.metadata: the now-line in the text is what reaches the model.
    stale: Any = next(n for n in found if original(n.node.get_content()) == STALE)
    assert "nowline_role" not in stale.node.metadata


def test_query_engine_prompt(index: VectorStoreIndex) -> None:
    """The prompt the query engine sends the model holds the now-line under the stale memory."""
    engine = index.as_query_engine(llm=MockLLM(), similarity_top_k=3)
    prompt = str(engine.query(QUERY))  # MockLLM answers with the prompt it was sent
    assert f"{STALE}\n    {NOW_LINE}" in prompt
    assert f"{SIBLING}\n    now:" not in prompt
