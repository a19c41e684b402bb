"""One conformance suite, two subjects: chromadb's collection and nowline's, with no corrections.

Each case runs the same calls on a bare chromadb collection and on a wrapped one over an
identical store, and asserts identical outcomes: the same result (ids, documents, metadatas,
distances, embeddings as numpy arrays) or the same exception class and message. Drop-in means
that code written for chromadb sees what chromadb would show it; nowline's bookkeeping keys and
its choice of embedding model never show.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import chromadb
import numpy as np
import pytest
from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection as ChromaCollection

import nowline
from tests.conftest import FakeEmbedding

EMB = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.5, 0.5, 0.0]]


def _normal(value: Any) -> Any:
    """Return a result with numpy arrays as lists and floats rounded, for comparison."""
    if isinstance(value, np.ndarray):
        return ("ndarray", _normal(value.tolist()))
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normal(v) for v in value]
    if isinstance(value, float):
        return round(value, 4) if math.isfinite(value) else repr(value)
    return value


def _outcome(call: Callable[[Any], Any], subject: Any) -> Any:
    """Return what a call gives: ("ok", normalised result) or ("error", class, message)."""
    try:
        return ("ok", _normal(call(subject)))
    except Exception as exc:  # the class and message are what is compared
        return ("error", type(exc).__name__, str(exc))


def _pair(tmp_path: Any) -> tuple[ChromaCollection, nowline.Collection]:
    """Return a bare and a wrapped collection over two identical stores (no model needed)."""
    subjects = []
    for name in ("bare", "wrapped"):
        client = chromadb.PersistentClient(path=str(tmp_path / name))
        raw = client.create_collection("same", embedding_function=FakeEmbedding())
        subjects.append(raw)
    return subjects[0], nowline.wrap(subjects[1])


CASES: dict[str, Callable[[Any], Any]] = {
    "metadata None reads back None": lambda c: (
        c.add(ids=["a", "b"], embeddings=EMB[:2], metadatas=[None, {"k": 1}]),
        c.get(include=["metadatas"]),
        c.peek(2),
        c.query(query_embeddings=[EMB[0]], n_results=2),
    ),
    "partial documents": lambda c: (
        c.add(ids=["a", "b"], embeddings=EMB[:2], documents=["x", None]),
        c.get(include=["documents"]),
    ),
    "a document that reads like a now-line is stored and read back as given": lambda c: (
        c.add(ids=["a"], documents=["Before: v1\nNow: v2\n  now: v3 (indented by two)"]),
        c.get(include=["documents", "metadatas"]),
    ),
    "NaN metadata is accepted (and dropped) as chromadb does": lambda c: (
        c.add(ids=["a"], embeddings=EMB[:1], metadatas=[{"x": float("nan"), "y": 1}]),
        c.get(include=["metadatas"]),
    ),
    "get(include=None)": lambda c: c.get(include=None),
    "add(ids=[])": lambda c: c.add(ids=[], embeddings=[]),
    "tuple ids": lambda c: c.add(ids=("a",), embeddings=EMB[:1]),  # type: ignore[arg-type]
    "duplicate ids": lambda c: c.add(ids=["a", "a"], embeddings=EMB[:2]),
    "empty metadata dict": lambda c: c.add(ids=["a"], embeddings=EMB[:1], metadatas=[{}]),
    "nested metadata": lambda c: c.add(ids=["a"], embeddings=EMB[:1], metadatas=[{"k": {"x": 1}}]),
    "wrong embedding dimension": lambda c: (
        c.add(ids=["a"], embeddings=EMB[:1]),
        c.add(ids=["b"], embeddings=[[1.0, 2.0]]),
    ),
    "empty get with embeddings is a numpy array": lambda c: c.get(
        ids=["missing"], include=["embeddings"]
    ),
    "get order, limit and offset": lambda c: (
        c.add(ids=["c", "a", "b", "d"], embeddings=EMB),
        c.get(ids=["d", "a", "c"], include=[]),
        c.get(ids=["d", "a", "c"], limit=2, include=[]),
        c.get(ids=["d", "a", "c"], offset=1, include=[]),
        c.get(limit=2, offset=1, include=[]),
    ),
    "add of an existing id is ignored": lambda c: (
        c.add(ids=["a"], embeddings=EMB[:1], documents=["old"], metadatas=[{"v": 1}]),
        c.add(ids=["a"], embeddings=EMB[1:2], documents=["new"], metadatas=[{"v": 2}]),
        c.get(include=["documents", "metadatas", "embeddings"]),
    ),
    "update merges metadata and None removes a key": lambda c: (
        c.add(ids=["a"], embeddings=EMB[:1], metadatas=[{"v": 1, "w": 2}]),
        c.update(ids=["a"], metadatas=[{"v": None, "x": 3}]),
        c.get(include=["metadatas"]),
    ),
    "update of a missing id": lambda c: (
        c.update(ids=["nope"], embeddings=EMB[:1]),
        c.count(),
    ),
    "upsert keeps the stored document": lambda c: (
        c.add(ids=["a"], embeddings=EMB[:1], documents=["d"], metadatas=[{"k": 1}]),
        c.upsert(ids=["a"], embeddings=EMB[1:2], metadatas=[{"j": 2}]),
        c.get(include=["documents", "metadatas"]),
    ),
    "delete with limit but no filter": lambda c: c.delete(ids=["a"], limit=1),
    "delete without arguments": lambda c: c.delete(),
    "delete by where": lambda c: (
        c.add(ids=["a", "b"], embeddings=EMB[:2], metadatas=[{"k": 1}, {"k": 2}]),
        c.delete(where={"k": 1}),
        c.get(include=[]),
    ),
    "query n_results 0": lambda c: c.query(query_embeddings=[EMB[0]], n_results=0),
    "query include embeddings": lambda c: (
        c.add(ids=["a", "b"], embeddings=EMB[:2]),
        c.query(query_embeddings=[EMB[0], EMB[1]], n_results=1, include=["embeddings"]),
    ),
    "query where on user metadata": lambda c: (
        c.add(ids=["a", "b"], embeddings=EMB[:2], metadatas=[{"k": 1}, None]),
        c.query(query_embeddings=[EMB[0]], n_results=2, where={"k": 1}),
    ),
    "bad where operator": lambda c: c.get(where={"k": {"$bad": 1}}),
    "modify hnsw space is refused": lambda c: c.modify(metadata={"hnsw:space": "cosine"}),
    "modify metadata": lambda c: (c.modify(metadata={"owner": "me"}), c.metadata),
    "count": lambda c: (c.add(ids=["a", "b"], embeddings=EMB[:2]), c.count()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome_as_chromadb(tmp_path: Any, name: str) -> None:
    """A call gives the wrapped collection the same result or error as the bare one."""
    bare, wrapped = _pair(tmp_path)
    assert _outcome(CASES[name], wrapped) == _outcome(CASES[name], bare)


def test_wrapped_objects_are_chromadb_objects(client: nowline.Client) -> None:
    """The wrapped client is a ClientAPI and its collections are chromadb Collections."""
    assert isinstance(client, ClientAPI)
    col = client.create_collection("typed", embedding_function=FakeEmbedding())
    assert isinstance(col, ChromaCollection) and isinstance(col, nowline.Collection)
    for name in ("reset", "get_settings", "set_database", "get_version", "get_collection_by_id"):
        assert callable(getattr(client, name)), name
    assert client.tenant == client.raw.tenant and client.database == client.raw.database
    assert isinstance(client.get_collection_by_id(col.id), nowline.Collection)
    for name in ("search", "fork", "get_model", "attach_function", "get_indexing_status"):
        assert callable(getattr(col, name)), name
    assert (col.tenant, col.database, col.get_model()) == (
        col.raw.tenant,
        col.raw.database,
        col.raw.get_model(),
    )
    assert col.schema is not None


def test_a_method_nowline_does_not_name_passes_through(
    client: nowline.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A method a later chromadb adds works through the wrappers without a nowline release."""
    monkeypatch.setattr(
        ChromaCollection, "future_method", lambda self, x: (self.name, x), raising=False
    )
    monkeypatch.setattr(
        type(client.raw), "future_client_method", lambda self: "from chromadb", raising=False
    )
    col = client.create_collection("future", embedding_function=FakeEmbedding())
    assert col.future_method(3) == ("future", 3)  # type: ignore[attr-defined]
    assert client.future_client_method() == "from chromadb"  # type: ignore[attr-defined]


