"""The verbs' parameter lists, declared once (``nowline._rules.verbs``) for both wrappers."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from typing import Any

import chromadb
import pytest
from chromadb.api.async_client import AsyncClient as ChromaAsyncClient
from chromadb.api.client import Client as ChromaClient
from chromadb.api.models.AsyncCollection import AsyncCollection as ChromaAsyncCollection

import nowline
from nowline._facade import Options
from nowline._rules import verbs as V
from nowline.aio import AsyncClient, AsyncCollection
from tests.conftest import FakeEmbedding

CHROMA_VERBS = ["add", "upsert", "update", "delete", "get", "query"]
NOWLINE_VERBS = ["remember", "correct", "recall", "preview"]
ACCESSORS = ["create_collection", "get_or_create_collection"]


def _params(method: Any) -> list[tuple[str, Any, Any]]:
    """Return a method's parameters as (name, kind, default), a default function by type.

    Each chromadb method has its own instance of its default embedding function.
    """
    out = []
    for p in inspect.signature(method).parameters.values():
        default = p.default
        if isinstance(default, chromadb.api.types.DefaultEmbeddingFunction):
            default = type(default)
        out.append((p.name, p.kind, default))
    return out


@pytest.mark.parametrize("name", CHROMA_VERBS)
def test_the_async_collection_takes_chromadbs_parameters(name: str) -> None:
    """Each async verb has the parameters of chromadb's own async method."""
    assert _params(getattr(AsyncCollection, name)) == _params(getattr(ChromaAsyncCollection, name))


@pytest.mark.parametrize("name", ACCESSORS)
@pytest.mark.parametrize(
    ("ours", "theirs"), [(nowline.Client, ChromaClient), (AsyncClient, ChromaAsyncClient)]
)
def test_the_clients_take_chromadbs_parameters(ours: type, theirs: type, name: str) -> None:
    """The clients' collection accessors have chromadb's parameters and defaults."""
    assert _params(getattr(ours, name)) == _params(getattr(theirs, name))


@pytest.mark.parametrize("name", CHROMA_VERBS + NOWLINE_VERBS)
def test_sync_and_async_verbs_take_the_same_parameters(name: str) -> None:
    """The sync and the async method of a verb have one parameter list."""
    assert _params(getattr(nowline.Collection, name)) == _params(getattr(AsyncCollection, name))


def test_wrong_arguments_name_the_verb() -> None:
    """An argument error says which method was called, as Python's own error would."""
    memory = nowline.wrap(
        chromadb.EphemeralClient().create_collection("verbs", embedding_function=FakeEmbedding())
    )
    with pytest.raises(
        TypeError, match=r"^Collection\.add\(\) missing 1 required positional argument: 'ids'"
    ):
        memory.add()  # type: ignore[call-arg]
    with pytest.raises(
        TypeError, match=r"^Collection\.query\(\) got an unexpected keyword argument 'text'"
    ):
        memory.query(text="x")  # type: ignore[call-arg]
    with pytest.raises(
        TypeError, match=r"^Collection\.correct\(\) missing 1 required keyword-only"
    ):
        memory.correct("Moved from a to b.")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"^wrap\(\) got an unexpected keyword argument 'scope'"):
        nowline.wrap(memory.raw, scope="user_id")  # type: ignore[call-arg]


@pytest.mark.parametrize("name", CHROMA_VERBS)
def test_async_arguments_are_checked_at_the_call_as_chromadbs(name: str) -> None:
    """A wrong argument to an async verb raises at the call (no coroutine), as chromadb's."""
    with pytest.raises(TypeError) as theirs:
        getattr(ChromaAsyncCollection, name)(object(), no_such_argument=1)
    with pytest.raises(TypeError) as ours:
        getattr(AsyncCollection, name)(object(), no_such_argument=1)
    assert str(ours.value) == str(theirs.value)


def test_a_nowline_error_is_not_renamed() -> None:
    """A nowline error raised while the arguments are taken keeps its own class."""
    with pytest.raises(nowline.InvalidInput, match="refresh_seconds"):
        V.call_as("wrap", Options, refresh_seconds=-1)


def test_positional_arguments_keep_chromadbs_order() -> None:
    """Positional arguments land where chromadb's signature puts them (get: ids, where, limit)."""
    memory = nowline.wrap(
        chromadb.EphemeralClient().create_collection("order", embedding_function=FakeEmbedding())
    )
    memory.add(["a", "b", "c"], documents=["x one", "x two", "y three"])
    got = memory.get(None, None, 1, 1)
    assert got["ids"] == ["b"]
    positional = memory.query(None, ["x"], None, None, None, 2)
    assert positional["ids"] == memory.query(query_texts=["x"], n_results=2)["ids"]
    assert len(positional["ids"][0]) == 2


def test_async_verbs_stay_coroutine_functions() -> None:
    """Frameworks that test ``iscoroutinefunction`` see the async verbs as coroutines."""
    for name in CHROMA_VERBS + NOWLINE_VERBS:
        assert inspect.iscoroutinefunction(getattr(AsyncCollection, name)), name
    for name in ACCESSORS:
        assert inspect.iscoroutinefunction(getattr(AsyncClient, name)), name


def test_the_async_verbs_take_the_arguments() -> None:
    """An async verb called with positional and keyword arguments receives them all."""
    seen: list[Any] = []

    class Probe:
        @V.takes(V.RecallArgs)
        async def recall(self, call: V.RecallArgs) -> V.RecallArgs:
            seen.append(call)
            return call

    call = asyncio.run(Probe().recall("where?", n_results=2, as_of=5))
    assert call == V.RecallArgs("where?", n_results=2, as_of=5) and seen == [call]
    with pytest.raises(dataclasses.FrozenInstanceError):
        call.text = "changed"  # type: ignore[misc]


def test_help_shows_the_declared_signature() -> None:
    """``help()`` and ``inspect`` show the verb's parameters, not the model."""
    text = str(inspect.signature(nowline.Collection.correct))
    assert text.startswith("(self, text: 'str', *, deprecates:")
    assert "call" not in text
    assert nowline.Collection.correct.__doc__ is not None
    assert nowline.Collection.correct.__name__ == "correct"


def test_a_parameter_may_be_called_name() -> None:
    """A verb whose parameter is called ``name`` (the client accessors) takes it by keyword."""
    client = nowline.wrap(chromadb.EphemeralClient())
    memory = client.get_or_create_collection(name="named", embedding_function=FakeEmbedding())
    again = client.create_collection(name="named", get_or_create=True)
    assert memory.name == again.name == "named"
