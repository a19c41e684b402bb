"""agno's ``ChromaDb`` vector store through ``nowline.instrument()``.

agno imports ``from chromadb import PersistentClient`` when it loads and builds its client from
``path``. It flattens list metadata to JSON strings, so ``deprecates=["metalcraftai/ufo"]``
reaches Chroma as ``'["metalcraftai/ufo"]'``, which nowline reads as the list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from agno.knowledge.document import Document
from agno.knowledge.embedder.base import Embedder
from agno.vectordb.chroma import ChromaDb

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
)

pytestmark = pytest.mark.usefixtures("instrumented")


@dataclass
class HashEmbedder(Embedder):
    """An agno embedder from the deterministic test vectors."""

    dimensions: int | None = 32

    def get_embedding(self, text: str) -> list[float]:
        """Embed one text."""
        return vector(text)

    def get_embedding_and_usage(self, text: str) -> tuple[list[float], dict[str, int] | None]:
        """Embed one text; no usage to report."""
        return vector(text), None


@pytest.fixture
def db(tmp_path: Path) -> ChromaDb:
    """Return an agno ChromaDb holding the scenario and its correction."""
    db = ChromaDb(
        collection="agent",
        path=str(tmp_path / "s"),
        persistent_client=True,
        embedder=HashEmbedder(),
    )
    db.create()
    db.insert(
        content_hash="scenario",
        documents=[
            Document(id="pr", content=STALE),
            Document(id="hosted", content=SIBLING),
            Document(id="fix", content=FIX, meta_data={"deprecates": DEPRECATES}),
        ],
    )
    return db


def test_the_client_is_wrapped(db: ChromaDb) -> None:
    """The client agno built for itself is nowline's."""
    assert isinstance(db.client, nowline.Client)


def test_the_flattened_correction_is_stored_as_the_list(db: ChromaDb) -> None:
    """Agno wrote '["metalcraftai/ufo"]'; nowline stored the correction's list."""
    stored = db.client.get_collection("agent").get(where={"content_hash": "scenario"})
    metas = [m for m in stored["metadatas"] or [] if m and "deprecates" in m]
    assert [m["deprecates"] for m in metas] == [DEPRECATES]


def test_search(db: ChromaDb) -> None:
    """search() hands on the stale memory with its now-line, the sibling unchanged."""
    found = db.search(QUERY, limit=3)
    check({original(d.content): d.content for d in found})
    stale = next(d for d in found if original(d.content) == STALE)
    assert stale.meta_data["nowline_role"] == "historical"
