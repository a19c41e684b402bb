"""nowline.Collection as a drop-in chromadb.Collection (the README's "Drop-in fidelity")."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import chromadb
import pytest
from chromadb.api.models.Collection import Collection as ChromaCollection

import nowline
from tests.conftest import FakeEmbedding, strip_nowline

MIRRORED = ["add", "upsert", "update", "delete", "get", "query", "count", "peek", "modify"]

DOCS = [
    "Ana merged the billing PR on Monday.",
    "The staging cluster runs in eu-west-1.",
    "Bo prefers tabs over spaces.",
    "Release 2.1 is planned for March.",
    "The on-call rotation changes every Tuesday.",
    "Chen owns the data pipeline.",
]
METAS: list[dict[str, Any] | None] = [
    {"topic": "code", "n": 1},
    {"topic": "infra", "n": 2},
    None,
    {"topic": "plan", "n": 4, "tags": ["a", "b"]},
    {"topic": "ops", "n": 5},
    {"topic": "data", "n": 6},
]


@pytest.mark.parametrize("name", MIRRORED)
def test_signatures_match_chromadb(name: str) -> None:
    """Each mirrored method has chromadb's parameter names, order, kinds and defaults."""
    ours = inspect.signature(getattr(nowline.Collection, name))
    theirs = inspect.signature(getattr(ChromaCollection, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == [
        (p.name, p.kind, p.default) for p in theirs.parameters.values()
    ]


def test_attributes_match_chromadb(memory: nowline.Collection) -> None:
    """name, id and metadata read through to the wrapped collection."""
    raw = memory.raw
    assert (memory.name, memory.id, memory.metadata) == (raw.name, raw.id, raw.metadata)
    memory.modify(metadata={"owner": "tests"})
    assert memory.metadata == {"owner": "tests"}


@pytest.fixture(params=["chromadb", "nowline"])
def subject(request: pytest.FixtureRequest, store_path: str) -> Iterator[tuple[Any, Any]]:
    """Return the same collection, bare or wrapped, with the same records; and the bare one.

    Each test compares with its own store's bare answer, so no test needs another to have run
    first in the same worker (pytest-xdist's worksteal splits a module's tests across both).
    """
    client = chromadb.PersistentClient(path=store_path)
    raw = client.create_collection("parity", embedding_function=FakeEmbedding())
    col: Any = raw if request.param == "chromadb" else nowline.wrap(raw)
    col.add(ids=[f"id{i}" for i in range(len(DOCS))], documents=DOCS, metadatas=METAS)
    yield col, raw


def _normal_get(result: Any) -> Any:
    """Return a GetResult with nowline keys stripped, for comparison."""
    metas = result["metadatas"]
    return {
        **result,
        "metadatas": None if metas is None else [strip_nowline(m) for m in metas],
        "embeddings": None
        if result["embeddings"] is None
        else [list(e) for e in result["embeddings"]],
    }


def _normal_query(result: Any) -> Any:
    """Return a QueryResult with nowline keys stripped, for comparison."""
    metas = result["metadatas"]
    return {
        **result,
        "metadatas": None if metas is None else [[strip_nowline(m) for m in row] for row in metas],
        "distances": None
        if result["distances"] is None
        else [[round(d, 5) for d in row] for row in result["distances"]],
        "embeddings": None,
    }


@pytest.mark.parametrize(
    "kwargs",
    [
        {"query_texts": ["who merged billing"], "n_results": 3},
        {"query_texts": ["cluster", "tabs"], "n_results": 2},
        {"query_texts": ["plan"], "n_results": 4, "where": {"n": {"$gte": 2}}},
        {"query_texts": ["plan"], "include": ["distances"]},
        {"query_texts": ["ops"], "include": ["documents"], "n_results": 6},
        {"query_texts": ["data"], "where_document": {"$contains": "pipeline"}},
        {"query_embeddings": [FakeEmbedding()(["rotation"])[0]], "n_results": 2},
    ],
    ids=["basic", "batch", "where", "distances-only", "documents-only", "where-doc", "embedding"],
)
def test_query_parity(subject: tuple[Any, Any], kwargs: dict[str, Any]) -> None:
    """With no corrections, query() returns what chromadb returns (ignoring nowline_ keys)."""
    col, bare = subject
    got = _normal_query(col.query(**kwargs))
    assert got == _normal_query(bare.query(**kwargs))
    assert got["ids"] and all(row for row in got["ids"])


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"ids": ["id3", "id1"]},
        {"where": {"topic": "infra"}},
        {"limit": 2, "offset": 1},
        {"include": ["documents"]},
        {"where_document": {"$contains": "Tuesday"}},
        {"where": {"tags": {"$contains": "a"}}},
    ],
    ids=["all", "ids", "where", "page", "docs", "where-doc", "list-contains"],
)
def test_get_parity(subject: tuple[Any, Any], kwargs: dict[str, Any]) -> None:
    """With no corrections, get() returns what chromadb returns (ignoring nowline_ keys)."""
    got, bare = (_normal_get(c.get(**kwargs)) for c in subject)
    if "ids" in kwargs:  # chromadb does not keep the requested order; nowline does
        got, bare = _in_id_order(got), _in_id_order(bare)
    assert got == bare and got["ids"]


