"""CrewAI's chromadb RAG client (``client=``) and its ``KnowledgeStorage`` under nowline.

What CrewAI hands a model from its knowledge is ``extract_knowledge_context(results)``:
"Additional Information: " and the content of each hit. These tests check that text.

``KnowledgeStorage`` builds its own client in ``crewai.rag.chromadb.factory``, which did
``from chromadb import PersistentClient`` when CrewAI was imported, before ``instrument()``.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import chromadb
import pytest
from crewai.knowledge.knowledge import Knowledge
from crewai.knowledge.source.string_knowledge_source import StringKnowledgeSource
from crewai.knowledge.storage.knowledge_storage import KnowledgeStorage
from crewai.knowledge.utils.knowledge_utils import extract_knowledge_context
from crewai.rag.chromadb import factory as crewai_factory
from crewai.rag.chromadb.client import ChromaDBClient
from crewai.rag.embeddings.providers.custom.embedding_callable import CustomEmbeddingFunction

import nowline
from tests.conftest import FakeEmbedding
from tests.frameworks.conftest import (
    DEPRECATES,
    FIX,
    NOW_LINE,
    QUERY,
    SIBLING,
    STALE,
    check,
    original,
)


class LocalEmbedding(FakeEmbedding, CustomEmbeddingFunction):
    """The test embedding as CrewAI's ``custom`` embedder (its default calls OpenAI)."""


EMBEDDER: Any = {"provider": "custom", "config": {"embedding_callable": LocalEmbedding}}


def _by_text(results: list[Any]) -> dict[str, str]:
    """Return {original memory: content handed on} of CrewAI search results."""
    return {original(r["content"]): r["content"] for r in results}


def _context_lines(results: list[Any]) -> dict[str, str]:
    """Return {original memory: its text} as read back from CrewAI's model context."""
    context = extract_knowledge_context(results)
    assert context.startswith("Additional Information: ")
    body = context.removeprefix("Additional Information: ")
    # A hit's content is its memory and, for a stale one, its indented now-lines.
    hits = re.split(r"\n(?! )", body)
    return {original(hit): hit for hit in hits}


def test_rag_client_takes_a_wrapped_client(tmp_path: Path) -> None:
    """CrewAI's RAG client over nowline.wrap(...) stores the correction and shows the now-line."""
    client = ChromaDBClient(
        client=nowline.wrap(chromadb.PersistentClient(path=str(tmp_path / "s"))),
        embedding_function=FakeEmbedding(),
    )
    client.get_or_create_collection(collection_name="agent")
    client.add_documents(
        collection_name="agent", documents=[{"content": STALE}, {"content": SIBLING}]
    )
    client.add_documents(
        collection_name="agent",
        documents=[{"content": FIX, "metadata": {"deprecates": DEPRECATES}}],
    )
    found = client.search(collection_name="agent", query=QUERY, limit=3, score_threshold=0.0)
    check(_by_text(found))
    check(_context_lines(found))
    stale = next(r for r in found if original(r["content"]) == STALE)
    fix = next(r for r in found if original(r["content"]) == FIX)
    assert stale["metadata"]["nowline_role"] == "historical"
    assert stale["metadata"]["nowline_by"] == [fix["id"]]
    assert fix["metadata"] == {"deprecates": DEPRECATES}
    assert next(r for r in found if original(r["content"]) == SIBLING)["metadata"] == {}


def test_the_early_import_is_reached(instrumented: None) -> None:
    """CrewAI's factory holds chromadb's own PersistentClient, and it builds wrapped clients."""
    assert crewai_factory.PersistentClient is chromadb.PersistentClient
    storage = KnowledgeStorage(collection_name="probe", embedder=EMBEDDER)
    assert isinstance(storage._client, ChromaDBClient)
    assert isinstance(storage._client.client, nowline.Client)


def test_knowledge_storage_hands_on_the_now_line(instrumented: None) -> None:
    """Knowledge from strings, corrected with nowline, gives a model context with the now-line.

    ``KnowledgeStorage.save`` stores plain strings (no metadata), so the correction is written
    with nowline's ``correct()`` through a client of the same store, as a user would.
    """
    knowledge = Knowledge(
        collection_name="notes",
        sources=[StringKnowledgeSource(content=STALE), StringKnowledgeSource(content=SIBLING)],
        embedder=EMBEDDER,
    )
    knowledge.add_sources()
    storage = knowledge.storage
    assert isinstance(storage, KnowledgeStorage) and storage._client is not None
    settings = storage._client.client.get_settings()  # chromadb wants the same settings
    mine = chromadb.PersistentClient(path=settings.persist_directory, settings=settings)
    assert isinstance(mine, nowline.Client)
    collection = mine.get_collection("knowledge_notes", embedding_function=LocalEmbedding())
    report = collection.correct(FIX, deprecates=DEPRECATES)
    assert report.reached == 1

    found = knowledge.query([QUERY], results_limit=3, score_threshold=0.0)
    check(_by_text(found))
    check(_context_lines(found))
    assert NOW_LINE in extract_knowledge_context(found)
    stale = next(r for r in found if original(r["content"]) == STALE)
    assert stale["metadata"]["nowline_role"] == "historical"


def test_uninstrumented_storage_is_plain() -> None:
    """Without instrument(), KnowledgeStorage's client is chromadb's own, unwrapped."""
    storage = KnowledgeStorage(collection_name="plain", embedder=EMBEDDER)
    assert storage._client is not None
    assert not isinstance(storage._client.client, nowline.Client)


def _docs_block() -> str:
    """Return the example of docs/frameworks/crewai.md (```py: tests/test_docs.py leaves it)."""
    page = Path(__file__).parents[3] / "docs" / "frameworks" / "crewai.md"
    blocks = re.findall(r"```py(?:thon)?\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    return str(blocks[0])


def test_the_docs_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The docs page's example runs and its assertions hold.

    This virtualenv has no embedding model (no torch): where sentence-transformers is
    missing, the example's model class is the test embedding.
    """
    if importlib.util.find_spec("sentence_transformers") is None:
        monkeypatch.setattr(nowline, "MiniLMEmbeddingFunction", FakeEmbedding)
    monkeypatch.chdir(tmp_path)
    exec(compile(_docs_block(), "docs/frameworks/crewai.md", "exec"), {"__name__": "__docs__"})
    assert not isinstance(chromadb.PersistentClient(path=str(tmp_path / "after")), nowline.Client)
