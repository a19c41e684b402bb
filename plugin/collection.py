"""The nowline collection: a drop-in ``chromadb.Collection`` with corrections and now-lines."""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Literal, ParamSpec, TypeVar, cast

import numpy as np
from chromadb.api.collection_configuration import UpdateCollectionConfiguration
from chromadb.api.models.Collection import Collection as ChromaCollection
from chromadb.api.types import (
    ID,
    URI,
    CollectionMetadata,
    DefaultEmbeddingFunction,
    DeleteResult,
    Document,
    Embedding,
    EmbeddingFunction,
    GetResult,
    Image,
    Include,
    Metadata,
    OneOrMany,
    PyEmbedding,
    QueryResult,
    ReadLevel,
    Where,
    WhereDocument,
)

from nowline import _keys as K
from nowline._lock import hold_writer_lock, holds_writer_lock
from nowline._prefilter import candidate_regex
from nowline._time import to_epoch
from nowline.embedding import embedding_function
from nowline.errors import (
    CorrectionTooBroad,
    InvalidCorrection,
    InvalidInput,
    StaleReference,
    UnknownRecord,
)
from nowline.guard import Trip, find_trips, guard_call, newest_texts, stale_message
from nowline.matchers import Matcher, fold
from nowline.models import CorrectionRef, CorrectionReport, Hit, Recall, RepairReport, Role
from nowline.registry import CorrectionInfo, Registry, scope_token
from nowline.render import NOW_PREFIX, annotate_document, sanitize, strip_annotation

__all__ = ["DEFAULT_MAX_REACH", "MAX_PHRASE_LENGTH", "REACH_FLOOR", "Collection"]

logger = logging.getLogger(__name__)

DEFAULT_MAX_REACH = 0.25
"""By default a correction may reach at most this share of the store's records..."""

REACH_FLOOR = 100
"""...but a share-based limit never refuses a correction that reaches this many or fewer."""

MAX_PHRASE_LENGTH = 500
"""Longest deprecated string accepted, in characters."""

_MAX_PHRASES = 100  # deprecated strings per correction
_PAGE = 5000  # rows per bulk read; Chroma fails above ~32k rows with metadatas
_REFRESH_SLACK = 5.0  # seconds of clock skew tolerated between writer processes
_SHOWN_MAX = 10_000  # query() outputs remembered for read-modify-writes

_Embeddings = OneOrMany[Embedding] | OneOrMany[PyEmbedding]

# Per store and collection, how often wrappers in this process changed its corrections. A
# wrapper that is the only writer of its store skips refreshes unless another wrapper in this
# process changed something since its last look.
_generations: dict[tuple[object, str], int] = {}
_generations_lock = threading.Lock()
P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class _Record:
    """A record as read from Chroma."""

    id: str
    document: str | None
    metadata: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class _State:
    """A record's role and the corrections to show under it, as computed at read time."""

    role: Role
    now: tuple[str, ...]


