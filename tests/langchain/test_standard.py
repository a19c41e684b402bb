"""LangChain's standard vector-store suite, run against NowlineChroma (sync and async)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import ClassVar

import chromadb
import pytest
from langchain_core.vectorstores import VectorStore
from langchain_tests.integration_tests import VectorStoreIntegrationTests

from nowline.surfaces.langchain import NowlineChroma


class TestNowlineChromaStandard(VectorStoreIntegrationTests):
    """The whole standard suite: NowlineChroma must behave as a LangChain vector store."""

    # The suite mixes sync and async tests in one class, and this repository runs
    # pytest-asyncio in strict mode; the mark makes the async half run, and the filter hides
    # the plugin's note that the sync half carries the mark too.
    pytestmark: ClassVar[list[pytest.MarkDecorator]] = [
        pytest.mark.asyncio,
        pytest.mark.filterwarnings(
            "ignore:.*is marked with '@pytest.mark.asyncio' but it is not an async function"
        ),
    ]

    @pytest.fixture
    def vectorstore(self) -> Iterator[VectorStore]:
        """Yield an empty NowlineChroma on an in-memory client, deleted afterwards."""
        store = NowlineChroma(
            collection_name=f"std-{uuid.uuid4().hex}",
            embedding_function=self.get_embeddings(),
            client=chromadb.EphemeralClient(),
        )
        try:
            yield store
        finally:
            store.delete_collection()
