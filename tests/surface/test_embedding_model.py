"""With the real offline all-MiniLM-L6-v2 model: recall with now-lines; the persisted model name."""

from __future__ import annotations

import json

import chromadb
import pytest

import nowline

pytestmark = pytest.mark.model


def test_real_model_recall_brings_the_correction(store_path: str) -> None:
    """A natural question retrieves the stale memories, each with the correction beneath it."""
    memory = nowline.wrap(chromadb.PersistentClient(path=store_path)).create_collection("agent")
    memory.add(
        ids=["pr", "clone", "lunch", "hosted"],
        documents=[
            "metalcraftai/ufo — PR #1705 passed review.",
            "To work on UFO core, git clone https://github.com/metalcraftai/ufo.git",
            "The team lunch is on Thursday at noon.",
            "metalcraftai/ufo-hosted is the hosted service; deploys are on Fridays.",
        ],
    )
    memory.correct(
        "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo.",
        deprecates=["metalcraftai/ufo"],
        id="move",
    )
    recall = memory.recall("How do I clone the UFO core repository?", n_results=2)
    assert {h.id for h in recall.hits} <= {"pr", "clone", "move"}
    assert recall.hits[0].id == "clone" and recall.hits[0].now[0].id == "move"
    assert "\n    now: UFO core — Moved" in recall.render()


def test_persisted_config_names_the_model_not_a_path(store_path: str) -> None:
    """The collection config stores the function by name, so a moved environment resolves it.

    A collection created with chromadb's default keeps chromadb's name ("default", the same
    all-MiniLM-L6-v2) and its l2 space, and nowline embeds it offline; nowline's own function
    persists as "nowline-minilm" with the model's name, never a path.
    """
    client = chromadb.PersistentClient(path=store_path)
    nowline.wrap(client).create_collection("agent")
    nowline.wrap(client).create_collection("own", embedding_function=nowline.embedding_function())
    config = client.get_collection("agent").configuration_json
    assert config["embedding_function"]["name"] == "default"
    assert config["hnsw"]["space"] == "l2"
    own = client.get_collection("own").configuration_json
    ef = own["embedding_function"]
    assert ef["name"] == "nowline-minilm" and ef["config"] == {"model": "all-MiniLM-L6-v2"}
    assert "/" not in json.dumps(ef["config"]) and own["hnsw"]["space"] == "l2"
    for name in ("agent", "own"):
        reopened = nowline.wrap(chromadb.PersistentClient(path=store_path)).get_collection(name)
        assert isinstance(reopened.embedding_function, nowline.MiniLMEmbeddingFunction)
