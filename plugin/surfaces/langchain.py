"""LangChain integration: ``NowlineChroma``, a drop-in ``langchain_chroma.Chroma`` with now-lines.

Swap ``langchain_chroma.Chroma`` for :class:`NowlineChroma` (same constructor) and change
nothing else: every write goes through :func:`nowline.wrap` of the underlying chromadb
collection, so links are computed exactly as in the core, and every search, retriever and chain
built on the store receives now-lines under stale hits::

    from nowline.langchain import NowlineChroma

    store = NowlineChroma("memory", embedding_function=embeddings, persist_directory="mem")
    store.add_texts(["metalcraftai/ufo — PR #1705 passed review."])
    store.add_texts(
        ["UFO moved from metalcraftai/ufo to ufo-ai/ufo."],
        metadatas=[{"deprecates": ["metalcraftai/ufo"]}],
    )
    store.as_retriever().invoke("ufo pull request")  # the PR memory, with its now-line

Documents keep the user's metadata; a historical or transition hit also carries
``nowline_role`` and ``nowline_now`` (the ids of the newest corrections). :class:`NowlineRetriever`
brings the same read-time now-lines to a retriever of any other vector store.

Install the extra first: ``pip install -c constraints.txt -e '.[langchain]'`` in a checkout
(torch first, as the README says). Importing :mod:`nowline` never
imports LangChain; only importing this module does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import chromadb
import numpy as np
from chromadb import Search
from chromadb.api import ClientAPI
from chromadb.api.collection_configuration import CreateCollectionConfiguration
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

try:
    from langchain_chroma import Chroma
    from langchain_core.callbacks import (
        AsyncCallbackManagerForRetrieverRun,
        CallbackManagerForRetrieverRun,
    )
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings as LangChainEmbeddings
    from langchain_core.retrievers import BaseRetriever
except ImportError as exc:  # the extra is not installed
    from ..errors import MissingExtra

    raise MissingExtra(
        "nowline.langchain needs LangChain and langchain-chroma", "langchain"
    ) from exc

from ..client import wrap
from ..collection import Collection
from ..render import sanitize
from ..requests import DEFAULT_MAX_REACH, trip_metadata

__all__ = ["NowlineChroma", "NowlineRetriever"]


class NowlineChroma(Chroma):
    """A ``langchain_chroma.Chroma`` whose stale hits carry their newest correction.

    The constructor is ``Chroma``'s, plus keyword-only nowline options. Every read and write of
    the underlying chromadb collection goes through a :class:`nowline.Collection`, so:

    - ``add_texts`` / ``add_documents`` accept corrections: a metadata with ``deprecates``
      (a list of the exact outdated strings) makes the record a correction, and every stored
      record that names one of them is linked before the call returns.
    - ``similarity_search``, ``similarity_search_with_score``,
      ``similarity_search_by_vector``, ``max_marginal_relevance_search``, ``as_retriever()``
      and every chain built on them return Documents whose ``page_content`` carries, on new
      lines, one ``"    now: <correction>"`` line per newest correction of a historical hit. The
      metadata of a historical or transition hit gains ``nowline_role`` and ``nowline_now``
      (the ids of the newest corrections); a hit without ``nowline_role`` is current. nowline's
      other bookkeeping keys are left out, so plain memories come back with exactly the
      metadata they were stored with.
    - ``get_by_ids`` returns stored texts untouched (no now-lines) with the user's metadata;
      ``get`` returns the raw records exactly as stored, bookkeeping included.
    - ``delete`` of a correction unlinks it: the memories it made historical become current
      again unless another correction still holds them.

    nowline's own methods (``correct``, ``retract``, ``preview``, ``recall``, ``repair``) are on
    :attr:`nowline`, the wrapped collection; it embeds with this store's LangChain embeddings.
    """

    def __init__(
        self,
        collection_name: str = Chroma._LANGCHAIN_DEFAULT_COLLECTION_NAME,
        embedding_function: LangChainEmbeddings | None = None,
        persist_directory: str | None = None,
        host: str | None = None,
        port: int | None = None,
        headers: dict[str, str] | None = None,
        chroma_cloud_api_key: str | None = None,
        tenant: str | None = None,
        database: str | None = None,
        client_settings: chromadb.config.Settings | None = None,
        collection_metadata: dict[str, Any] | None = None,
        collection_configuration: CreateCollectionConfiguration | None = None,
        client: ClientAPI | None = None,
        relevance_score_fn: Callable[[float], float] | None = None,
        create_collection_if_not_exists: bool | None = True,
        *,
        ssl: bool = False,
        scope_key: str | None = None,
        annotate: bool = True,
        max_reach: float | int | None = DEFAULT_MAX_REACH,
        refresh_seconds: float = 1.0,
    ) -> None:
        """Open or create the collection, as ``langchain_chroma.Chroma``, and wrap it.

        Args:
            collection_name: as ``Chroma``.
            embedding_function: as ``Chroma``: the LangChain embeddings for documents and
                queries. When None, nowline's offline all-MiniLM-L6-v2 embeds them.
            persist_directory: as ``Chroma``.
            host: as ``Chroma``.
            port: as ``Chroma``.
            headers: as ``Chroma``.
            chroma_cloud_api_key: as ``Chroma``.
            tenant: as ``Chroma``.
            database: as ``Chroma``.
            client_settings: as ``Chroma``.
            collection_metadata: as ``Chroma``.
            collection_configuration: as ``Chroma``.
            client: as ``Chroma``.
            relevance_score_fn: as ``Chroma``.
            create_collection_if_not_exists: as ``Chroma``.
            ssl: as ``Chroma``.
            scope_key: a metadata key (e.g. ``"user_id"``); a correction then reaches only
                documents with the same value (see :func:`nowline.wrap`).
            annotate: write now-lines into the ``page_content`` of historical hits.
            max_reach: the default limit on how much of the store one correction may reach
                (see :func:`nowline.wrap`).
            refresh_seconds: how often, at most, corrections written by other processes are
                looked up on read.

        Raises:
            nowline.InvalidInput: a nowline option is invalid.
            nowline.StoreBusy: another process writes to the same local store.
        """
        self._nowline_options: dict[str, Any] = {
            "scope_key": scope_key,
            "embedding_function": (
                None if embedding_function is None else _LangChainEF(embedding_function)
            ),
            "annotate": annotate,
            "max_reach": max_reach,
            "refresh_seconds": refresh_seconds,
        }
        self._nowline_raw: chromadb.Collection | None = None
        self._nowline_view: Collection | None = None
        super().__init__(
            collection_name=collection_name,
            embedding_function=embedding_function,
            persist_directory=persist_directory,
            host=host,
            port=port,
            headers=headers,
            chroma_cloud_api_key=chroma_cloud_api_key,
            tenant=tenant,
            database=database,
            client_settings=client_settings,
            collection_metadata=collection_metadata,
            collection_configuration=collection_configuration,
            client=client,
            relevance_score_fn=relevance_score_fn,
            create_collection_if_not_exists=create_collection_if_not_exists,
            ssl=ssl,
        )
        self._view()  # wrap now, so that an invalid option fails here and not at first use

    # ``Chroma`` reaches its collection only through this property (and re-creates the raw
    # collection in ``reset_collection``), so wrapping here routes every read and write
    # through nowline, including after a reset.
    @property
    def _collection(self) -> Collection:
        """Return the wrapped collection, as ``Chroma`` calls it."""
        return self._view()

    def _view(self) -> Collection:
        """Return the wrapped collection of the current raw collection, wrapping it once."""
        raw = self._chroma_collection
        if raw is None:  # deleted: Chroma raises its own "not initialized" error
            return cast(Collection, super()._collection)
        if self._nowline_view is None or self._nowline_raw is not raw:
            self._nowline_view = wrap(raw, **self._nowline_options)
            self._nowline_raw = raw
        return self._nowline_view

    @property
    def nowline(self) -> Collection:
        """The :class:`nowline.Collection` under this store: ``correct``, ``retract``, etc."""
        return self._view()

    def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        """Return the stored documents with these ids, as ``Chroma.get_by_ids``.

        A record stored without metadata comes back with empty metadata (``Chroma`` itself
        fails on it: a LangChain Document needs a dict). Missing ids are skipped.
        """
        got = self._view().get(ids=list(ids), include=["documents", "metadatas"])
        metas: list[Any] = [None] * len(got["ids"])
        if got["metadatas"] is not None:
            metas = list(got["metadatas"])
        return [
            Document(page_content=doc, metadata=meta or {}, id=rid)
            for rid, doc, meta in zip(got["ids"], got["documents"] or [], metas, strict=True)
            if doc is not None
        ]

    def delete_collection(self) -> None:
        """Delete the collection, as ``Chroma.delete_collection``; its records go first.

        chromadb 1.5.9 keeps the list-valued metadata of a deleted collection's records and
        attaches it to records of a collection created later (chroma-core/chroma#7594), so a
        stale ``deprecates`` would turn a new memory into a correction. Deleting the records
        first clears it, as record deletion cleans list values up.
        """
        client = wrap(cast(ClientAPI, self._client))
        client.delete_collection(self._view().name)  # nowline's one flow for it
        self._chroma_collection = None  # as Chroma.delete_collection leaves the store

    def fork(self, new_name: str) -> NowlineChroma:
        """Fork this store under a new name (hosted Chroma only), as ``Chroma.fork``."""
        forked = self._view().raw.fork(new_name=new_name)
        return NowlineChroma(
            client=self._client,
            embedding_function=self._embedding_function,
            collection_name=forked.name,
            scope_key=self._nowline_options["scope_key"],
            annotate=self._nowline_options["annotate"],
            max_reach=self._nowline_options["max_reach"],
            refresh_seconds=self._nowline_options["refresh_seconds"],
        )

    def hybrid_search(self, search: Search) -> list[Document]:
        """Refuse: hybrid search results cannot be annotated by nowline yet.

        Raises:
            NotImplementedError: always. Use ``similarity_search`` (annotated), or
                ``store.nowline.raw.search(...)`` for unannotated results.
        """
        raise NotImplementedError(
            "NowlineChroma cannot add now-lines to hybrid_search results yet, and returning "
            "stale hits without them would defeat nowline. Use similarity_search or "
            "as_retriever(), or call store.nowline.raw.search(...) for unannotated results."
        )


class NowlineRetriever(BaseRetriever):
    """Wrap any LangChain retriever so that its stale documents carry their newest correction.

    For vector stores other than Chroma (FAISS, pgvector, an in-memory store...): the
    memories stay where they are, the corrections live in a :class:`nowline.Collection`, and
    every retrieved document is matched at read time against that collection's active
    corrections, exactly as nowline checks a hit read from Chroma (the README's "Linking", read-time
    links). A document that names a deprecated string gets one now-line per newest
    correction beneath its ``page_content``, and ``nowline_role`` / ``nowline_now`` in its
    metadata; other documents come back unchanged. The collection's ``scope_key`` applies:
    a document's scope is read from its own metadata.

    Nothing is persisted in the wrapped store: links exist only at read time, so they are
    never stale, and ``where`` filters on ``nowline_role`` are not available there.

    Example:
        ``NowlineRetriever(retriever=faiss.as_retriever(), corrections=memory)``, then
        ``memory.correct("Moved from A to B.", deprecates=["A"])``.

    Attributes:
        retriever: the retriever whose documents are annotated.
        corrections: the nowline collection that holds the corrections.
    """

    retriever: BaseRetriever
    corrections: Collection

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        """Retrieve with the wrapped retriever, then annotate."""
        docs = self.retriever.invoke(query, config={"callbacks": run_manager.get_child()})
        return [_annotate(self.corrections, d) for d in docs]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        """Retrieve asynchronously with the wrapped retriever, then annotate."""
        docs = await self.retriever.ainvoke(query, config={"callbacks": run_manager.get_child()})
        return [_annotate(self.corrections, d) for d in docs]


def _annotate(corrections: Collection, doc: Document) -> Document:
    """Return ``doc`` with the lines and role that ``corrections`` gives it at read time.

    The document is checked as a plain memory of its own scope (``check()``, the same rule as
    a recalled hit), so the rules are the core's, not a copy of them. A document that trips
    nothing comes back with its text sanitized, so it cannot forge a line either.
    """
    key = corrections.scope_key
    scope = {key: doc.metadata.get(key)} if key is not None else None
    trips = corrections.check(doc.page_content, metadata=scope)
    if not trips:
        return Document(page_content=sanitize(doc.page_content), metadata=doc.metadata, id=doc.id)
    meta = {**doc.metadata, **trip_metadata(trips)}
    content = corrections.annotate(doc.page_content, metadata=scope)
    return Document(page_content=content, metadata=meta, id=doc.id)


class _LangChainEF(EmbeddingFunction[Documents]):
    """A chromadb embedding function over LangChain embeddings, for nowline's own writes.

    ``store.nowline.correct(...)`` then embeds with the same model as ``add_texts``. It is
    never persisted in the collection's configuration.
    """

    def __init__(self, embeddings: LangChainEmbeddings) -> None:
        """Embed with ``embeddings``."""
        self._embeddings = embeddings

    def __call__(self, input: Documents) -> Embeddings:
        """Embed documents with ``embed_documents``."""
        return [np.asarray(v, dtype=np.float32) for v in self._embeddings.embed_documents(input)]

    def embed_query(self, input: Documents) -> Embeddings:
        """Embed query texts with ``embed_query``."""
        return [np.asarray(self._embeddings.embed_query(t), dtype=np.float32) for t in input]

    @staticmethod
    def name() -> str:
        """Return a name (this function is never persisted)."""
        return "nowline-langchain"

    def get_config(self) -> dict[str, Any]:
        """Return an empty configuration (this function is never persisted)."""
        return {}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> _LangChainEF:
        """Refuse: LangChain embeddings cannot be rebuilt from a stored configuration."""
        raise NotImplementedError("LangChain embeddings are not persisted in Chroma.")