class Collection:
    """A Chroma collection whose recalled stale memories carry their newest correction.

    Create one with :func:`nowline.wrap`. The chromadb methods keep chromadb's names,
    parameters, defaults and result shapes; ``query()`` annotates, ``get()`` returns records
    exactly as stored. A record whose metadata has a non-empty ``deprecates`` (a list of
    strings, or one string) is a correction.
    """

    def __init__(
        self,
        collection: ChromaCollection,
        *,
        scope_key: str | None = None,
        embedding_function: EmbeddingFunction[Any] | None = None,
        annotate: bool = True,
        max_reach: float | int | None = DEFAULT_MAX_REACH,
        refresh_seconds: float = 1.0,
    ) -> None:
        """Wrap ``collection``; prefer :func:`nowline.wrap`, which documents the options."""
        if isinstance(collection, Collection):
            raise InvalidInput("This collection is already wrapped by nowline; use it as is.")
        if scope_key is not None and (not isinstance(scope_key, str) or not scope_key):
            raise InvalidInput("scope_key must be a non-empty metadata key (a str) or None.")
        stored_scope = (collection.metadata or {}).get(K.SCOPE_KEY)
        if scope_key is None and isinstance(stored_scope, str):
            scope_key = stored_scope  # the store was written with scopes: keep them apart
        elif scope_key is not None and stored_scope is not None and stored_scope != scope_key:
            raise InvalidInput(
                f"The collection {collection.name!r} was written with scope_key="
                f"{stored_scope!r}; wrap it with that key (another key would mix scopes)."
            )
        if scope_key is not None and (scope_key.startswith(K.PREFIX) or scope_key == K.DEPRECATES):
            raise InvalidInput(f"scope_key {scope_key!r} is reserved by nowline; pick a user key.")
        _check_max_reach(max_reach)
        if not isinstance(annotate, bool):
            raise InvalidInput(f"annotate must be True or False, not {annotate!r}.")
        if not isinstance(refresh_seconds, (int, float)) or not refresh_seconds >= 0:
            raise InvalidInput("refresh_seconds must be a number >= 0.")
        self._inner = collection
        self._scope_key = scope_key
        self._record_scope_key = scope_key is not None and stored_scope is None
        self._ef = _resolve_embedding_function(collection, embedding_function)
        self._annotate = annotate
        self._max_reach = max_reach
        self._refresh_seconds = float(refresh_seconds)
        self._lock = threading.RLock()
        self._in_process, self._writer_path = _local_store(collection)
        self._max_batch = _max_batch_size(collection)
        self._registry = Registry()
        # query() output text -> the stored text it was made from, so that a read-modify-write
        # through query() and update() stores the original (bounded; oldest forgotten first).
        self._shown: OrderedDict[str, str] = OrderedDict()
        self._last_refresh = 0.0
        self._changed_mark = 0.0
        store: object = self._writer_path or id(getattr(collection, "_client", None))
        self._generation_key = (store, str(collection.id))
        self._seen_generation = 0
        self._load_registry()

    # ------------------------------------------------------------------ attributes

    @property
    def name(self) -> str:
        """The collection's name."""
        return self._inner.name

    @property
    def id(self) -> uuid.UUID:
        """The collection's id."""
        return self._inner.id

    @property
    def metadata(self) -> CollectionMetadata | None:
        """The collection's metadata."""
        return self._inner.metadata

    @property
    def configuration(self) -> Any:
        """The collection's configuration, as chromadb reports it."""
        return self._inner.configuration

    @property
    def scope_key(self) -> str | None:
        """The metadata key that separates scopes, or None (DESIGN.md §7)."""
        return self._scope_key

    @property
    def raw(self) -> ChromaCollection:
        """The wrapped chromadb collection. Writes through it bypass nowline's links."""
        return self._inner

    @property
    def embedding_function(self) -> EmbeddingFunction[Any]:
        """The function nowline embeds documents and query texts with."""
        return self._ef

    def __repr__(self) -> str:
        """Return a short description."""
        return f"nowline.Collection(name={self.name!r}, corrections={len(self._registry)})"

    # ------------------------------------------------------------ chromadb mirror

    def count(self, read_level: ReadLevel = ReadLevel.INDEX_AND_WAL) -> int:
        """Return the number of records, as ``chromadb.Collection.count``."""
        return self._inner.count(read_level=read_level)

    def modify(
        self,
        name: str | None = None,
        metadata: CollectionMetadata | None = None,
        configuration: UpdateCollectionConfiguration | None = None,
    ) -> None:
        """Rename the collection or change its metadata, as ``chromadb.Collection.modify``."""
        self._ensure_writer()
        self._inner.modify(name=name, metadata=metadata, configuration=configuration)

    def peek(self, limit: int = 10) -> GetResult:
        """Return the first ``limit`` records exactly as stored, as chromadb's ``peek``."""
        return self._inner.peek(limit=limit)

    def get(
        self,
        ids: OneOrMany[ID] | None = None,
        where: Where | None = None,
        limit: int | None = None,
        offset: int | None = None,
        where_document: WhereDocument | None = None,
        include: Include = ["metadatas", "documents"],  # noqa: B006 (chromadb's default; never mutated)
    ) -> GetResult:
        """Return records exactly as stored, as ``chromadb.Collection.get``.

        Unlike chromadb, large reads are paged internally (a single Chroma read of more than
        about 32k rows with metadatas fails), and ``ids`` come back in the order requested.
        """
        include = cast(Include, list(include))
        id_list = _one_or_many(ids, "ids") if ids is not None else None
        if id_list is not None and len(id_list) > _PAGE:
            parts = [
                self._inner.get(
                    ids=id_list[i : i + _PAGE],
                    where=where,
                    where_document=where_document,
                    include=include,
                )
                for i in range(0, len(id_list), _PAGE)
            ]
            result = _concat_get(parts, include)
        elif id_list is None and (limit is None or limit > _PAGE):
            result = self._paged_get(where, where_document, include, limit, offset or 0)
        else:
            result = self._inner.get(
                ids=id_list,
                where=where,
                limit=limit,
                offset=offset,
                where_document=where_document,
                include=include,
            )
        if id_list is not None and (limit is None and not offset):
            result = _reorder_get(result, id_list)
        return result

    def add(
        self,
        ids: OneOrMany[ID],
        embeddings: _Embeddings | None = None,
        metadatas: OneOrMany[Metadata] | None = None,
        documents: OneOrMany[Document] | None = None,
        images: OneOrMany[Image] | None = None,
        uris: OneOrMany[URI] | None = None,
    ) -> None:
        """Add records, as ``chromadb.Collection.add``, and link them (DESIGN.md §4).

        A record whose metadata has ``deprecates`` is a correction: every stored record that
        names one of its strings is linked to it before this returns. ``observed_at`` in a
        metadata sets the record's time. A ``None`` metadata value means "no value" (chromadb
        would fail on it).

        Raises:
            InvalidCorrection: a correction breaks a guard (DESIGN.md §6); nothing is written.
            CorrectionTooBroad: a correction would reach too much of the store.
            InvalidInput: arguments nowline cannot use; nothing is written.
        """
        self._write("add", ids, embeddings, metadatas, documents, images, uris)

    def upsert(
        self,
        ids: OneOrMany[ID],
        embeddings: _Embeddings | None = None,
        metadatas: OneOrMany[Metadata] | None = None,
        documents: OneOrMany[Document] | None = None,
        images: OneOrMany[Image] | None = None,
        uris: OneOrMany[URI] | None = None,
    ) -> None:
        """Add or update records, as ``chromadb.Collection.upsert``, and relink them.

        Raises:
            InvalidCorrection: a correction breaks a guard (DESIGN.md §6); nothing is written.
            InvalidInput: arguments nowline cannot use; nothing is written.
        """
        self._write("upsert", ids, embeddings, metadatas, documents, images, uris)

    def update(
        self,
        ids: OneOrMany[ID],
        embeddings: _Embeddings | None = None,
        metadatas: OneOrMany[Metadata] | None = None,
        documents: OneOrMany[Document] | None = None,
        images: OneOrMany[Image] | None = None,
        uris: OneOrMany[URI] | None = None,
    ) -> None:
        """Update records, as ``chromadb.Collection.update``, and relink them.

        Metadata keys merge as in chromadb, and a key set to ``None`` is removed. A document
        that still carries now-lines from ``query()`` is stored without them.

        Raises:
            InvalidCorrection: a correction breaks a guard (DESIGN.md §6); nothing is written.
            InvalidInput: arguments nowline cannot use; nothing is written.
        """
        self._write("update", ids, embeddings, metadatas, documents, images, uris)

    def delete(
        self,
        ids: list[ID] | None = None,
        where: Where | None = None,
        where_document: WhereDocument | None = None,
        limit: int | None = None,
    ) -> DeleteResult:
        """Delete records, as ``chromadb.Collection.delete``.

        Deleting a correction unlinks it first: the records it made historical become current
        again unless another correction still holds them.
        """
        if ids is None and where is None and where_document is None:
            return self._inner.delete(ids=ids, where=where, limit=limit)  # chromadb's error
        with self._lock:
            doomed = self.get(
                ids=ids,
                where=where,
                where_document=where_document,
                limit=limit,
                include=["metadatas"],
            )
            corrections = [
                rid
                for rid, meta in zip(doomed["ids"], doomed["metadatas"] or [], strict=True)
                if _is_correction(meta)
            ]
            self._ensure_writer()
            if corrections:
                for cid in corrections:
                    self._registry.drop(cid)
                    self._unlink(cid)
            result = self._inner.delete(
                ids=ids, where=where, where_document=where_document, limit=limit
            )
            if corrections:
                self._changed_corrections()
            return result

    def query(
        self,
        query_embeddings: _Embeddings | None = None,
        query_texts: OneOrMany[Document] | None = None,
        query_images: OneOrMany[Image] | None = None,
        query_uris: OneOrMany[URI] | None = None,
        ids: OneOrMany[ID] | None = None,
        n_results: int = 10,
        where: Where | None = None,
        where_document: WhereDocument | None = None,
        include: Include = ["metadatas", "documents", "distances"],  # noqa: B006 (as chromadb)
    ) -> QueryResult:
        """Query nearest neighbours, as ``chromadb.Collection.query``, and annotate the hits.

        Each hit's metadata gains ``nowline_role`` and ``nowline_now`` (the ids of the newest
        corrections to show). The document of a historical hit gains one now-line per newest
        correction (unless the collection was wrapped with ``annotate=False``). Stored records
        are never changed.
        """
        include = cast(Include, list(include))
        embeddings = self._query_embeddings(query_embeddings, query_texts)
        if embeddings is None:
            return self._inner.query(
                query_images=query_images,
                query_uris=query_uris,
                ids=ids,
                n_results=n_results,
                where=where,
                where_document=where_document,
                include=include,
            )
        result = self._inner.query(
            query_embeddings=embeddings,
            ids=ids,
            n_results=n_results,
            where=where,
            where_document=where_document,
            include=cast(Include, sorted(set(include) | {"documents", "metadatas"})),
        )
        self._maybe_refresh()
        docs_out: list[list[Document]] = []
        metas_out: list[list[Metadata]] = []
        for row_ids, row_docs, row_metas in zip(
            result["ids"], result["documents"] or [], result["metadatas"] or [], strict=True
        ):
            self._refresh_for_unknown_links(row_metas)
            d_row: list[Any] = []
            m_row: list[Metadata] = []
            for rid, doc, meta in zip(row_ids, row_docs, row_metas, strict=True):
                state = self._state(_Record(rid, doc, meta), None)
                m_row.append(
                    cast(Metadata, {**(meta or {}), K.ROLE: state.role, K.NOW: list(state.now)})
                )
                if doc is None:
                    d_row.append(doc)
                    continue
                if self._annotate:
                    shown = annotate_document(doc, self._now_documents(state.now))
                else:
                    shown = sanitize(doc)
                if shown != doc:
                    self._remember_shown(shown, doc)
                d_row.append(shown)
            docs_out.append(d_row)
            metas_out.append(m_row)
        out = dict(result)
        out["documents"] = docs_out if "documents" in include else None
        out["metadatas"] = metas_out if "metadatas" in include else None
        out["included"] = include
        return cast(QueryResult, out)

    # ------------------------------------------------------------ nowline methods

    def remember(
        self,
        text: str,
        *,
        id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        observed_at: str | float | int | None = None,
    ) -> str:
        """Store one memory and return its id (a new UUID when ``id`` is None).

        Args:
            text: the memory's text.
            id: the record id to use.
            metadata: user metadata to store with it.
            observed_at: when the fact was observed (ISO 8601 or epoch seconds).

        Raises:
            InvalidInput: the text, id, metadata or time cannot be used.
        """
        rid = self._fresh_id(id)
        meta = _with_observed_at(metadata, observed_at)
        self._write("add", [rid], None, [meta] if meta else None, [_text(text)], None, None)
        return rid

    def correct(
        self,
        text: str,
        *,
        deprecates: Sequence[str] | str,
        id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        observed_at: str | float | int | None = None,
        allow_absent: bool = False,
        max_reach: float | int | Literal["default"] | None = "default",
    ) -> CorrectionReport:
        """Store a correction and link every record that names what it deprecates.

        Args:
            text: the correction's text; it should say what changed ("Moved from A to B").
            deprecates: the exact outdated strings (or one string).
            id: the record id to use (a new UUID when None).
            metadata: user metadata to store with it (the scope key goes here).
            observed_at: when the change was observed (ISO 8601 or epoch seconds).
            allow_absent: accept deprecated strings that do not occur in ``text``.
            max_reach: refuse the correction if it would reach more records than this: a
                share of the store (a float in (0, 1]; the limit is never below
                ``REACH_FLOOR``), a count (an int), or None for no limit. The default is
                the collection's setting (``wrap(max_reach=...)``, itself
                ``DEFAULT_MAX_REACH`` = 0.25 unless changed).

        Returns:
            The correction's id, how many records it reached and the seconds taken.

        Raises:
            InvalidCorrection: ``deprecates`` is malformed, or a string is absent from
                ``text`` and ``allow_absent`` is False; nothing is written.
            CorrectionTooBroad: it would reach more than ``max_reach``; nothing is written.
        """
        start = time.perf_counter()
        rid = self._fresh_id(id)
        if deprecates is None:
            raise InvalidCorrection("correct() needs deprecates: the exact outdated strings.")
        if max_reach != "default":
            _check_max_reach(max_reach)
        meta = dict(_with_observed_at(metadata, observed_at) or {})
        meta[K.DEPRECATES] = [deprecates] if isinstance(deprecates, str) else deprecates
        reached = self._write(
            "add",
            [rid],
            None,
            [meta],
            [_text(text)],
            None,
            None,
            allow_absent=allow_absent,
            max_reach=max_reach,
        )
        return CorrectionReport(
            id=rid, reached=reached.get(rid, 0), seconds=time.perf_counter() - start
        )

    def recall(
        self,
        text: str,
        *,
        n_results: int = 5,
        where: Where | None = None,
        where_document: WhereDocument | None = None,
        as_of: str | float | int | None = None,
        include_historical: bool = True,
    ) -> Recall:
        """Recall the memories closest to ``text`` as an evidence packet.

        Args:
            text: what to recall.
            n_results: how many hits to return.
            where: a Chroma metadata filter.
            where_document: a Chroma document filter.
            as_of: answer as the store knew things then: records and corrections with a
                later time are left out (ISO 8601 or epoch seconds).
            include_historical: keep historical hits (with their now-lines); False leaves
                them out and fills the packet with the next closest hits.

        Returns:
            A :class:`Recall`; ``render()`` gives the context block.
        """
        query = _text(text)
        if not isinstance(n_results, int) or isinstance(n_results, bool) or n_results < 1:
            raise InvalidInput("n_results must be a positive int.")
        if not isinstance(include_historical, bool):
            raise InvalidInput(
                f"include_historical must be True or False, not {include_historical!r}."
            )
        cutoff = None if as_of is None else to_epoch(as_of, what="as_of")
        flt = where
        if cutoff is not None:
            time_filter = _where({K.TIME: {"$lte": cutoff}})
            flt = time_filter if where is None else _where({"$and": [where, time_filter]})
        emb = self._embed_query([query])
        self._maybe_refresh()
        fetch = n_results
        while True:
            res = self._inner.query(
                query_embeddings=emb,
                n_results=fetch,
                where=flt,
                where_document=where_document,
                include=["documents", "metadatas", "distances"],
            )
            metas = (res["metadatas"] or [[]])[0]
            self._refresh_for_unknown_links(metas)
            hits = [
                self._hit(_Record(rid, doc, meta), dist, cutoff)
                for rid, doc, meta, dist in zip(
                    res["ids"][0],
                    (res["documents"] or [[]])[0],
                    metas,
                    (res["distances"] or [[]])[0],
                    strict=True,
                )
            ]
            if not include_historical:
                hits = [h for h in hits if h.role != "historical"]
            # Chroma returns fewer than n_results once the collection is exhausted.
            if len(hits) >= n_results or len(res["ids"][0]) < fetch:
                return Recall(query=query, as_of=cutoff, hits=hits[:n_results])
            fetch *= 4

    def preview(
        self, deprecates: Sequence[str] | str, *, metadata: Mapping[str, Any] | None = None
    ) -> list[str]:
        """Return the ids of the records a correction would reach, without writing anything.

        Args:
            deprecates: the outdated strings the correction would name.
            metadata: the metadata it would have (its scope key decides whom it may reach).

        Raises:
            InvalidCorrection: ``deprecates`` is malformed.
        """
        phrases = _parse_deprecates(deprecates)
        if metadata is not None and not isinstance(metadata, Mapping):
            raise InvalidInput(f"metadata must be a mapping, not {type(metadata).__name__}.")
        meta = dict(metadata or {})
        info = CorrectionInfo(
            id="\x00preview",
            document="",
            deprecates=phrases,
            time=math.inf,
            written=math.inf,
            scope=scope_token(meta, self._scope_key),
        )
        with self._lock:
            return [r.id for r in self._reach([info], exclude=set())[info.id]]

    def retract(self, correction_id: str) -> None:
        """Undo a wrong correction; the correction record stays, marked retracted.

        Its links go, and the records it made historical become current again unless another
        correction still holds them. Retracting twice does nothing more.

        Raises:
            UnknownRecord: no record has this id.
            InvalidInput: the record is not a correction.
        """
        if not isinstance(correction_id, str):
            raise InvalidInput("retract() needs the correction's id, a str.")
        with self._lock:
            got = self._inner.get(ids=[correction_id], include=["metadatas"])
            if not got["ids"]:
                raise UnknownRecord(f"No record has id {correction_id!r}; nothing was retracted.")
            meta = got["metadatas"][0] if got["metadatas"] else None
            if not _is_correction(meta):
                raise InvalidInput(
                    f"Record {correction_id!r} is not a correction (it has no deprecates); "
                    "only corrections can be retracted."
                )
            if meta and meta.get(K.RETRACTED) is not None:
                return
            self._ensure_writer()
            now = time.time()
            self._inner.update(
                ids=[correction_id],
                metadatas=[{K.RETRACTED: now, K.CHANGED: now, K.ROLE: "historical"}],
            )
            self._registry.retract(correction_id, now)
            self._unlink(correction_id)
            self._changed_corrections()

    def repair(self) -> RepairReport:
        """Rebuild every link from the documents and persist what differs. Idempotent.

        Use it after records were written by a plain chromadb client, or after a process
        died while propagating a correction. Read-time checks already show the right
        now-lines before a repair; ``repair()`` makes the stored links (and so ``where``
        filters on them) agree.
        """
        start = time.perf_counter()
        with self._lock:
            records = list(self._iter_records(include=["documents", "metadatas"]))
            registry = Registry(info for r in records if (info := self._info_from(r)) is not None)
            self._registry = registry
            ids: list[str] = []
            metas: list[Metadata] = []
            added = removed = 0
            for r in records:
                meta = r.metadata or {}
                links = self._write_links(r, registry)
                stored = [b for b in meta.get(K.BY) or [] if isinstance(b, str)]
                role = _role_value(_stored_role(r, links, registry))
                patch: dict[str, Any] = {}
                if sorted(stored) != sorted(links) or len(set(stored)) != len(stored):
                    patch[K.BY] = sorted(links) or None
                    added += len(set(links) - set(stored))
                    removed += len(set(stored) - set(links))
                if meta.get(K.ROLE) != role:
                    patch[K.ROLE] = role
                if _is_correction(meta) and meta.get(K.CORRECTION) is not True:
                    patch[K.CORRECTION] = True
                    patch[K.CHANGED] = time.time()
                if K.TIME not in meta:
                    info = registry.get(r.id)
                    patch[K.TIME] = info.time if info else _time_of(meta)
                if patch:
                    ids.append(r.id)
                    metas.append(cast(Metadata, patch))
            if ids:
                self._ensure_writer()
                self._update_metadatas(ids, metas)
            self._last_refresh = time.monotonic()
            self._changed_corrections()
            return RepairReport(
                records=len(records),
                corrections=len(registry),
                updated=len(ids),
                links_added=added,
                links_removed=removed,
                seconds=time.perf_counter() - start,
            )

    # ------------------------------------------------------------ guarding actions

    def check(self, text: str, *, metadata: Mapping[str, Any] | None = None) -> list[Trip]:
        """Return the active corrections whose strings occur in ``text``; write nothing.

        Use it on anything that never passes through recall: a planned tool call, a plan
        written earlier, a cached tool result, a document from elsewhere. It consults only
        the in-memory correction registry (no Chroma round trip on this path; see
        ``refresh_seconds`` for corrections written by other processes).

        Args:
            text: the text to check.
            metadata: the caller's metadata; with a ``scope_key`` it selects the scope whose
                corrections apply.

        Returns:
            One :class:`Trip` per correction, with its newest correction (chains resolved),
            the matched strings and their offsets, ordered by first occurrence.
        """
        _text(text)
        if metadata is not None and not isinstance(metadata, Mapping):
            raise InvalidInput(f"metadata must be a mapping, not {type(metadata).__name__}.")
        self._maybe_refresh()
        return find_trips(self._registry, text, scope_token(metadata, self._scope_key))

    def annotate(self, text: str, *, metadata: Mapping[str, Any] | None = None) -> str:
        """Return ``text`` with the now-lines of the corrections it trips beneath it.

        The format is the one of recalled memories (DESIGN.md §5); lines of ``text`` that
        look like now-lines are quoted. Text that trips nothing comes back unchanged.
        """
        trips = self.check(text, metadata=metadata)
        if not trips:
            return sanitize(text)
        return annotate_document(text, newest_texts(trips))

    def require_current(self, *texts: str, metadata: Mapping[str, Any] | None = None) -> None:
        """Raise :class:`StaleReference` if any text names a superseded string.

        The helper form of :meth:`guard`, for code that builds an action before running it.

        Raises:
            StaleReference: with the trips; its message gives the now-lines.
        """
        trips: list[Trip] = []
        for text in texts:
            trips += [t for t in self.check(text, metadata=metadata) if t not in trips]
        if trips:
            raise StaleReference(stale_message(trips), trips=trips)

    def guard(
        self, func: Callable[P, R] | None = None, *, metadata: Mapping[str, Any] | None = None
    ) -> Any:
        """Decorate a tool function so that it never runs on a superseded string.

        Before each call every string argument (also inside lists, tuples and dicts) is
        checked. If a correction applies, :class:`StaleReference` is raised and the function
        does not run; the error carries the trips and its message gives the now-line, so an
        agent can retry with the current value. Call the tool with ``allow_stale=True`` to
        run it anyway (e.g. when the change itself is being discussed).

        Use as ``@memory.guard`` or ``@memory.guard(metadata={"user_id": "u1"})``.
        """

        def decorate(f: Callable[P, R]) -> Callable[P, R]:
            if not callable(f):
                raise InvalidInput(f"guard() decorates a function, not {type(f).__name__}.")
            return guard_call(lambda text: self.check(text, metadata=metadata), f)

        return decorate(func) if func is not None else decorate

    # ----------------------------------------------------------------- read side

    def _hit(self, record: _Record, distance: float | None, as_of: float | None) -> Hit:
        """Build the evidence for one recalled record."""
        state = self._state(record, as_of)
        refs = []
        for cid in state.now:
            info = self._registry.get(cid)
            if info is not None:
                refs.append(
                    CorrectionRef(
                        id=info.id,
                        document=info.document,
                        deprecates=list(info.deprecates),
                        time=info.time,
                    )
                )
        return Hit(
            id=record.id,
            document=record.document,
            metadata=dict(record.metadata) if record.metadata is not None else None,
            distance=distance,
            role=state.role,
            now=refs,
        )

    def _state(self, record: _Record, as_of: float | None) -> _State:
        """Compute a record's role and newest corrections from the registry (read time)."""
        meta = record.metadata or {}
        is_correction = _is_correction(meta)
        info = self._registry.get(record.id) if is_correction else None
        if is_correction and _is_retracted(meta, info):
            return _State("historical", ())
        links = self._registry.links(
            record.document or "",
            record_id=record.id,
            scope=scope_token(meta, self._scope_key),
            correction_order=_order_of(record, info) if is_correction else None,
            as_of=as_of,
        )
        if not links:
            return _State("transition" if is_correction else "current", ())
        newest = {self._registry.newest(c, as_of) for c in links}
        return _State("historical", tuple(sorted(newest, key=self._registry.order_of)))

    def _now_documents(self, ids: Sequence[str]) -> list[str]:
        """Return the texts of these corrections."""
        return [info.document for c in ids if (info := self._registry.get(c)) is not None]

    # ----------------------------------------------------------------- write side

    def _write(
        self,
        op: Literal["add", "upsert", "update"],
        ids: OneOrMany[ID],
        embeddings: _Embeddings | None,
        metadatas: OneOrMany[Metadata] | None,
        documents: OneOrMany[Document] | None,
        images: OneOrMany[Image] | None,
        uris: OneOrMany[URI] | None,
        *,
        allow_absent: bool = False,
        max_reach: float | int | Literal["default"] | None = "default",
    ) -> dict[str, int]:
        """Validate, link and write records; then propagate new corrections.

        Returns the number of records each written correction reached.
        """
        id_list = _one_or_many(ids, "ids")
        n = len(id_list)
        for rid in id_list:
            if not isinstance(rid, str):
                raise InvalidInput(f"Every id must be a str, got {type(rid).__name__}.")
            _check_text(rid, "an id")
        meta_list = _column(metadatas, n, "metadatas", Mapping)
        doc_list = _column(documents, n, "documents", str)
        user_metas = [_clean_metadata(m, op) for m in meta_list] if meta_list else [None] * n
        limit_setting = self._max_reach if max_reach == "default" else max_reach
        with self._lock:
            self._maybe_refresh()
            if op != "add":
                known = self._known(id_list)
            elif any(_is_correction(m) for m in user_metas):
                # chromadb ignores an add of an existing id; so must the registry.
                known = self._known(id_list)
            else:
                known = {}
            if doc_list is not None and self._shown:
                doc_list = [self._shown.get(d, d) for d in doc_list]
            if doc_list is not None and any("\n" + NOW_PREFIX in d for d in doc_list):
                corr_docs = [i.document for i in self._registry.infos()]
                doc_list = [strip_annotation(d, corr_docs) for d in doc_list]
            now = time.time()
            records: list[_Record] = []
            for i, rid in enumerate(id_list):
                old = known.get(rid)
                doc = doc_list[i] if doc_list else None
                records.append(_merge(rid, old, user_metas[i], doc, now))
            # Records whose write chromadb will ignore take no part in linking.
            ignored: set[str] = set()
            if op == "add":
                ignored = set(known)
            elif op == "update":
                ignored = set(id_list) - set(known)
            # Corrections in this batch: new ones, and ones whose text, strings, scope or time
            # changed. Records that stopped being corrections are unlinked.
            new_infos: list[CorrectionInfo] = []
            dropped: list[str] = []
            for i, rec in enumerate(records):
                if rec.id in ignored:
                    continue
                old = known.get(rec.id)
                was = old is not None and _is_correction(old.metadata)
                info = self._info_from(rec, validate=True) if _is_correction(rec.metadata) else None
                if info is not None:
                    _check_absent(info, allow_absent)
                    prev = self._registry.get(rec.id)
                    if prev is None or (prev.document, prev.deprecates, prev.scope, prev.time) != (
                        info.document,
                        info.deprecates,
                        info.scope,
                        info.time,
                    ):
                        new_infos.append(info)
                elif was or (user_metas[i] or {}).get(K.DEPRECATES, 0) is None:
                    dropped.append(rec.id)
            batch_ids = set(id_list)
            # A retracted correction stays inert whatever is edited in it.
            active = [info for info in new_infos if info.retracted is None]
            reach = self._reach(active, exclude=batch_ids)
            total = self._inner.count() if active else 0
            for info in active:
                _check_reach(info, len(reach[info.id]), limit_setting, total)
            # Embeddings are computed only now that every guard has passed.
            emb = self._embeddings_for(op, embeddings, doc_list, images)
            saved = {c: self._registry.get(c) for c in [i.id for i in new_infos] + dropped}
            for info in new_infos:
                self._registry.put(info)
            for cid in dropped:
                self._registry.drop(cid)
            try:
                final_metas = self._batch_metadata(op, records, known, user_metas, now)
                self._ensure_writer()
                self._inner_write(op, id_list, emb, final_metas, doc_list, images, uris)
            except BaseException:
                for cid, prev in saved.items():
                    if prev is None:
                        self._registry.drop(cid)
                    else:
                        self._registry.put(prev)
                raise
            for info in active:
                if info.id in known and _is_correction(known[info.id].metadata):
                    self._unlink(info.id, keep_in=batch_ids)
            reached = self._link(reach)
            for info in new_infos:
                reached[info.id] = reached.get(info.id, 0) + sum(
                    1 for m in final_metas if info.id in (m.get(K.BY) or [])
                )
            for cid in dropped:
                self._unlink(cid, keep_in=batch_ids)
            if new_infos or dropped:
                self._changed_corrections()
            return reached

    def _batch_metadata(
        self,
        op: str,
        records: list[_Record],
        known: Mapping[str, _Record],
        user_metas: Sequence[dict[str, Any] | None],
        now: float,
    ) -> list[dict[str, Any]]:
        """Return the metadata to send for each record: the user's keys plus nowline's."""
        out: list[dict[str, Any]] = []
        for rec, user in zip(records, user_metas, strict=True):
            meta = rec.metadata or {}
            old = known.get(rec.id)
            links = self._write_links(rec, self._registry)
            patch: dict[str, Any] = dict(user or {})
            removed = K.DEPRECATES in patch and patch[K.DEPRECATES] is None
            patch.pop(K.DEPRECATES, None)
            if removed:
                patch[K.DEPRECATES] = None  # update(): a None value deletes the key
            if _is_correction(meta):
                patch[K.DEPRECATES] = list(_parse_deprecates(meta[K.DEPRECATES]))
            patch[K.TIME] = meta[K.TIME]
            if meta.get(K.WRITTEN) is not None:
                patch[K.WRITTEN] = meta[K.WRITTEN]
            patch[K.ROLE] = _role_value(_stored_role(rec, links, self._registry))
            if links:
                patch[K.BY] = sorted(links)
            elif old is not None and (old.metadata or {}).get(K.BY):
                patch[K.BY] = None
            if _is_correction(meta):
                patch[K.CORRECTION] = True
                patch[K.CHANGED] = now
            elif old is not None and (old.metadata or {}).get(K.CORRECTION):
                patch[K.CORRECTION] = None
                patch[K.CHANGED] = None
                patch[K.RETRACTED] = None
            if op == "add" or old is None:
                patch = {k: v for k, v in patch.items() if v is not None}
            out.append(patch)
        return out

    def _write_links(self, rec: _Record, registry: Registry) -> set[str]:
        """Return the corrections that supersede a record, as links are stored."""
        meta = rec.metadata or {}
        info = registry.get(rec.id) if _is_correction(meta) else None
        return registry.links(
            rec.document or "",
            record_id=rec.id,
            scope=scope_token(meta, self._scope_key),
            correction_order=_order_of(rec, info) if _is_correction(meta) else None,
        )

    def _reach(
        self, infos: Sequence[CorrectionInfo], exclude: AbstractSet[str]
    ) -> dict[str, list[_Record]]:
        """Return, per correction, the stored records outside ``exclude`` it would supersede.

        One Chroma read serves every correction: a regex that cannot miss (``_prefilter``)
        narrows the candidates, in the corrections' scope when they share one; the matcher
        decides.
        """
        found: dict[str, list[_Record]] = {info.id: [] for info in infos}
        if not infos:
            return found
        by_id = {info.id: info for info in infos}
        matcher: Matcher[str] = Matcher((p, info.id) for info in infos for p in info.deprecates)
        where: Where | None = None
        scopes = {info.scope for info in infos}
        if self._scope_key is not None and len(scopes) == 1:
            scope = next(iter(scopes))
            if isinstance(scope, tuple) and len(scope) == 2:
                value = scope[1]
                if isinstance(value, (str, int, float, bool)):
                    where = _where({self._scope_key: value})
        phrases = [p for info in infos for p in info.deprecates]
        for rec in self._iter_records(
            where=where,
            where_document={"$regex": candidate_regex(phrases)},
            include=["documents", "metadatas"],
        ):
            if rec.id in exclude or rec.document is None:
                continue
            keys = matcher.keys(rec.document)
            if not keys:
                continue
            meta = rec.metadata or {}
            scope = scope_token(meta, self._scope_key)
            order = _order_of(rec, self._registry.get(rec.id)) if _is_correction(meta) else None
            for cid in keys:
                if by_id[cid].may_supersede(rec.id, scope, order):
                    found[cid].append(rec)
        return found

    def _link(self, reach: Mapping[str, list[_Record]]) -> dict[str, int]:
        """Persist links from each reached record to its new corrections, one write per record.

        Returns how many records each correction reached.
        """
        records: dict[str, _Record] = {}
        new: dict[str, set[str]] = {}
        for cid, recs in reach.items():
            for rec in recs:
                records[rec.id] = rec
                new.setdefault(rec.id, set()).add(cid)
        ids: list[str] = []
        metas: list[Metadata] = []
        for rid, cids in new.items():
            meta = records[rid].metadata or {}
            by = {b for b in meta.get(K.BY) or [] if isinstance(b, str)} | cids
            ids.append(rid)
            metas.append(cast(Metadata, {K.BY: sorted(by), K.ROLE: "historical"}))
        self._update_metadatas(ids, metas)
        return {cid: len(recs) for cid, recs in reach.items()}

    def _unlink(self, correction_id: str, keep_in: AbstractSet[str] = frozenset()) -> None:
        """Remove stored links to a correction and recompute the roles they set."""
        ids: list[str] = []
        metas: list[Metadata] = []
        for rec in self._iter_records(
            where=_where({K.BY: {"$contains": correction_id}}), include=["documents", "metadatas"]
        ):
            if rec.id in keep_in:
                continue
            meta = rec.metadata or {}
            by = [b for b in meta.get(K.BY) or [] if isinstance(b, str) and b != correction_id]
            live = self._write_links(rec, self._registry)
            role = _stored_role(rec, live, self._registry)
            ids.append(rec.id)
            metas.append(
                cast(Metadata, {K.BY: sorted(set(by) & live) or None, K.ROLE: _role_value(role)})
            )
        self._update_metadatas(ids, metas)

    def _inner_write(
        self,
        op: str,
        ids: list[str],
        embeddings: Any,
        metadatas: list[dict[str, Any]],
        documents: list[str] | None,
        images: Any,
        uris: Any,
    ) -> None:
        """Send a write to Chroma in batches no larger than the server accepts."""
        method = getattr(self._inner, op)
        step = self._max_batch
        for i in range(0, len(ids), step):
            sl = slice(i, i + step)
            method(
                ids=ids[sl],
                embeddings=embeddings[sl] if embeddings is not None else None,
                metadatas=[cast(Metadata, m) if m else None for m in metadatas[sl]]
                if any(metadatas[sl])
                else None,
                documents=documents[sl] if documents is not None else None,
                images=images[sl] if images is not None else None,
                uris=uris[sl] if uris is not None else None,
            )

    def _update_metadatas(self, ids: list[str], metas: list[Metadata]) -> None:
        """Merge metadata patches into stored records, in batches."""
        for i in range(0, len(ids), self._max_batch):
            self._inner.update(
                ids=ids[i : i + self._max_batch], metadatas=metas[i : i + self._max_batch]
            )

    def _embeddings_for(
        self,
        op: str,
        embeddings: _Embeddings | None,
        documents: list[str] | None,
        images: OneOrMany[Image] | None,
    ) -> Any:
        """Return the embeddings to write: the caller's, or computed from the documents."""
        if embeddings is not None:
            if isinstance(embeddings, np.ndarray) and embeddings.ndim == 1:
                return [embeddings]
            if (
                isinstance(embeddings, Sequence)
                and embeddings
                and isinstance(embeddings[0], (int, float))
            ):
                return [embeddings]
            return embeddings
        if documents is None or images is not None:
            return None
        return self._ef(list(documents))

    def _query_embeddings(
        self, query_embeddings: _Embeddings | None, query_texts: OneOrMany[Document] | None
    ) -> Any:
        """Return query embeddings: the caller's, or computed from the query texts."""
        if query_embeddings is not None:
            return query_embeddings
        if query_texts is None:
            return None
        return self._embed_query(_one_or_many(query_texts, "query_texts"))

    def _embed_query(self, texts: list[str]) -> Any:
        """Embed query texts with the collection's function."""
        embed_query = getattr(self._ef, "embed_query", None)
        return embed_query(texts) if embed_query is not None else self._ef(texts)

    def _remember_shown(self, shown: str, stored: str) -> None:
        """Remember which stored text a query() output came from (see ``_shown``)."""
        with self._lock:
            self._shown[shown] = stored
            self._shown.move_to_end(shown)
            while len(self._shown) > _SHOWN_MAX:
                self._shown.popitem(last=False)

    def _fresh_id(self, rid: object) -> str:
        """Return a new record's id: the given one if no record has it, else raise."""
        new = _new_id(rid)
        if rid is not None and self._inner.get(ids=[new], include=[])["ids"]:
            raise InvalidInput(
                f"A record with id {new!r} already exists (chromadb would ignore this add); "
                "change it with update() or upsert(), or give another id."
            )
        return new

    def _sole_writer(self) -> bool:
        """Return whether no other process can change this store's corrections."""
        if self._writer_path is None:
            return self._in_process  # an in-memory store has no other writers
        return holds_writer_lock(self._writer_path)

    def _ensure_writer(self) -> None:
        """Before the first write: take a local store's writer lock, record the scope key."""
        if self._writer_path is not None:
            hold_writer_lock(self._writer_path)
        if self._record_scope_key:
            self._record_scope_key = False
            meta = dict(self._inner.metadata or {})
            if not any(k.startswith("hnsw:") for k in meta):  # chromadb refuses to modify those
                meta[K.SCOPE_KEY] = self._scope_key
                self._inner.modify(metadata=meta)

    # ------------------------------------------------------------------ registry

    def _info_from(self, rec: _Record, *, validate: bool = False) -> CorrectionInfo | None:
        """Return the correction a record is, or None; ``validate`` raises on bad input."""
        meta = rec.metadata or {}
        if not _is_correction(meta):
            return None
        try:
            phrases = _parse_deprecates(meta[K.DEPRECATES])
        except InvalidCorrection:
            if validate:
                raise
            logger.warning("Ignoring correction %r: its deprecates is malformed.", rec.id)
            return None
        if validate and not rec.document:
            raise InvalidCorrection(
                "A correction needs a document: the text shown in its now-line "
                "(say what changed, e.g. 'Moved from A to B')."
            )
        retracted = meta.get(K.RETRACTED)
        return CorrectionInfo(
            id=rec.id,
            document=rec.document or "",
            deprecates=phrases,
            time=_time_of(meta),
            written=_float(meta.get(K.WRITTEN), _time_of(meta)),
            scope=scope_token(meta, self._scope_key),
            retracted=float(retracted) if isinstance(retracted, (int, float)) else None,
        )

    def _load_registry(self) -> None:
        """Load every correction of the collection into a fresh registry."""
        self._seen_generation = self._generation()
        self._changed_mark = time.time()
        self._registry = Registry(
            info
            for rec in self._iter_records(
                where={K.CORRECTION: True}, include=["documents", "metadatas"]
            )
            if (info := self._info_from(rec)) is not None
        )
        self._last_refresh = time.monotonic()

    def _generation(self) -> int:
        """Return how often wrappers in this process changed this collection's corrections."""
        with _generations_lock:
            return _generations.get(self._generation_key, 0)

    def _changed_corrections(self) -> None:
        """Record that this wrapper changed the corrections (other wrappers will refresh)."""
        with _generations_lock:
            new = _generations.get(self._generation_key, 0) + 1
            _generations[self._generation_key] = new
        if self._seen_generation == new - 1:
            self._seen_generation = new  # our own registry is already up to date

    def _maybe_refresh(self, force: bool = False) -> None:
        """Pick up corrections written, retracted or deleted elsewhere.

        The only writer of a store refreshes only when another wrapper in this process
        changed the corrections. Otherwise a refresh runs at most once per
        ``refresh_seconds`` (or when ``force``): one id-only read of the corrections and one
        read of those changed since the last refresh.
        """
        generation = self._generation()
        if not force and generation == self._seen_generation:
            if self._sole_writer():
                return  # nothing but this wrapper can have changed the corrections
            if time.monotonic() - self._last_refresh < self._refresh_seconds:
                return
        with self._lock:
            self._seen_generation = generation
            mark = time.time()
            ids = {r.id for r in self._iter_records(where={K.CORRECTION: True}, include=[])}
            for info in self._registry.infos():
                if info.id not in ids:
                    self._registry.drop(info.id)
            missing = [i for i in ids if i not in self._registry]
            changed = list(
                self._iter_records(
                    where=_where({K.CHANGED: {"$gte": self._changed_mark - _REFRESH_SLACK}}),
                    include=["documents", "metadatas"],
                )
            )
            if missing:
                changed += [r for r in self._records_by_id(missing)]
            for rec in changed:
                found = self._info_from(rec)
                if found is not None:
                    self._registry.put(found)
                elif rec.id in self._registry:
                    self._registry.drop(rec.id)
            self._changed_mark = mark
            self._last_refresh = time.monotonic()

    def _refresh_for_unknown_links(self, metas: Sequence[Metadata | None]) -> None:
        """Refresh at once when a hit's stored links name a correction we do not know."""
        for meta in metas:
            links = (meta or {}).get(K.BY)
            for cid in links if isinstance(links, list) else []:
                if isinstance(cid, str) and cid not in self._registry:
                    self._maybe_refresh(force=True)
                    return

    # ---------------------------------------------------------------- bulk reads

    def _iter_records(
        self,
        where: Where | None = None,
        where_document: WhereDocument | None = None,
        include: Sequence[str] = ("documents", "metadatas"),
    ) -> Iterator[_Record]:
        """Yield every matching record, reading Chroma in pages."""
        offset = 0
        while True:
            page = self._inner.get(
                where=where,
                where_document=where_document,
                limit=_PAGE,
                offset=offset,
                include=cast(Include, list(include)),
            )
            empty: list[Any] = [None] * len(page["ids"])
            docs: list[Any] = list(page["documents"] or empty)
            metas: list[Any] = list(page["metadatas"] or empty)
            for rid, doc, meta in zip(page["ids"], docs, metas, strict=True):
                yield _Record(rid, doc, meta)
            if len(page["ids"]) < _PAGE:
                return
            offset += _PAGE

    def _records_by_id(self, ids: Sequence[str]) -> list[_Record]:
        """Return the stored records with these ids (missing ids are skipped)."""
        out: list[_Record] = []
        for i in range(0, len(ids), _PAGE):
            page = self._inner.get(ids=list(ids[i : i + _PAGE]), include=["documents", "metadatas"])
            for rid, doc, meta in zip(
                page["ids"], page["documents"] or [], page["metadatas"] or [], strict=True
            ):
                out.append(_Record(rid, doc, meta))
        return out

    def _known(self, ids: Sequence[str]) -> dict[str, _Record]:
        """Return the stored records among ``ids``, by id."""
        return {r.id: r for r in self._records_by_id(list(dict.fromkeys(ids)))}

    def _paged_get(
        self,
        where: Where | None,
        where_document: WhereDocument | None,
        include: Include,
        limit: int | None,
        offset: int,
    ) -> GetResult:
        """Run a large ``get`` as several pages and join them."""
        parts: list[GetResult] = []
        remaining = limit
        while remaining is None or remaining > 0:
            size = _PAGE if remaining is None else min(_PAGE, remaining)
            page = self._inner.get(
                where=where,
                where_document=where_document,
                limit=size,
                offset=offset,
                include=include,
            )
            parts.append(page)
            got = len(page["ids"])
            offset += got
            if remaining is not None:
                remaining -= got
            if got < size:
                break
        return _concat_get(parts, include)