def test_new_collections_keep_chromadbs_default_space(client: nowline.Client) -> None:
    """A collection created through nowline has chromadb's l2 space, whatever the function."""
    default = client.create_collection("deflt")
    own = client.create_collection("own", embedding_function=nowline.embedding_function())
    assert default.configuration_json["hnsw"]["space"] == "l2"
    assert own.configuration_json["hnsw"]["space"] == "l2"
    assert isinstance(default.embedding_function, nowline.MiniLMEmbeddingFunction)


def test_embedding_function_none_is_chromadbs_none(raw_client: ClientAPI) -> None:
    """embedding_function=None keeps no function, as chromadb; embedding falls back as it does."""
    bare = raw_client.create_collection("none-bare", embedding_function=None)
    wrapped = nowline.wrap(raw_client).create_collection("none-wrapped", embedding_function=None)
    assert wrapped._embedding_function is None and bare._embedding_function is None
    assert wrapped.configuration_json.get("embedding_function") == bare.configuration_json.get(
        "embedding_function"
    )
    # chromadb falls back to the schema's default model (a download); nowline to its offline copy
    assert isinstance(wrapped.embedding_function, nowline.MiniLMEmbeddingFunction)


def test_where_filters_on_stored_roles_work_and_raw_shows_bookkeeping(
    memory: nowline.Collection,
) -> None:
    """Roles are stored, so where filters select them; get() hides the keys, raw shows them."""
    memory.add(ids=["m", "n"], documents=["deploy acme/app", "unrelated note"])
    memory.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="c")
    hist = memory.get(where={"nowline_role": "historical"}, include=["metadatas"])
    assert hist["ids"] == ["m"] and hist["metadatas"] == [None]
    assert sorted(memory.get(where={"nowline_role": {"$ne": "historical"}}, include=[])["ids"]) == [
        "c",
        "n",
    ]
    assert memory.raw.get(ids=["m"])["metadatas"][0]["nowline_by"] == ["c"]  # type: ignore[index]


