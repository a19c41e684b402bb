"""The nowline collection: a ``chromadb.Collection`` whose stale hits carry their corrections.

:class:`Collection` *is* a chromadb ``Collection`` (a subclass sharing the wrapped collection's
client and model), so ``isinstance`` holds, every chromadb method nowline does not change
(``count``, ``search``, ``fork_count``, ``get_indexing_status``, equality, properties, and any
method a later chromadb adds) is chromadb's own, and code written for chromadb runs unchanged.
The methods nowline changes are a thin facade: validate and prepare (``_validate``), run the read
or write path (``_flows``), return chromadb's shapes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, ParamSpec, TypeVar, cast

from chromadb.api.collection_configuration import UpdateCollectionConfiguration
from chromadb.api.models.Collection import Collection as ChromaCollection
from chromadb.api.types import (
    ID,
    URI,
    CollectionMetadata,
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
    Where,
    WhereDocument,
)

from . import _flows as F
from . import _records as R
from . import embedding as _embedding  # registers nowline's embedding function with chromadb
from ._freshness import Freshness
from ._guard import guard_call, stale_message, trip_lines
from ._registry import Registry
from ._snapshot import path_for as snapshot_path
from ._snapshot import save_at_exit
from ._store import (
    Flow,
    Modify,
    SyncStore,
    choose_embedding_function,
    local_store,
    max_batch_size,
    run_sync,
)
from ._validate import (
    DEFAULT_MAX_REACH,
    check_flag,
    check_max_reach,
    correct_metadata,
    get_request,
    insert_request,
    metadata_arg,
    new_id,
    parse_about,
    parse_deprecates,
    positive_int,
    query_request,
    text_arg,
    time_arg,
)
from .errors import InvalidInput, StaleReference
from .models import CorrectionReport, CorrectionSummary, Hit, Recall, RepairReport, Trip
from .render import annotate_document, sanitize

__all__ = ["Collection", "Options", "settle_scope_key"]

P = ParamSpec("P")
T = TypeVar("T")

_Embeddings = OneOrMany[Embedding] | OneOrMany[PyEmbedding]


class Options:
    """The nowline options of a wrapped collection (validated once, shared by its wrappers)."""

    def __init__(
        self,
        *,
        scope_key: str | None = None,
        embedding_function: EmbeddingFunction[Any] | None = None,
        annotate: bool = True,
        max_reach: float | int | None = DEFAULT_MAX_REACH,
        refresh_seconds: float = 1.0,
    ) -> None:
        """Validate the options; see :func:`nowline.wrap` for their meaning.

        Raises:
            InvalidInput: an option has the wrong type or value.
        """
        if scope_key is not None and (not isinstance(scope_key, str) or not scope_key):
            raise InvalidInput("scope_key must be a non-empty metadata key (a str) or None.")
        if scope_key is not None and (
            scope_key.startswith(R.PREFIX) or scope_key in (R.DEPRECATES, R.ABOUT)
        ):
            raise InvalidInput(f"scope_key {scope_key!r} is reserved by nowline; pick a user key.")
        check_flag(annotate, "annotate")
        if isinstance(refresh_seconds, bool) or not isinstance(refresh_seconds, (int, float)):
            raise InvalidInput("refresh_seconds must be a number >= 0.")
        if not refresh_seconds >= 0:
            raise InvalidInput("refresh_seconds must be a number >= 0.")
        self.scope_key = scope_key
        self.embedding_function = embedding_function
        self.annotate = annotate
        self.max_reach = check_max_reach(max_reach)
        self.refresh_seconds = float(refresh_seconds)

    def as_kwargs(self) -> dict[str, Any]:
        """Return the options as keyword arguments of :func:`nowline.wrap`."""
        return {
            "scope_key": self.scope_key,
            "embedding_function": self.embedding_function,
            "annotate": self.annotate,
            "max_reach": self.max_reach,
            "refresh_seconds": self.refresh_seconds,
        }


def settle_scope_key(given: str | None, stored: set[str], legacy: object, name: str) -> str | None:
    """Return the scope key to read a collection with, from the caller's and the store's.

    Corrections record the scope key they were written with, so a store never loses it: a
    wrapper without ``scope_key`` adopts the recorded one, and another key is refused.

    Raises:
        InvalidInput: the caller's key differs from the recorded one, or the store's
            corrections were written with different keys.
    """
    recorded = set(stored)
    if isinstance(legacy, str):
        recorded.add(legacy)  # nowline 0.1 recorded it in the collection's metadata
    if len(recorded) > 1:
        raise InvalidInput(
            f"The collection {name!r} holds corrections written with different scope keys "
            f"{sorted(recorded)!r}; nowline cannot tell whose corrections apply where. Rewrite "
            "them with one key (see repair())."
        )
    found = next(iter(recorded), None)
    if given is None:
        return found
    if found is not None and found != given:
        raise InvalidInput(
            f"The collection {name!r} was written with scope_key={found!r}; wrap it with that "
            "key (another key would mix scopes)."
        )
    return given


class Collection(ChromaCollection):
    """A chromadb ``Collection`` whose recalled stale memories carry their corrections.

    Create one with :func:`nowline.wrap`. A record whose metadata has a non-empty
    ``deprecates`` (a list of the exact outdated strings) is a correction. Results look as
    chromadb returns them, except that a superseded hit of ``query()`` carries its correction
    lines in its document and its role and correction ids in its metadata.
    """

    def __init__(
        self,
        collection: ChromaCollection,
        options: Options | None = None,
    ) -> None:
        """Wrap ``collection``; prefer :func:`nowline.wrap`, which documents the options.

        Raises:
            InvalidInput: the collection is already wrapped, or its embedding function or
                recorded scope key cannot be used with these options.
        """
        if isinstance(collection, Collection):
            raise InvalidInput("This collection is already wrapped by nowline; use it as is.")
        opts = options or Options()
        own = opts.embedding_function
        super().__init__(
            client=collection._client,
            model=collection._model,
            embedding_function=own if own is not None else collection._embedding_function,
            data_loader=collection._data_loader,
        )
        self._ef_cache: tuple[object, EmbeddingFunction[Any] | None] | None = None
        self.embedding_function  # noqa: B018 (refuse an unbuildable persisted function now)
        self._raw = collection
        self._options = opts
        self._lock = threading.RLock()
        _, writer_path = local_store(collection._client)
        store: object = writer_path or id(collection._client)
        self._core = F.Core(
            registry=Registry(),
            fresh=Freshness(key=(store, str(collection.id)), refresh_seconds=opts.refresh_seconds),
            scope_key=opts.scope_key,
            annotate=opts.annotate,
            max_reach=opts.max_reach,
            max_batch=max_batch_size(collection._client),
        )
        self._store = SyncStore(self, writer_path)
        legacy = (collection.metadata or {}).get(R.SCOPE_KEY)
        self._snapshot = snapshot_path(collection._client, str(collection.id), writer_path)
        self._run(
            F.load(
                self._core,
                lambda stored: settle_scope_key(opts.scope_key, stored, legacy, collection.name),
                self._snapshot,
            )
        )
        save_at_exit(self._core, self._snapshot)

    def _run(self, flow: Flow[T]) -> T:
        """Run a read or write path with blocking I/O."""
        return run_sync(flow, self._store)

    def _locked(self, flow: Flow[T]) -> T:
        """Run a path that writes, one at a time per wrapper."""
        with self._lock:
            return run_sync(flow, self._store)

    # ------------------------------------------------------------------ attributes

    @property
    def scope_key(self) -> str | None:
        """The metadata key that separates scopes, or None (see the README's "Scope")."""
        return self._core.scope_key

    @property
    def raw(self) -> ChromaCollection:
        """The wrapped chromadb collection: it bypasses nowline and shows its bookkeeping keys."""
        return self._raw

    @property
    def embedding_function(self) -> EmbeddingFunction[Any] | None:
        """The function that embeds documents and query texts (None: none, as in chromadb).

        chromadb's choice, in chromadb's order (the collection's own function, else the one
        its configuration or schema persists), except that chromadb's download-at-first-use
        default becomes nowline's offline copy of the same model (all-MiniLM-L6-v2).

        Raises:
            InvalidInput: the persisted function cannot be built in this process.
        """
        key = (id(self._embedding_function), str(self._model.configuration_json))
        if self._ef_cache is None or self._ef_cache[0] != key:
            chosen = choose_embedding_function(self, self.name, _embedding.embedding_function)
            self._ef_cache = (key, chosen)
        return self._ef_cache[1]

    def _embed(self, input: Any, is_query: bool = False) -> Any:
        """Embed as chromadb would, with nowline's offline model in place of its default."""
        ef = self.embedding_function
        if ef is None:
            raise ValueError(
                "You must provide an embedding function to compute embeddings."
                "https://docs.trychroma.com/guides/embeddings"
            )
        return ef.embed_query(input=input) if is_query else ef(input=input)

    @property
    def options(self) -> dict[str, Any]:
        """The nowline options this collection was wrapped with (as :func:`nowline.wrap` takes)."""
        return {**self._options.as_kwargs(), "scope_key": self.scope_key}

    def __repr__(self) -> str:
        """Return a short description."""
        return f"nowline.Collection(name={self.name!r}, corrections={len(self._core.registry)})"

    # ------------------------------------------------------------ chromadb methods

    def add(
        self,
        ids: OneOrMany[ID],
        embeddings: _Embeddings | None = None,
        metadatas: OneOrMany[Metadata] | None = None,
        documents: OneOrMany[Document] | None = None,
        images: OneOrMany[Image] | None = None,
        uris: OneOrMany[URI] | None = None,
    ) -> None:
        """Add records, as ``chromadb.Collection.add``, and link them.

        A record whose metadata has ``deprecates`` is a correction: every stored record that
        names one of its strings is linked to it before this returns. ``observed_at`` in a
        metadata sets the record's time. A None metadata value means "no value" (chromadb
        would fail on it). Everything is validated before anything is stored.

        Raises:
            ValueError: what chromadb raises for the same arguments (nothing is stored).
            InvalidCorrection: a correction breaks a guard; nothing is written.
            CorrectionTooBroad: a correction would reach too much of the store.
        """
        req = insert_request(
            "add", ids, embeddings, metadatas, documents, images, uris, self._core.max_batch
        )
        self._locked(F.write_flow(self._core, req))

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
            ValueError: what chromadb raises for the same arguments (nothing is stored).
            InvalidCorrection: a correction breaks a guard; nothing is written.
        """
        req = insert_request(
            "upsert", ids, embeddings, metadatas, documents, images, uris, self._core.max_batch
        )
        self._locked(F.write_flow(self._core, req))

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

        Metadata keys merge as in chromadb, and a key set to None is removed. A document that
        still carries nowline's lines from ``query()`` is stored without them.

        Raises:
            ValueError: what chromadb raises for the same arguments (nothing is stored).
            InvalidCorrection: a correction breaks a guard; nothing is written.
        """
        req = insert_request(
            "update", ids, embeddings, metadatas, documents, images, uris, self._core.max_batch
        )
        self._locked(F.write_flow(self._core, req))

    def delete(
        self,
        ids: list[ID] | None = None,
        where: Where | None = None,
        where_document: WhereDocument | None = None,
        limit: int | None = None,
    ) -> DeleteResult:
        """Delete records, as ``chromadb.Collection.delete``.

        A deleted correction's records become current again unless another correction still
        holds them. Arguments chromadb refuses are refused before anything changes.
        """
        req = self._validate_and_prepare_delete_request(ids, where, where_document, limit)
        return cast(
            DeleteResult,
            self._locked(
                F.delete_flow(
                    self._core, req["ids"], req["where"], req["where_document"], req["limit"]
                )
            ),
        )

    def get(
        self,
        ids: OneOrMany[ID] | None = None,
        where: Where | None = None,
        limit: int | None = None,
        offset: int | None = None,
        where_document: WhereDocument | None = None,
        include: Include = ["metadatas", "documents"],  # noqa: B006 (chromadb's default; never mutated)
    ) -> GetResult:
        """Return records as ``chromadb.Collection.get`` does, without nowline's keys.

        Order, ``limit`` and ``offset`` are chromadb's; reads larger than Chroma's row limit
        (about 32k rows with metadatas) are paged. Stored documents come back as stored.
        """
        id_list, wanted = get_request(
            ids, where, where_document, include, self._data_loader is not None
        )
        if not _is_count(limit) or not _is_count(offset):
            return super().get(ids, where, limit, offset, where_document, list(include))
        result = self._run(
            F.get_flow(self._core, id_list, where, limit, offset, where_document, wanted)
        )
        return self._transform_get_response(cast(GetResult, result), cast(Include, wanted))

    def peek(self, limit: int = 10) -> GetResult:
        """Return the first ``limit`` records, as chromadb's ``peek``, without nowline's keys."""
        result = self._run(F.peek_flow(self._core, limit))
        return self._transform_peek_response(cast(GetResult, result))

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
        """Query nearest neighbours, as ``chromadb.Collection.query``.

        A hit that no correction supersedes comes back exactly as chromadb returns it. A
        superseded hit's document carries its correction lines (the corrections that name
        its strings, then ``now:`` the newest of their chains) and its metadata carries
        ``nowline_role``, ``nowline_by`` (the direct corrections) and ``nowline_now`` (the
        newest); a recalled retracted correction carries its ``retracted:`` mark.
        """
        req = query_request(
            query_embeddings,
            query_texts,
            query_images,
            query_uris,
            ids,
            n_results,
            where,
            where_document,
            include,
            self._data_loader is not None,
        )
        result = self._run(F.query_flow(self._core, req))
        return self._transform_query_response(cast(QueryResult, result), cast(Include, req.include))

    def modify(
        self,
        name: str | None = None,
        metadata: CollectionMetadata | None = None,
        configuration: UpdateCollectionConfiguration | None = None,
    ) -> None:
        """Rename the collection or change its metadata, as ``chromadb.Collection.modify``."""
        self._validate_modify_request(metadata)
        self._locked(_modify_flow(name, metadata, configuration))
        self._update_model_after_modify_success(name, metadata, configuration)

    def fork(self, new_name: str) -> Collection:
        """Fork the collection (hosted Chroma only), as chromadb's; the fork is wrapped too."""
        return Collection(self._raw.fork(new_name), self._options)

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
            InvalidInput: the text, id, metadata or time cannot be used, or ``id`` exists.
        """
        rid = self._fresh_id(id)
        meta = metadata_arg(metadata) or {}
        if observed_at is not None:
            time_arg(observed_at, "observed_at")
            meta[R.OBSERVED_AT] = observed_at
        req = insert_request(
            "add", [rid], None, [meta] if meta else None, [text_arg(text)], None, None, 1
        )
        self._locked(F.write_flow(self._core, req))
        return rid

    def correct(
        self,
        text: str,
        *,
        deprecates: Sequence[str] | str,
        about: Sequence[str] | str | None = None,
        id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        observed_at: str | float | int | None = None,
        allow_absent: bool = False,
        allow_generic: bool = False,
        max_reach: float | int | Literal["default"] | None = "default",
    ) -> CorrectionReport:
        """Store a correction and link every record that names what it deprecates.

        Args:
            text: the correction's text; it should say what changed ("Moved from A to B").
            deprecates: the exact outdated strings (or one string).
            about: anchors: the correction then reaches only records that also name one of
                these (use it for a generic string such as a first name or a year).
            id: the record id to use (a new UUID when None).
            metadata: user metadata to store with it (the scope key goes here).
            observed_at: when the change was observed (ISO 8601 or epoch seconds).
            allow_absent: accept deprecated strings that do not occur in ``text``.
            allow_generic: accept a common word or bare number without an anchor.
            max_reach: refuse the correction if it would reach more records than this: a
                share of the store (a float in (0, 1]; never below ``REACH_FLOOR``), a count
                (an int), or None for no limit. The default is the collection's setting.

        Returns:
            The correction's id, how many records it reached and the seconds taken.

        Raises:
            InvalidCorrection: ``deprecates`` or ``about`` is malformed, a string is absent
                from ``text``, or a string is generic without an anchor; nothing is written.
            CorrectionTooBroad: it would reach more than ``max_reach``; nothing is written.
        """
        start = time.perf_counter()
        rid = self._fresh_id(id)
        check_flag(allow_absent, "allow_absent")
        check_flag(allow_generic, "allow_generic")
        if max_reach != "default":
            check_max_reach(max_reach)
        meta = correct_metadata(metadata, deprecates, about, observed_at)
        req = insert_request("add", [rid], None, [meta], [text_arg(text)], None, None, 1)
        reached = self._locked(
            F.write_flow(
                self._core,
                req,
                allow_absent=allow_absent,
                allow_generic=allow_generic,
                max_reach=max_reach,
            )
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
            text: what to recall (not empty).
            n_results: how many hits to return.
            where: a Chroma metadata filter.
            where_document: a Chroma document filter.
            as_of: answer as the store knew things then: records and corrections with a
                later time are left out (ISO 8601 or epoch seconds).
            include_historical: keep historical hits (with their lines); False leaves them
                out and fills the packet with the next closest hits.

        Returns:
            A :class:`Recall`; ``render()`` gives the context block.

        Raises:
            InvalidInput: the text is empty, or an argument has the wrong type.
        """
        query = text_arg(text)
        if not query.strip():
            raise InvalidInput("recall() needs a query: the text is empty.")
        positive_int(n_results, "n_results")
        check_flag(include_historical, "include_historical")
        cutoff = time_arg(as_of, "as_of")
        req = query_request(
            None, [query], None, None, None, n_results, where, where_document, [], False
        )
        return self._run(
            F.recall_flow(
                self._core,
                query,
                n_results,
                where,
                where_document,
                cutoff,
                include_historical,
                req.record_set,
            )
        )

    def hits(self, ids: Sequence[str], *, as_of: str | float | int | None = None) -> list[Hit]:
        """Return the records with these ids as evidence-packet hits, in the order given.

        Each hit carries its role and corrections exactly as ``recall()`` would show it (its
        distance is None). Missing ids are left out.
        """
        if isinstance(ids, str) or not all(isinstance(i, str) for i in ids):
            raise InvalidInput("hits() takes a list of ids (str).")
        return self._run(F.hits_flow(self._core, list(ids), time_arg(as_of, "as_of")))

    def preview(
        self,
        deprecates: Sequence[str] | str,
        *,
        about: Sequence[str] | str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[str]:
        """Return the ids of the records a correction would reach, without writing anything.

        Args:
            deprecates: the outdated strings the correction would name.
            about: its anchors, if any.
            metadata: the metadata it would have (its scope key decides whom it may reach).

        Raises:
            InvalidCorrection: ``deprecates`` or ``about`` is malformed.
        """
        phrases = parse_deprecates(deprecates)
        anchors = parse_about(about)
        meta = metadata_arg(metadata)
        return self._run(F.preview_flow(self._core, phrases, anchors, meta))

    def retract(self, correction_id: str) -> None:
        """Undo a wrong correction; the correction record stays, marked retracted.

        Its links go, and the records it made historical become current again unless another
        correction still holds them. Retracting twice does nothing more.

        Raises:
            UnknownRecord: no record has this id.
            InvalidInput: the record is not a correction.
        """
        text_arg(correction_id, "correction_id")
        self._locked(F.retract_flow(self._core, correction_id))

    def repair(self) -> RepairReport:
        """Rebuild every link from the documents and persist what differs. Idempotent.

        Use it after records were written by a plain chromadb client, or after a process
        died while propagating a correction. Read-time checks already show the right lines
        before a repair; ``repair()`` makes the stored links (and so ``where`` filters on
        roles) agree.
        """
        return self._locked(F.repair_flow(self._core))

    def corrections(self) -> list[CorrectionSummary]:
        """Return every correction, oldest first: its strings, status, reach and newest."""
        return self._run(F.corrections_flow(self._core))

    def stats(self) -> dict[str, int]:
        """Return how many records hold each stored role, and the total (``records``)."""
        return self._run(F.stats_flow(self._core))

    # ------------------------------------------------------------ guarding actions

    def check(self, text: str, *, metadata: Mapping[str, Any] | None = None) -> list[Trip]:
        """Return the active corrections whose strings occur in ``text``; write nothing.

        Use it on anything that never passes through recall: a planned tool call, a plan
        written earlier, a cached tool result, a document from elsewhere.

        Args:
            text: the text to check.
            metadata: the caller's metadata; on a collection with a ``scope_key`` it must
                carry that key, whose value selects the scope whose corrections apply.

        Returns:
            One :class:`Trip` per correction, with its newest correction (chains resolved),
            the matched strings and their offsets, ordered by first occurrence.

        Raises:
            InvalidInput: the collection has a scope key and ``metadata`` does not give it.
        """
        text_arg(text)
        meta = metadata_arg(metadata)
        key = self.scope_key
        if key is not None and (meta is None or key not in meta):
            raise InvalidInput(
                f"This collection keeps scopes apart by the metadata key {key!r}, so check() "
                f"needs the scope to check for: pass metadata={{{key!r}: <value>}} (the value "
                "of the memories' owner; None for records without the key)."
            )
        return self._run(F.check_flow(self._core, text, meta))

    def annotate(self, text: str, *, metadata: Mapping[str, Any] | None = None) -> str:
        """Return ``text`` with the lines of the corrections it trips beneath it.

        The format is the one of recalled memories; lines of ``text`` that look like
        nowline's lines are quoted. Text that trips nothing comes back (sanitized) unchanged.
        """
        trips = self.check(text, metadata=metadata)
        return annotate_document(text, trip_lines(trips)) if trips else sanitize(text)

    def require_current(self, *texts: str, metadata: Mapping[str, Any] | None = None) -> None:
        """Raise :class:`StaleReference` if any text names a superseded string.

        Raises:
            StaleReference: with the trips; its message gives the lines.
        """
        trips: list[Trip] = []
        for text in texts:
            trips += [t for t in self.check(text, metadata=metadata) if t not in trips]
        if trips:
            raise StaleReference(stale_message(trips, override=None), trips=trips)

    def guard(
        self, func: Callable[P, T] | None = None, *, metadata: Mapping[str, Any] | None = None
    ) -> Any:
        """Decorate a tool function so that it never runs on a superseded string.

        Before each call every string argument (also inside lists, tuples and dicts) is
        checked. If a correction applies, :class:`StaleReference` is raised and the function
        does not run; the error carries the trips and its message gives the now-line. Call
        the tool with ``allow_stale=True`` to run it anyway.

        Use as ``@memory.guard`` or ``@memory.guard(metadata={"user_id": "u1"})``.
        """

        def decorate(f: Callable[P, T]) -> Callable[P, T]:
            if not callable(f):
                raise InvalidInput(f"guard() decorates a function, not {type(f).__name__}.")
            return guard_call(lambda text: self.check(text, metadata=metadata), f)

        return decorate(func) if func is not None else decorate

    # ----------------------------------------------------------------- helpers

    def _fresh_id(self, rid: object) -> str:
        """Return a new record's id: the given one if no record has it, else raise."""
        new = new_id(rid)
        if rid is not None and super().get(ids=[new], include=[])["ids"]:
            raise InvalidInput(
                f"A record with id {new!r} already exists (chromadb would ignore this add); "
                "change it with update() or upsert(), or give another id."
            )
        return new


def _is_count(value: object) -> bool:
    """Return whether ``value`` is None or an int >= 0 (what nowline pages itself)."""
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)


def _modify_flow(
    name: str | None, metadata: CollectionMetadata | None, configuration: Any
) -> Flow[None]:
    """Change the collection after taking the writer lock."""
    from ._store import Lock

    yield Lock()
    yield Modify(name=name, metadata=metadata, configuration=configuration)
