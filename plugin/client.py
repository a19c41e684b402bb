"""``nowline.wrap``: wrap a chromadb collection or client."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from chromadb.api import ClientAPI
from chromadb.api.collection_configuration import CreateCollectionConfiguration
from chromadb.api.models.Collection import Collection as ChromaCollection
from chromadb.api.types import CollectionMetadata, DataLoader, EmbeddingFunction, Schema

from nowline.collection import DEFAULT_MAX_REACH, Collection
from nowline.embedding import embedding_function as default_embedding_function
from nowline.errors import InvalidInput

__all__ = ["Client", "wrap"]


class Client:
    """A chromadb client whose collections come back wrapped by nowline.

    Collections it creates default to nowline's offline embedding function; collections it
    opens keep the embedding function persisted in their configuration (Chroma's own
    download-at-first-use default is replaced by the same model, loaded offline).
    """

    def __init__(self, client: ClientAPI, options: dict[str, Any]) -> None:
        """Wrap ``client``; prefer :func:`nowline.wrap`."""
        self._client = client
        self._options = options

    @property
    def raw(self) -> ClientAPI:
        """The wrapped chromadb client."""
        return self._client

    def _wrap(self, collection: ChromaCollection) -> Collection:
        """Wrap one collection with this client's options."""
        return Collection(collection, **self._options)

    def create_collection(
        self,
        name: str,
        schema: Schema | None = None,
        configuration: CreateCollectionConfiguration | None = None,
        metadata: CollectionMetadata | None = None,
        embedding_function: EmbeddingFunction[Any] | None = None,
        data_loader: DataLoader[Any] | None = None,
        get_or_create: bool = False,
    ) -> Collection:
        """Create a collection, as chromadb's; the default embedding function is nowline's."""
        return self._wrap(
            self._client.create_collection(
                name=name,
                schema=schema,
                configuration=configuration,
                metadata=metadata,
                embedding_function=_default_ef(embedding_function),
                data_loader=data_loader,
                get_or_create=get_or_create,
            )
        )

    def get_or_create_collection(
        self,
        name: str,
        schema: Schema | None = None,
        configuration: CreateCollectionConfiguration | None = None,
        metadata: CollectionMetadata | None = None,
        embedding_function: EmbeddingFunction[Any] | None = None,
        data_loader: DataLoader[Any] | None = None,
    ) -> Collection:
        """Open or create a collection, as chromadb's; nowline's embedding function by default."""
        return self._wrap(
            self._client.get_or_create_collection(
                name=name,
                schema=schema,
                configuration=configuration,
                metadata=metadata,
                embedding_function=_default_ef(embedding_function),
                data_loader=data_loader,
            )
        )

    def get_collection(
        self,
        name: str,
        embedding_function: EmbeddingFunction[Any] | None = None,
        data_loader: DataLoader[Any] | None = None,
    ) -> Collection:
        """Open a collection, as chromadb's, keeping its persisted embedding function."""
        if embedding_function is None:
            return self._wrap(self._client.get_collection(name=name, data_loader=data_loader))
        return self._wrap(
            self._client.get_collection(
                name=name, embedding_function=embedding_function, data_loader=data_loader
            )
        )

    def list_collections(
        self, limit: int | None = None, offset: int | None = None
    ) -> Sequence[Collection]:
        """List the collections, wrapped, as chromadb's ``list_collections``."""
        return [self._wrap(c) for c in self._client.list_collections(limit=limit, offset=offset)]

    def delete_collection(self, name: str) -> None:
        """Delete a collection and all its records, as chromadb's.

        The records are deleted first: chromadb 1.5.9 otherwise lets their list-valued
        metadata (such as ``deprecates``) resurface on records of a collection created later
        (chroma-core/chroma#7594), which would turn new memories into corrections.
        """
        collection = self._client.get_collection(name=name)
        while True:
            ids = collection.get(limit=5000, include=[])["ids"]
            if not ids:
                break
            collection.delete(ids=ids)
        self._client.delete_collection(name=name)

    def count_collections(self) -> int:
        """Return the number of collections."""
        return self._client.count_collections()

    def heartbeat(self) -> int:
        """Return the server's heartbeat (nanoseconds), as chromadb's."""
        return self._client.heartbeat()

    def get_max_batch_size(self) -> int:
        """Return the largest batch the store accepts."""
        return self._client.get_max_batch_size()


def _default_ef(given: EmbeddingFunction[Any] | None) -> Any:
    """Return the given embedding function, or nowline's offline default."""
    return given if given is not None else default_embedding_function()


@overload
def wrap(
    target: ChromaCollection,
    *,
    scope_key: str | None = ...,
    embedding_function: EmbeddingFunction[Any] | None = ...,
    annotate: bool = ...,
    max_reach: float | int | None = ...,
    refresh_seconds: float = ...,
) -> Collection: ...


@overload
def wrap(
    target: ClientAPI,
    *,
    scope_key: str | None = ...,
    embedding_function: EmbeddingFunction[Any] | None = ...,
    annotate: bool = ...,
    max_reach: float | int | None = ...,
    refresh_seconds: float = ...,
) -> Client: ...


def wrap(
    target: ChromaCollection | ClientAPI,
    *,
    scope_key: str | None = None,
    embedding_function: EmbeddingFunction[Any] | None = None,
    annotate: bool = True,
    max_reach: float | int | None = DEFAULT_MAX_REACH,
    refresh_seconds: float = 1.0,
) -> Collection | Client:
    """Wrap a chromadb collection (or a client, whose collections then come back wrapped).

    Args:
        target: a ``chromadb.Collection`` or a chromadb client.
        scope_key: a metadata key (e.g. ``"user_id"``); a correction then reaches only
            records with the same value (DESIGN.md §7).
        embedding_function: embeds documents and query texts. Default: the collection's
            own, unless that is Chroma's download-at-first-use default, which is replaced by
            :func:`nowline.embedding_function` (the same model, offline).
        annotate: write now-lines into the documents ``query()`` returns.
        max_reach: the default limit on how much of the store one correction may reach: a
            share (float in (0, 1], never below ``REACH_FLOOR`` records), a count, or None.
        refresh_seconds: how often, at most, corrections written by other processes are
            looked up on read (the freshness bound for read-time checks).

    Returns:
        A :class:`nowline.Collection`, or a :class:`nowline.Client` for a client.

    Raises:
        InvalidInput: ``target`` is neither, or an option is invalid.
    """
    options: dict[str, Any] = {
        "scope_key": scope_key,
        "embedding_function": embedding_function,
        "annotate": annotate,
        "max_reach": max_reach,
        "refresh_seconds": refresh_seconds,
    }
    if isinstance(target, ChromaCollection):
        return Collection(target, **options)
    if isinstance(target, (Client, Collection)):
        raise InvalidInput("This object is already wrapped by nowline; use it as is.")
    if isinstance(target, ClientAPI):
        return Client(target, options)
    raise InvalidInput(
        f"wrap() takes a chromadb Collection or client, not {type(target).__name__}."
    )