# ---------------------------------------------------------------------- helpers


def _resolve_embedding_function(
    collection: ChromaCollection, given: EmbeddingFunction[Any] | None
) -> EmbeddingFunction[Any]:
    """Pick the embedding function: the given one, the collection's, else nowline's default.

    Chroma's own default downloads a model at first use; nowline's default is the same model
    (all-MiniLM-L6-v2) loaded offline, so vectors stay compatible.
    """
    if given is not None:
        return given
    own = getattr(collection, "_embedding_function", None)
    if own is not None and not isinstance(own, DefaultEmbeddingFunction):
        return cast(EmbeddingFunction[Any], own)
    try:
        configured = collection.configuration.get("embedding_function")
    except ValueError as exc:  # chromadb cannot build the persisted function in this process
        raise InvalidInput(
            f"The collection {collection.name!r} embeds with a function this process cannot "
            f"build ({exc}). Import the module that registers it before opening the "
            "collection, or pass embedding_function= to nowline.wrap(); embedding with "
            "another model would make its vectors meaningless."
        ) from None
    if isinstance(configured, EmbeddingFunction) and not isinstance(
        configured, DefaultEmbeddingFunction
    ):
        return configured
    return embedding_function()


def _local_store(collection: ChromaCollection) -> tuple[bool, str | None]:
    """Return whether the store lives in this process, and its folder if it is persistent.

    An in-memory store is private to this process; a persistent local store is shared by
    every process that opens its folder; a server's store is reached over HTTP.
    """
    api = getattr(collection, "_client", None)
    settings = getattr(getattr(api, "_system", None), "settings", None)
    if settings is None or type(api).__name__ not in ("RustBindingsAPI", "SegmentAPI"):
        return False, None
    if not getattr(settings, "is_persistent", False):
        return True, None
    path = getattr(settings, "persist_directory", None)
    return True, (str(path) if path else None)


