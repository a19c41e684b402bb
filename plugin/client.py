"""``nowline.wrap``: wrap a chromadb collection or client.

:class:`Client` is a chromadb ``ClientAPI`` (``isinstance`` holds), and what ``wrap()`` returns
is an instance of the wrapped client's own class as well (``chromadb.api.client.Client``; see
``_concrete.py``). It forwards every client method to the wrapped client; the methods that
return collections return them wrapped, and the ones that change the store take a local
store's writer lock first. Attributes it does not name (a later chromadb's new methods,
``close``, ``_server``, ...) pass straight through.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload
from uuid import UUID

from chromadb.api import AsyncClientAPI, ClientAPI
from chromadb.api.client import Client as ChromaClient
from chromadb.api.models.AsyncCollection import AsyncCollection as ChromaAsyncCollection
from chromadb.api.models.Collection import Collection as ChromaCollection
from chromadb.api.types import DataLoader, EmbeddingFunction
from chromadb.errors import NotFoundError
from typing_extensions import Unpack

from ._concrete import client_class
from ._facade import (
    DEFAULT_EF,
    ClientFacade,
    CreateArgs,
    OpenArgs,
    WrapOptions,
    forward_client_api,
)
from ._io.chroma import local_store
from ._io.execute import SyncStore, run_sync
from ._io.flows import drain_flow
from ._io.lock import hold_writer_lock
from ._io.mark import companion_name, is_companion, visible_page
from ._rules import verbs as V
from .collection import Collection, Options
from .errors import InvalidInput

if TYPE_CHECKING:
    from .aio import AsyncClient, AsyncCollection

__all__ = ["INSTRUMENTED", "Client", "WrapOptions", "instrumented", "wrap"]

T = TypeVar("T")

INSTRUMENTED: weakref.WeakSet[Any] = weakref.WeakSet()
"""The clients that instrument() wrapped: wrap() of one re-wraps its chromadb client."""


def instrumented(client: object) -> bool:
    """Tell whether ``client`` is a wrapper that :func:`nowline.instrument` made."""
    try:
        return client in INSTRUMENTED
    except TypeError:
        return False


class Client(ClientFacade[ClientAPI], ClientAPI):
    """A chromadb client whose collections come back wrapped by nowline.

    Create one with :func:`nowline.wrap`. Collections created with chromadb's default
    embedding function keep it in their configuration, and nowline embeds them with the
    same model loaded offline (all-MiniLM-L6-v2); ``embedding_function=None`` means none.
    """

    def __enter__(self) -> Client:
        """Enter the wrapped client's context."""
        self._client.__enter__()  # type: ignore[attr-defined]
        return self

    def __exit__(self, *exc: object) -> None:
        """Leave the wrapped client's context (it closes)."""
        self._client.__exit__(*exc)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        """Return a short description."""
        return f"nowline.Client({self._client!r})"

    def _wrap(self, collection: ChromaCollection) -> Collection:
        """Wrap one collection with this client's options."""
        return Collection(collection, self._options)

    def _writing(self) -> None:
        """Before a change to the store: take a local store's writer lock."""
        _, path = local_store(getattr(self._client, "_server", None))
        if path is not None:
            hold_writer_lock(path)

    @V.takes(CreateArgs)
    def create_collection(self, call: CreateArgs) -> Collection:
        """Create a collection, as chromadb's, wrapped."""
        self._writing()
        return self._wrap(self._client.create_collection(**V.as_kwargs(call)))

    @V.takes(OpenArgs)
    def get_or_create_collection(self, call: OpenArgs) -> Collection:
        """Open or create a collection, as chromadb's, wrapped (creating takes the lock)."""
        try:
            self._client.get_collection(name=call.name, embedding_function=call.embedding_function)
        except NotFoundError:
            self._writing()  # it will be created: that is a write
        return self._wrap(self._client.get_or_create_collection(**V.as_kwargs(call)))

    def get_collection(
        self,
        name: str,
        embedding_function: EmbeddingFunction[Any] | None = DEFAULT_EF,
        data_loader: DataLoader[Any] | None = None,
    ) -> Collection:
        """Open a collection, as chromadb's, wrapped."""
        return self._wrap(
            self._client.get_collection(
                name=name, embedding_function=embedding_function, data_loader=data_loader
            )
        )

    def get_collection_by_id(
        self,
        id: UUID,
        embedding_function: EmbeddingFunction[Any] | None = DEFAULT_EF,
        data_loader: DataLoader[Any] | None = None,
    ) -> Collection:
        """Open a collection by its id, as chromadb's, wrapped."""
        return self._wrap(
            self._client.get_collection_by_id(
                id=id, embedding_function=embedding_function, data_loader=data_loader
            )
        )

    def list_collections(
        self, limit: int | None = None, offset: int | None = None
    ) -> Sequence[Collection]:
        """List the collections, wrapped, as chromadb's ``list_collections``.

        The companion collections that hold nowline's generation marks are left out.
        """
        page = self._client.list_collections(limit=limit, offset=offset)
        if limit is not None or offset is not None:
            page = visible_page(self._client.list_collections(), page, limit, offset)
        return [self._wrap(c) for c in page if not is_companion(c.name)]

    def count_collections(self) -> int:
        """Count the collections, as chromadb's, leaving out nowline's companion collections."""
        total = self._client.count_collections()
        if total == 0:
            return 0
        return sum(1 for c in self._client.list_collections() if not is_companion(c.name))

    def delete_collection(self, name: str) -> None:
        """Delete a collection and all its records, as chromadb's.

        The records are deleted first: chromadb 1.5.9 otherwise lets their list-valued
        metadata (such as ``deprecates``) resurface on records of a collection created later
        (chroma-core/chroma#7594), which would turn new memories into corrections.
        """
        collection = self._client.get_collection(name=name)
        self._writing()
        run_sync(drain_flow(), SyncStore(collection, None))
        self._client.delete_collection(name=name)
        with contextlib.suppress(NotFoundError):  # its generation mark goes with it
            self._client.delete_collection(name=companion_name(collection.id))

    def reset(self) -> bool:
        """Reset the store, as chromadb's (when its settings allow it)."""
        self._writing()
        return self._client.reset()


