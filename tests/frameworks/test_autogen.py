"""AutoGen's ``ChromaDBVectorMemory`` (autogen-ext) through ``nowline.instrument()``.

autogen-ext imports ``from chromadb import PersistentClient`` when it loads (before
instrument() here) and builds its client from ``persistence_path``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from autogen_core.memory import MemoryContent, MemoryMimeType
from autogen_core.model_context import UnboundedChatCompletionContext
from autogen_core.models import SystemMessage, UserMessage
from autogen_ext.memory.chromadb import (
    ChromaDBVectorMemory,
    CustomEmbeddingFunctionConfig,
    PersistentChromaDBVectorMemoryConfig,
)

import nowline
from tests.conftest import FakeEmbedding
from tests.frameworks.conftest import DEPRECATES, FIX, NOW_LINE, QUERY, SIBLING, STALE, check

pytestmark = pytest.mark.usefixtures("instrumented")


async def _memory(path: Path) -> ChromaDBVectorMemory:
    """Return an AutoGen memory holding the scenario and its correction."""
    memory = ChromaDBVectorMemory(
        config=PersistentChromaDBVectorMemoryConfig(
            collection_name="agent",
            persistence_path=str(path),
            k=3,
            embedding_function_config=CustomEmbeddingFunctionConfig(function=FakeEmbedding),
        )
    )
    for text in (STALE, SIBLING):
        await memory.add(MemoryContent(content=text, mime_type=MemoryMimeType.TEXT))
    await memory.add(
        MemoryContent(
            content=FIX, mime_type=MemoryMimeType.TEXT, metadata={"deprecates": DEPRECATES}
        )
    )
    return memory


def test_query(tmp_path: Path) -> None:
    """memory.query() returns the stale memory with its now-line, and nowline's keys."""

    async def run() -> None:
        memory = await _memory(tmp_path / "s")
        assert isinstance(memory._client, nowline.Client)
        results = (await memory.query(QUERY)).results
        by_text = {str(r.content).split("\n")[0]: str(r.content) for r in results}
        check(by_text)
        stale = next(r for r in results if str(r.content).startswith(STALE))
        assert stale.metadata is not None and stale.metadata["nowline_role"] == "historical"
        await memory.close()

    asyncio.run(run())


def test_update_context_hands_the_model_the_now_line(tmp_path: Path) -> None:
    """The system message update_context() adds for the model holds the now-line."""

    async def run() -> None:
        memory = await _memory(tmp_path / "s")
        context = UnboundedChatCompletionContext()
        await context.add_message(UserMessage(content=QUERY, source="user"))
        await memory.update_context(context)
        added = [m for m in await context.get_messages() if isinstance(m, SystemMessage)]
        assert len(added) == 1
        assert f"{STALE}\n    {NOW_LINE}" in added[0].content
        assert f"{SIBLING}\n    now:" not in added[0].content
        await memory.close()

    asyncio.run(run())