def _max_batch_size(collection: ChromaCollection) -> int:
    """Return the largest batch the store accepts (a server may cap it), at most 5,000."""
    try:
        size = int(collection._client.get_max_batch_size())
    except Exception:
        size = 1000
    return max(1, min(size, _PAGE))


def _where(filter_: Mapping[str, Any]) -> Where:
    """Return a metadata filter built here as chromadb's ``Where`` type."""
    return cast(Where, dict(filter_))


def _one_or_many(value: Any, what: str) -> list[Any]:
    """Return a chromadb OneOrMany argument as a list."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise InvalidInput(f"{what} must be one value or a list, not {type(value).__name__}.")


def _column(value: Any, n: int, what: str, kind: type) -> list[Any] | None:
    """Return a per-record argument as a list of length ``n`` (or None), checking types."""
    if value is None:
        return None
    items = _one_or_many(value, what)
    if len(items) != n:
        raise InvalidInput(
            f"Got {len(items)} {what} for {n} ids; give exactly one per id (or none)."
        )
    for item in items:
        if item is not None and not isinstance(item, kind):
            raise InvalidInput(
                f"Each of {what} must be a {kind.__name__}, not {type(item).__name__}."
            )
        if kind is str and item is None:
            raise InvalidInput(f"{what} cannot contain None; give a str for every record.")
    if kind is str:
        for item in items:
            _check_text(item, what)
    return items


def _check_text(text: str, what: str, error: type[InvalidInput] = InvalidInput) -> None:
    """Reject text Chroma cannot store (lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise error(
            f"{what} contains a lone surrogate code point, which cannot be stored; "
            "decode the text properly (e.g. errors='replace')."
        ) from None


def _text(text: object) -> str:
    """Return ``text`` if it is a usable str."""
    if not isinstance(text, str):
        raise InvalidInput(f"Expected text (a str), got {type(text).__name__}.")
    _check_text(text, "text")
    return text


def _new_id(rid: object) -> str:
    """Return ``rid``, or a new UUID4 string when it is None."""
    if rid is None:
        return str(uuid.uuid4())
    if not isinstance(rid, str) or not rid:
        raise InvalidInput("id must be a non-empty str (or None for a generated one).")
    _check_text(rid, "id")
    return rid


def _with_observed_at(
    metadata: Mapping[str, Any] | None, observed_at: str | float | int | None
) -> dict[str, Any] | None:
    """Return the metadata with ``observed_at`` added (validated) when given."""
    if metadata is not None and not isinstance(metadata, Mapping):
        raise InvalidInput(f"metadata must be a mapping, not {type(metadata).__name__}.")
    meta = dict(metadata) if metadata else {}
    if observed_at is not None:
        to_epoch(observed_at)
        meta[K.OBSERVED_AT] = observed_at
    return meta or None


def _clean_metadata(meta: Mapping[str, Any] | None, op: str) -> dict[str, Any] | None:
    """Copy a caller's metadata: drop nowline's keys, check values, absorb Chroma quirks.

    ``None`` means "no value" in ``add`` (chromadb would fail) and "remove the key" in
    ``update``/``upsert`` (as chromadb). NaN is refused: chromadb would drop it silently.
    """
    if meta is None:
        return None
    out: dict[str, Any] = {}
    for key, value in meta.items():
        if not isinstance(key, str):
            raise InvalidInput(f"Metadata keys must be str, got {key!r}.")
        _check_text(key, "a metadata key")
        if key.startswith(K.PREFIX):
            continue  # nowline's own bookkeeping is recomputed, never taken from callers
        if value is None:
            if op != "add":
                out[key] = None
            continue
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput(
                f"Metadata {key!r} is {value}; Chroma would drop it silently. "
                "Store a finite number, or leave the key out."
            )
        if isinstance(value, str):
            _check_text(value, f"metadata {key!r}")
        out[key] = value
    if K.OBSERVED_AT in out and out[K.OBSERVED_AT] is not None:
        to_epoch(out[K.OBSERVED_AT])
    if out.get(K.DEPRECATES) is not None:
        _parse_deprecates(out[K.DEPRECATES])
    return out


def _parse_deprecates(value: object) -> tuple[str, ...]:
    """Return a correction's deprecated strings, stripped and de-duplicated.

    Raises:
        InvalidCorrection: the value is not a list of usable strings.
    """
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise InvalidCorrection(
            f"deprecates must be a list of strings (or one string), not {type(value).__name__}."
        )
    if not items:
        raise InvalidCorrection(
            "deprecates is empty; list the exact outdated strings, or leave the key out "
            "for a plain memory."
        )
    if len(items) > _MAX_PHRASES:
        raise InvalidCorrection(
            f"deprecates lists {len(items)} strings; at most {_MAX_PHRASES} are accepted. "
            "Split the correction by topic."
        )
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise InvalidCorrection(
                f"Every deprecated string must be a str; got {type(item).__name__} ({item!r})."
            )
        s = item.strip()
        if not s:
            raise InvalidCorrection(
                "A deprecated string is empty or whitespace; give the exact outdated text."
            )
        if len(s) > MAX_PHRASE_LENGTH:
            raise InvalidCorrection(
                f"A deprecated string is {len(s)} characters long; at most "
                f"{MAX_PHRASE_LENGTH} are accepted. Name the outdated identifier, not a passage."
            )
        _check_text(s, "deprecates", InvalidCorrection)
        if not any(c.isalnum() for c in fold(s)):
            raise InvalidCorrection(
                f"The deprecated string {s!r} has no letter or digit, so it would match "
                "separators everywhere; give the outdated name itself."
            )
        if s not in out:
            out.append(s)
    return tuple(out)


def _check_absent(info: CorrectionInfo, allow_absent: bool) -> None:
    """Refuse deprecated strings that do not occur in the correction's own text."""
    if allow_absent:
        return
    present = Matcher((p, p) for p in info.deprecates).keys(info.document)
    absent = [p for p in info.deprecates if p not in present]
    if absent:
        raise InvalidCorrection(
            f"The correction's text does not mention {absent!r}. The reader of its now-line "
            "must see what changed: name the outdated string in the text (it is usually a "
            "typo otherwise), or pass allow_absent=True."
        )


def _check_max_reach(value: object) -> None:
    """Validate a ``max_reach`` setting."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput("max_reach must be a share (0 < float <= 1), a count (int) or None.")
    if isinstance(value, float) and not 0 < value <= 1:
        raise InvalidInput("max_reach as a share must be in (0, 1].")
    if isinstance(value, int) and value < 0:
        raise InvalidInput("max_reach as a count must be >= 0.")


def _check_reach(
    info: CorrectionInfo, reach: int, setting: float | int | str | None, total: int
) -> None:
    """Refuse a correction that would reach more records than allowed."""
    if setting is None or isinstance(setting, str):
        return
    limit = max(REACH_FLOOR, math.floor(setting * total)) if isinstance(setting, float) else setting
    if reach > limit:
        raise CorrectionTooBroad(
            f"The correction {info.id!r} would reach {reach} of {total} records (limit "
            f"{limit}) through {list(info.deprecates)!r}. Use a narrower, more specific "
            "string (e.g. 'org/repo' rather than 'repo'), check the reach with preview(), or "
            "pass a larger max_reach.",
            reach=reach,
            limit=limit,
        )


def _is_correction(meta: Mapping[str, Any] | None) -> bool:
    """Return whether a metadata marks a correction (a non-empty ``deprecates``)."""
    return bool(meta) and bool(meta.get(K.DEPRECATES))  # type: ignore[union-attr]


def _float(value: object, default: float) -> float:
    """Return ``value`` as a float if it is a number, else ``default``."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return default


def _time_of(meta: Mapping[str, Any]) -> float:
    """Return a record's time: stored, else its ``observed_at``, else its write time, else 0."""
    if K.TIME in meta:
        return _float(meta[K.TIME], 0.0)
    observed = meta.get(K.OBSERVED_AT)
    if observed is not None:
        try:
            return to_epoch(observed)
        except InvalidInput:
            pass
    return _float(meta.get(K.WRITTEN), 0.0)


def _order_of(rec: _Record, info: CorrectionInfo | None) -> tuple[float, float, str]:
    """Return a correction record's sort key."""
    if info is not None:
        return info.order
    meta = rec.metadata or {}
    t = _time_of(meta)
    return (t, _float(meta.get(K.WRITTEN), t), rec.id)


def _is_retracted(meta: Mapping[str, Any], info: CorrectionInfo | None) -> bool:
    """Return whether a correction is retracted, by its stored metadata or the registry."""
    return meta.get(K.RETRACTED) is not None or (info is not None and info.retracted is not None)


def _stored_role(rec: _Record, links: set[str], registry: Registry) -> Role:
    """Return the role to store for a record with these links."""
    meta = rec.metadata or {}
    if _is_correction(meta):
        if _is_retracted(meta, registry.get(rec.id)):
            return "historical"
        return "historical" if links else "transition"
    return "historical" if links else "current"


def _role_value(role: Role) -> str | None:
    """Return the stored value of a role: ``current`` is stored as no key at all.

    Fewer metadata keys keep writes fast; ``{"nowline_role": {"$ne": "historical"}}`` still
    selects every record that is not historical, since ``$ne`` matches a missing key.
    """
    return None if role == "current" else role


def _merge(
    rid: str, old: _Record | None, user: dict[str, Any] | None, doc: str | None, now: float
) -> _Record:
    """Return the record as it will be after the write (metadata keys merge as in chromadb)."""
    rid_meta: dict[str, Any] = dict(old.metadata or {}) if old is not None else {}
    for key, value in (user or {}).items():
        if value is None:
            rid_meta.pop(key, None)
        else:
            rid_meta[key] = value
    observed = (user or {}).get(K.OBSERVED_AT)
    if observed is not None:
        rid_meta[K.TIME] = to_epoch(observed)
    elif K.TIME not in rid_meta:
        rid_meta[K.TIME] = now
    if K.WRITTEN not in rid_meta and rid_meta[K.TIME] != now:
        # Only needed when the time is not the write time (it breaks ties of equal times).
        rid_meta[K.WRITTEN] = now
    document = doc if doc is not None else (old.document if old is not None else None)
    return _Record(rid, document, rid_meta)


def _concat_get(parts: list[GetResult], include: Sequence[str]) -> GetResult:
    """Join several GetResults into one."""
    out: dict[str, Any] = {"ids": [i for p in parts for i in p["ids"]]}
    for field in ("embeddings", "documents", "uris", "data", "metadatas"):
        if field in include:
            values: list[Any] = []
            for p in parts:
                col: Any = cast(Mapping[str, Any], p).get(field)
                if col is not None:
                    values.extend(list(col))
            out[field] = np.array(values) if field == "embeddings" and values else values
        else:
            out[field] = None
    out["included"] = include
    return cast(GetResult, out)


def _reorder_get(result: GetResult, ids: list[str]) -> GetResult:
    """Return ``result`` with its rows in the order of ``ids`` (Chroma does not keep it)."""
    got = result["ids"]
    pos = {rid: i for i, rid in enumerate(got)}
    order = [pos[rid] for rid in dict.fromkeys(ids) if rid in pos]
    if order == list(range(len(got))):
        return result
    out: dict[str, Any] = dict(result)
    out["ids"] = [got[i] for i in order]
    for field in ("embeddings", "documents", "uris", "data", "metadatas"):
        col: Any = cast(Mapping[str, Any], result).get(field)
        if col is not None:
            out[field] = col[order] if isinstance(col, np.ndarray) else [col[i] for i in order]
    return cast(GetResult, out)
