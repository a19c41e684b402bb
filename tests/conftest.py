"""Shared fixtures: real PersistentClient stores in temp dirs and a deterministic fake embedder."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pytest
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.utils.embedding_functions import register_embedding_function

import nowline

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")


@register_embedding_function
class FakeEmbedding(EmbeddingFunction[Documents]):
    """Deterministic 32-dimensional embeddings: a hash of each word, summed and normalised.

    Texts that share words land close together, which is enough to test retrieval logic.
    """

    def __init__(self) -> None:
        """Nothing to load."""

    def __call__(self, input: Documents) -> Embeddings:
        """Embed each text as a normalised bag of hashed words."""
        out = []
        for text in input:
            v = np.zeros(32, dtype=np.float32)
            for word in text.lower().split():
                h = hashlib.sha256(word.encode("utf-8", "surrogatepass")).digest()
                v += np.frombuffer(h, dtype=np.uint8)[:32].astype(np.float32) - 127.5
            norm = float(np.linalg.norm(v))
            out.append(v / norm if norm else np.ones(32, dtype=np.float32) / np.sqrt(32))
        return out

    @staticmethod
    def name() -> str:
        """Return the registered name."""
        return "nowline-test-fake"

    def get_config(self) -> dict[str, Any]:
        """Return an empty config."""
        return {}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> FakeEmbedding:
        """Rebuild from config."""
        return FakeEmbedding()


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    """Return a fresh folder for a persistent Chroma store."""
    return str(tmp_path / "store")


@pytest.fixture
def raw_client(store_path: str) -> Iterator[chromadb.api.ClientAPI]:
    """Return a chromadb PersistentClient on a fresh folder."""
    client = chromadb.PersistentClient(path=store_path)
    yield client


@pytest.fixture
def client(raw_client: chromadb.api.ClientAPI) -> nowline.Client:
    """Return the fresh PersistentClient wrapped by nowline."""
    return nowline.wrap(raw_client)


@pytest.fixture
def memory(client: nowline.Client) -> nowline.Collection:
    """Return an empty wrapped collection with the fake embedder."""
    return client.create_collection("memory", embedding_function=FakeEmbedding())


@pytest.fixture
def scoped(client: nowline.Client) -> nowline.Collection:
    """Return an empty wrapped collection scoped by ``user_id``."""
    raw = client.raw.create_collection("scoped", embedding_function=FakeEmbedding())
    return nowline.wrap(raw, scope_key="user_id")


def snapshot(collection: Any) -> dict[str, Any]:
    """Return every record of a collection (ids, documents, metadatas), sorted by id."""
    got = collection.get(include=["documents", "metadatas"])
    rows = sorted(zip(got["ids"], got["documents"], got["metadatas"], strict=True))
    return {"count": collection.count(), "rows": rows}


def strip_nowline(meta: Any) -> Any:
    """Return a metadata without nowline's bookkeeping keys (None when nothing is left)."""
    if meta is None:
        return None
    rest = {k: v for k, v in meta.items() if not k.startswith("nowline_")}
    return rest or None