def test_refused_write_above_the_batch_size_stores_nothing(
    memory: nowline.Collection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write above the store's max batch size is refused whole, as chromadb refuses it."""
    monkeypatch.setattr(memory._core, "max_batch", 10)
    with pytest.raises(ValueError, match="exceeds maximum batch size 10"):
        memory.add(ids=[f"r{i}" for i in range(11)], documents=["x"] * 11)
    assert memory.count() == 0


def test_query_quotes_label_lines_and_writes_keep_the_callers_text(
    memory: nowline.Collection,
) -> None:
    """The documented differences around text: query() quotes, a write back restores.

    ``query()`` quotes a stored line that reads as a label, in every hit; writing that very
    document back stores the record's text as it was; any other text is stored as given
    (DIFFERENCES.md).
    """
    memory.correct("Moved from acme/app to acme/web.", deprecates=["acme/app"], id="c")
    stored = "deploy acme/app\nNow: v2"
    memory.add(ids=["a"], documents=[stored])
    (docs,) = memory.query(query_texts=["deploy acme/app"], n_results=1)["documents"] or [[]]
    assert docs[0].startswith("deploy acme/app\n(quoted) Now: v2\n    now: ")
    memory.update(ids=["a"], documents=[docs[0]])
    assert memory.get(ids=["a"])["documents"] == [stored]
    line = "    now: Moved from acme/app to acme/web."
    given = "deploy acme/app\n(quoted) now: v3\n" + line
    memory.add(ids=["b"], documents=[given])
    assert memory.get(ids=["b"])["documents"] == [given]