# Forward every other method of chromadb's client API (abstract or not) explicitly.
forward_client_api(Client, ClientAPI, ChromaClient)


@overload
def wrap(target: ChromaAsyncCollection, **options: Unpack[WrapOptions]) -> AsyncCollection: ...


@overload
def wrap(target: AsyncClientAPI, **options: Unpack[WrapOptions]) -> AsyncClient: ...


@overload
def wrap(target: ChromaCollection, **options: Unpack[WrapOptions]) -> Collection: ...


@overload
def wrap(target: ClientAPI, **options: Unpack[WrapOptions]) -> Client: ...


def wrap(
    target: ChromaCollection | ClientAPI | ChromaAsyncCollection | AsyncClientAPI,
    **options: Unpack[WrapOptions],
) -> Collection | Client | AsyncCollection | AsyncClient:
    """Wrap a chromadb collection (or a client, whose collections then come back wrapped).

    Async chromadb objects (``await chromadb.AsyncHttpClient(...)`` and its collections) give
    :class:`nowline.AsyncClient` and :class:`nowline.AsyncCollection`. A client that
    :func:`nowline.instrument` wrapped is wrapped afresh, with these options.

    Args:
        target: a ``chromadb.Collection`` or a chromadb client, sync or async.
        scope_key: a metadata key (e.g. ``"user_id"``); a correction then reaches only
            records with the same value. Corrections record it, so a store keeps its key.
        embedding_function: embeds documents and query texts. Default: the collection's own,
            unless that is chromadb's download-at-first-use default, which is replaced by
            :func:`nowline.embedding_function` (the same model, offline).
        annotate: write correction lines into the documents ``query()`` returns.
        max_reach: the default limit on how much of the store one correction may reach: a
            share (float in (0, 1], never below ``REACH_FLOOR`` records), a count, or None.
        refresh_seconds: how often, at most, corrections changed elsewhere are looked up on
            read (the freshness bound; see the README's "Freshness").
        text_key: a metadata key that holds each record's text (mem0 stores none in the
            document and keeps it under ``"data"``): nowline then matches, links, checks and
            annotates that field instead of the document, and a correction's text is read
            from it (it needs no document). None: the document is the text.

    Returns:
        A :class:`nowline.Collection` or :class:`nowline.Client`, or their async counterparts.

    Raises:
        InvalidInput: ``target`` is neither, or an option is invalid.
    """
    from .aio import AsyncClient, AsyncCollection

    if instrumented(target):  # wrap()'s own options for a client instrument() wrapped
        target = target.raw  # type: ignore[union-attr]
    if isinstance(target, (Client, Collection, AsyncClient, AsyncCollection)):
        raise InvalidInput("This object is already wrapped by nowline; use it as is.")
    checked = V.call_as("wrap", Options, **options)
    if isinstance(target, ChromaCollection):
        return Collection(target, checked)
    if isinstance(target, ClientAPI):
        # The forwarders of chromadb's client API are generated above, which mypy cannot see.
        return client_class(Client, type(target))(target, checked)  # type: ignore[abstract]
    if isinstance(target, ChromaAsyncCollection):
        return AsyncCollection(target, checked)
    if isinstance(target, AsyncClientAPI):
        return client_class(AsyncClient, type(target))(target, checked)  # type: ignore[abstract]
    raise InvalidInput(
        f"wrap() takes a chromadb Collection or client, not {type(target).__name__}."
    )


wrap.__signature__ = V.signature_with(wrap, Options)  # type: ignore[attr-defined]