def _in_id_order(got: Any) -> Any:
    """Return a GetResult sorted by id."""
    order = sorted(range(len(got["ids"])), key=lambda i: got["ids"][i])
    return {
        k: [v[i] for i in order] if isinstance(v, list) and k != "included" else v
        for k, v in got.items()
    }


def test_count_and_peek_parity(subject: tuple[Any, Any]) -> None:
    """count() and peek() behave as chromadb's."""
    col, _ = subject
    assert col.count() == len(DOCS)
    assert [strip_nowline(m) for m in col.peek(2)["metadatas"]] == METAS[:2]


def test_get_by_ids_keeps_chromadbs_order_limit_and_offset(memory: nowline.Collection) -> None:
    """get(ids=...) returns chromadb's order, and honours limit and offset as chromadb does."""
    memory.add(ids=["a", "b", "c"], documents=["x a", "y b", "z c"])
    raw = memory.raw
    for kwargs in ({}, {"limit": 2}, {"offset": 1}, {"limit": 1, "offset": 1}):
        assert (
            memory.get(ids=["c", "a", "b"], **kwargs)["ids"]
            == (raw.get(ids=["c", "a", "b"], **kwargs)["ids"])
        )


def test_get_pages_large_reads(memory: nowline.Collection) -> None:
    """A get() larger than one page returns every row."""
    n = 5200
    emb = [[1.0] + [0.0] * 31] * n
    memory.raw.add(
        ids=[f"r{i}" for i in range(n)], embeddings=emb, metadatas=[{"i": i} for i in range(n)]
    )
    got = memory.get(include=["metadatas"])
    assert len(got["ids"]) == n and len(set(got["ids"])) == n
    assert len(memory.get(limit=5100, offset=50)["ids"]) == 5100


def test_query_annotates_and_get_does_not(memory: nowline.Collection) -> None:
    """query() shows now-lines under historical hits; get() returns the stored text."""
    memory.add(ids=["m"], documents=["deploy metalcraftai/ufo now"])
    memory.correct(
        "Moved from metalcraftai/ufo to ufo-ai/ufo.", deprecates=["metalcraftai/ufo"], id="c"
    )
    q = memory.query(query_texts=["deploy"], n_results=2)
    docs = dict(zip(q["ids"][0], q["documents"][0], strict=True))
    metas = dict(zip(q["ids"][0], q["metadatas"][0], strict=True))
    assert (
        docs["m"]
        == "deploy metalcraftai/ufo now\n    now: Moved from metalcraftai/ufo to ufo-ai/ufo."
    )
    assert metas["m"] == {"nowline_role": "historical", "nowline_by": ["c"], "nowline_now": ["c"]}
    assert metas["c"] == {"deprecates": ["metalcraftai/ufo"]}  # not superseded: as stored
    assert memory.get(ids=["m"])["documents"] == ["deploy metalcraftai/ufo now"]


def test_query_then_update_never_stores_a_now_line(memory: nowline.Collection) -> None:
    """A read-modify-write through query() and update() stores the original text."""
    memory.add(ids=["m"], documents=["deploy metalcraftai/ufo now"])
    memory.correct(
        "Moved from metalcraftai/ufo to ufo-ai/ufo.", deprecates=["metalcraftai/ufo"], id="c"
    )
    q = memory.query(query_texts=["deploy"], n_results=1, where={"nowline_role": "historical"})
    memory.update(ids=q["ids"][0], documents=q["documents"][0])
    memory.upsert(ids=q["ids"][0], documents=q["documents"][0])
    assert memory.get(ids=["m"])["documents"] == ["deploy metalcraftai/ufo now"]


def test_annotate_false_leaves_documents(client: nowline.Client) -> None:
    """With annotate=False, query() documents carry no now-lines but metadata still has roles."""
    raw = client.raw.create_collection("plain", embedding_function=FakeEmbedding())
    col = nowline.wrap(raw, annotate=False)
    col.add(ids=["m"], documents=["deploy metalcraftai/ufo now"])
    col.correct("Moved from metalcraftai/ufo to x/ufo.", deprecates=["metalcraftai/ufo"], id="c")
    q = col.query(query_texts=["deploy"], n_results=1)
    assert q["documents"] == [["deploy metalcraftai/ufo now"]]
    assert q["metadatas"] is not None and q["metadatas"][0][0]["nowline_role"] == "historical"


def test_query_does_not_mutate_callers_include(memory: nowline.Collection) -> None:
    """The caller's include list is never changed."""
    memory.add(ids=["m"], documents=["x"])
    include: Any = ["distances"]
    memory.query(query_texts=["x"], n_results=1, include=include)
    assert include == ["distances"]
    get_include: Any = ["documents"]
    memory.get(include=get_include)
    assert get_include == ["documents"]


def test_wrap_client_lists_wrapped_collections(client: nowline.Client) -> None:
    """A wrapped client gives wrapped collections from every accessor."""
    client.create_collection("one", embedding_function=FakeEmbedding())
    client.get_or_create_collection("two", embedding_function=FakeEmbedding())
    assert all(isinstance(c, nowline.Collection) for c in client.list_collections())
    assert isinstance(client.get_collection("one"), nowline.Collection)
    assert client.count_collections() == 2


def test_wrap_rejects_other_objects() -> None:
    """wrap() of something that is not a chromadb collection or client says what it takes."""
    with pytest.raises(nowline.InvalidInput, match="Collection or client"):
        nowline.wrap("not a collection")  # type: ignore[call-overload]
