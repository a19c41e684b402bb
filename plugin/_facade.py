"""What the sync and async wrappers share: options, set-up, one prepare step per verb.

:class:`Facade` is the half of the collections that does no I/O, as chromadb's
``CollectionCommon`` is for its own two collection classes. Each ``_*_path`` method validates a
call and returns the read or write path to run (a flow of :mod:`nowline._flows`) and how to
turn its result into what the method returns. The sync :class:`nowline.Collection` runs the
flow with blocking calls, the async :class:`nowline.AsyncCollection` with ``await``; their
public methods are one line each, so the two can never disagree about a rule, an error or a
result shape. :class:`ClientFacade` is the same for the two clients.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypedDict, TypeVar, cast, overload

from chromadb.api import AsyncClientAPI, ClientAPI
from chromadb.api.client import Client as ChromaClient
from chromadb.api.collection_configuration import CreateCollectionConfiguration
from chromadb.api.models.CollectionCommon import CollectionCommon
from chromadb.api.types import (
    CollectionMetadata,
    DataLoader,
    DeleteResult,
    EmbeddingFunction,
    GetResult,
    Include,
    QueryResult,
    Schema,
)

from . import embedding as _embedding  # registers nowline's embedding function with chromadb
from ._io import flows as F
from ._io.chroma import choose_embedding_function, local_store, max_batch_size, server_url
from ._io.freshness import shared
from ._io.ops import Flow
from ._io.snapshot import path_for as snapshot_path
from ._rules import records as R
from ._rules import verbs as V
from ._rules.generic import is_identifier
from ._rules.guards import Allowances, retract_words
from ._rules.validate import (
    DEFAULT_MAX_REACH,
    anchors_kept,
    check_flag,
    check_max_reach,
    check_scope_key,
    correct_metadata,
    get_request,
    insert_request,
    metadata_arg,
    new_id,
    parse_about,
    parse_deprecates,
    parse_replaced_by,
    positive_int,
    query_request,
    reserved_key,
    scope_needed,
    text_arg,
    time_arg,
    values_settled,
)
from .errors import InvalidCorrection, InvalidInput
from .matchers import Matcher, fold
from .models import CorrectionReport, CorrectionSummary, Hit, Preview, Recall, RepairReport, Trip

__all__ = [
    "DEFAULT_EF",
    "ClientFacade",
    "CreateArgs",
    "Facade",
    "OpenArgs",
    "Options",
    "Path",
    "WrapOptions",
    "forward_client_api",
]

A = TypeVar("A", ClientAPI, AsyncClientAPI)
C = TypeVar("C")
T = TypeVar("T")
U = TypeVar("U")


_Transform = Callable[[Any, Include], T]
"""chromadb's transform of a raw response (the flows return it as a plain dict) into ``T``."""


class WrapOptions(TypedDict, total=False):
    """The keyword options of :func:`nowline.wrap` (and of :func:`nowline.instrument`)."""

    scope_key: str | None
    embedding_function: EmbeddingFunction[Any] | None
    annotate: bool
    max_reach: float | int | None
    refresh_seconds: float
    text_key: str | None


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
        text_key: str | None = None,
    ) -> None:
        """Validate the options; see :func:`nowline.wrap` for their meaning.

        Raises:
            InvalidInput: an option has the wrong type or value.
        """
        check_scope_key(scope_key)
        if text_key is not None and (not isinstance(text_key, str) or not text_key):
            raise InvalidInput("text_key must be a non-empty metadata key (a str) or None.")
        if text_key is not None and (
            reserved_key(text_key) or text_key in (R.OBSERVED_AT, scope_key)
        ):
            raise InvalidInput(
                f"text_key {text_key!r} is nowline's own, observed_at or the scope key; name "
                "the metadata key that holds each record's text (mem0: 'data')."
            )
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
        self.text_key = text_key

    def as_kwargs(self) -> dict[str, Any]:
        """Return the options as keyword arguments of :func:`nowline.wrap`."""
        return {key: getattr(self, key) for key in WrapOptions.__annotations__}


@dataclass(frozen=True)
class Path(Generic[T, U]):
    """A prepared call: the flow to run, whether it writes, and how to shape its result."""

    flow: Flow[T]
    finish: Callable[[T], U]
    writes: bool = False


def _same(value: T) -> T:
    """Return ``value`` unchanged (a path whose result needs no shaping)."""
    return value


class Facade(CollectionCommon[Any], Generic[C]):
    """The shared half of the sync and async collections: everything that does no I/O.

    A subclass also inherits chromadb's ``Collection`` or ``AsyncCollection`` (both are
    ``CollectionCommon``, whose ``_client``, ``_model``, validation and response transforms
    the paths use); ``C`` is the type of the collection it wraps.
    """

    _raw: C
    _options: Options
    _core: F.Core
    _snapshot: str | None
    _ef_cache: tuple[object, EmbeddingFunction[Any] | None] | None
    _load: Flow[None] | None

    def __init__(self, collection: C, options: Options | None = None) -> None:
        """Take ``collection``'s client and model; prepare the corrections' load (``_load``).

        Raises:
            InvalidInput: the collection is already wrapped, or its embedding function or
                recorded scope key cannot be used with these options.
        """
        if isinstance(collection, Facade):
            raise InvalidInput("This collection is already wrapped by nowline; use it as is.")
        raw: Any = collection
        own = options.embedding_function if options is not None else None
        super().__init__(
            client=raw._client,
            model=raw._model,
            embedding_function=own if own is not None else raw._embedding_function,
            data_loader=raw._data_loader,
        )
        self._load = self._setup(collection, options)

    def _setup(self, collection: Any, options: Options | None) -> Flow[None]:
        """Prepare the wrapper's state; return the flow that loads its corrections."""
        opts = options or Options()
        self._ef_cache = None
        self.embedding_function  # noqa: B018 (refuse an unbuildable persisted function now)
        self._raw = collection
        self._options = opts
        _, writer_path = local_store(collection._client)
        # The wrappers of one collection in this process share one registry: keyed by the
        # store's folder, the server's URL (sync and async clients alike), else the client.
        store: object = writer_path or server_url(collection._client) or id(collection._client)
        legacy = (collection.metadata or {}).get(R.SCOPE_KEY)
        legacy_key = legacy if isinstance(legacy, str) and legacy else None
        if opts.scope_key is not None and legacy_key not in (None, opts.scope_key):
            raise InvalidInput(
                f"The collection {collection.name!r} was scoped by {legacy_key!r} (nowline 0.1 "
                "recorded it in the collection's metadata); wrap it with that key."
            )
        common = shared(
            (store, str(collection.id), legacy_key, opts.text_key), opts.refresh_seconds
        )
        self._core = F.Core(
            registry=common.registry,
            fresh=common.fresh,
            scope_key=opts.scope_key or legacy_key,
            legacy_key=legacy_key,
            annotate=opts.annotate,
            max_reach=opts.max_reach,
            max_batch=max_batch_size(collection._client),
            text_key=opts.text_key,
            shared=common,
        )
        self._snapshot = snapshot_path(collection._client, str(collection.id), writer_path)
        return F.load(self._core, self._snapshot)

    # ------------------------------------------------------------------ attributes

    @property
    def raw(self) -> C:
        """The wrapped chromadb collection: it bypasses nowline and shows its bookkeeping keys."""
        return self._raw

    @property
    def scope_key(self) -> str | None:
        """The scope key this wrapper writes corrections with, or None (see "Scope").

        It is the ``scope_key`` option: every correction this wrapper writes carries it and
        its own value for it, and ``check()`` needs that value. Reading never depends on it:
        each correction applies by the scope it carries.
        """
        return self._core.scope_key

    @property
    def freshness_bounds(self) -> tuple[float, float]:
        """Seconds within which changes made elsewhere reach this wrapper's reads, as measured.

        The first is for changes made through nowline (``refresh_seconds`` plus the last
        catch-up's duration), the second for writes made around nowline (the resync interval
        plus a listing's duration); see the README's "Freshness". Counted from the moment a
        change is visible in Chroma, for a wrapper that keeps reading.
        """
        return self._core.fresh.bounds()

    @property
    def scope_keys(self) -> frozenset[str]:
        """The scope keys the collection's corrections carry, as this process knows them."""
        return self._core.registry.scope_keys()

    @property
    def options(self) -> dict[str, Any]:
        """The nowline options this collection was wrapped with (as :func:`nowline.wrap` takes)."""
        return {**self._options.as_kwargs(), "scope_key": self.scope_key}

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

    # ----------------------------------------------------- chromadb verbs, prepared

    def _insert_path(
        self, op: Literal["add", "upsert", "update"], call: V.InsertArgs
    ) -> Path[dict[str, int], None]:
        """Prepare an add, upsert or update."""
        req = insert_request(op, call, max_batch=self._core.max_batch)
        return Path(F.write_flow(self._core, req), lambda _: None, writes=True)

    def _delete_path(self, call: V.DeleteArgs) -> Path[DeleteResult, DeleteResult]:
        """Prepare a delete (chromadb's own validation runs first; it embeds nothing)."""
        req = self._validate_and_prepare_delete_request(
            call.ids, call.where, call.where_document, call.limit
        )
        flow = F.delete_flow(
            self._core, req["ids"], req["where"], req["where_document"], req["limit"]
        )
        return Path(flow, _same, writes=True)

    def _get_path(self, call: V.GetArgs) -> Path[dict[str, Any], GetResult]:
        """Prepare a get; the result is shaped by chromadb's own transform."""
        id_list, wanted = get_request(call, has_data_loader=self._data_loader is not None)
        flow = F.get_flow(
            self._core, id_list, call.where, call.limit, call.offset, call.where_document, wanted
        )
        transform: _Transform[GetResult] = self._transform_get_response  # takes the raw dict
        return Path(flow, lambda result: transform(result, cast(Include, wanted)))

    def _peek_path(self, limit: int) -> Path[dict[str, Any], GetResult]:
        """Prepare a peek."""
        transform: Callable[[Any], GetResult] = self._transform_peek_response
        return Path(F.peek_flow(self._core, limit), transform)

    def _query_path(self, call: V.QueryArgs) -> Path[dict[str, Any], QueryResult]:
        """Prepare a query; hits carry their lines."""
        req = query_request(call)
        transform: _Transform[QueryResult] = self._transform_query_response
        return Path(
            F.query_flow(self._core, req),
            lambda result: transform(result, cast(Include, req.include)),
        )

    def _modify_path(self, name: str | None, metadata: Any, configuration: Any) -> Path[None, None]:
        """Prepare a modify of the collection (after chromadb's own validation)."""
        self._validate_modify_request(metadata)
        after = self._update_model_after_modify_success
        flow = F.modify_flow(name, metadata, configuration)
        return Path(flow, lambda _: after(name, metadata, configuration), writes=True)

    # ------------------------------------------------------- nowline verbs, prepared

    def _remember_path(self, call: V.RememberArgs) -> Path[str, str]:
        """Prepare remember()."""
        body = text_arg(call.text)
        meta = metadata_arg(call.metadata) or {}
        if call.observed_at is not None:
            time_arg(call.observed_at, "observed_at")
            meta[R.OBSERVED_AT] = call.observed_at
        if self._core.text_key is not None:
            meta[self._core.text_key] = body
        rid = call.id
        return Path(
            F.remember_flow(self._core, body, new_id(rid), meta, given=rid is not None),
            _same,
            writes=True,
        )

    def _correct_path(
        self, call: V.CorrectArgs
    ) -> Path[tuple[str, dict[str, int], F.Repaired], CorrectionReport]:
        """Prepare correct(); the report counts what the correction reached."""
        start = time.perf_counter()
        body = text_arg(call.text)
        allow = self._allowances(call)
        if call.max_reach != "default":
            check_max_reach(call.max_reach)
        meta = correct_metadata(
            call.metadata, call.deprecates, call.about, call.observed_at, call.replaced_by
        )
        settled = values_settled(meta[R.DEPRECATES], meta.get(R.REPLACED_BY, ()), body)
        olds = settled.deprecates
        _, dropped = anchors_kept(olds, meta.get(R.ABOUT, ()), body)
        if self._core.text_key is not None:
            meta[self._core.text_key] = body
        flow = F.correct_flow(
            self._core,
            body,
            new_id(call.id),
            meta,
            given=call.id is not None,
            allow=allow,
            max_reach=call.max_reach,
        )

        def finish(result: tuple[str, dict[str, int], F.Repaired]) -> CorrectionReport:
            new, reached, repaired = result
            if repaired.standing is not None:
                return CorrectionReport(
                    id=new,
                    reached=reached.get(new, 0),
                    seconds=time.perf_counter() - start,
                    notes=[_repeat_note(new)],
                    stored=False,
                )
            given_new = {fold(v) for v in meta.get(R.REPLACED_BY, ())}
            notes = [_new_value_note(p, fold(p) in given_new) for p in settled.dropped_old]
            notes += [_old_value_note(p) for p in settled.dropped_new]
            notes += [_dropped_note(a, list(olds)) for a in dropped]
            if repaired.absent:
                notes.append(_absent_note(repaired.absent))
            return CorrectionReport(
                id=new,
                reached=reached.get(new, 0),
                seconds=time.perf_counter() - start,
                notes=notes,
            )

        return Path(flow, finish, writes=True)

    def _recall_path(self, call: V.RecallArgs) -> Path[Recall, Recall]:
        """Prepare recall()."""
        query = text_arg(call.text)
        if not query.strip():
            raise InvalidInput("recall() needs a query: the text is empty.")
        positive_int(call.n_results, "n_results")
        check_flag(call.include_historical, "include_historical")
        cutoff = time_arg(call.as_of, "as_of")
        req = query_request(
            V.QueryArgs(
                query_texts=[query],
                n_results=call.n_results,
                where=call.where,
                where_document=call.where_document,
                include=[],
            )
        )
        flow = F.recall_flow(
            self._core,
            query,
            call.n_results,
            call.where,
            call.where_document,
            cutoff,
            call.include_historical,
            req.record_set,
        )
        return Path(flow, _same)

    def _hits_path(self, ids: Sequence[str], as_of: Any) -> Path[list[Hit], list[Hit]]:
        """Prepare hits()."""
        if isinstance(ids, str) or not all(isinstance(i, str) for i in ids):
            raise InvalidInput("hits() takes a list of ids (str).")
        return Path(F.hits_flow(self._core, list(ids), time_arg(as_of, "as_of")), _same)

    @staticmethod
    def _allowances(call: V.CorrectArgs | V.PreviewArgs) -> Allowances:
        """Return the guards a call waives (its ``allow_*`` keywords, validated)."""
        for flag in ("allow_absent", "allow_generic", "allow_person", "allow_unreached"):
            check_flag(getattr(call, flag), flag)
        return Allowances(
            absent=call.allow_absent,
            generic=call.allow_generic,
            person=call.allow_person,
            unreached=call.allow_unreached,
        )

    def _preview_path(self, call: V.PreviewArgs) -> Path[Preview, Preview]:
        """Prepare preview(); without deprecates, the text's old values are proposed."""
        body = None if call.text is None else text_arg(call.text)
        if call.deprecates is None or (
            isinstance(call.deprecates, (list, tuple)) and not call.deprecates
        ):
            if body is None:
                raise InvalidCorrection(
                    "preview() needs deprecates, or the correction's text (then nowline "
                    "proposes the strings to deprecate)."
                )
            phrases: tuple[str, ...] = ()
        else:
            phrases = parse_deprecates(call.deprecates)
        given = None if call.replaced_by is None else parse_replaced_by(call.replaced_by)
        phrases = values_settled(phrases, given or (), body).deprecates
        anchors, _ = anchors_kept(phrases, parse_about(call.about), body)
        meta = metadata_arg(call.metadata)
        allow = self._allowances(call)
        if call.max_reach != "default":
            check_max_reach(call.max_reach)
        flow = F.preview_flow(
            self._core,
            phrases,
            anchors,
            meta,
            body,
            given,
            allow=allow,
            max_reach=call.max_reach,
        )
        return Path(flow, _same)

    def _retract_path(self, correction_id: str) -> Path[bool, None]:
        """Prepare retract()."""
        text_arg(correction_id, "correction_id")
        return Path(F.retract_flow(self._core, correction_id), lambda _: None, writes=True)

    def _repair_path(self) -> Path[RepairReport, RepairReport]:
        """Prepare repair()."""
        return Path(F.repair_flow(self._core), _same, writes=True)

    def _corrections_path(self) -> Path[list[CorrectionSummary], list[CorrectionSummary]]:
        """Prepare corrections()."""
        return Path(F.corrections_flow(self._core), _same)

    def _changes_path(self, baseline: Any) -> Path[F.Changes, F.Changes]:
        """Prepare one step of changes(): catch up, and diff against ``baseline``."""
        return Path(F.changes_flow(self._core, baseline), _same)

    def _poll_seconds(self, poll_seconds: float | None) -> float:
        """Return how long changes() waits between steps (validated)."""
        if poll_seconds is None:
            return max(self._core.fresh.refresh_seconds, 0.05)
        if isinstance(poll_seconds, bool) or not isinstance(poll_seconds, (int, float)):
            raise InvalidInput("poll_seconds must be a number > 0, or None.")
        if not poll_seconds > 0 or poll_seconds == float("inf"):
            raise InvalidInput("poll_seconds must be a number > 0, or None.")
        return float(poll_seconds)

    def _stats_path(self) -> Path[dict[str, int], dict[str, int]]:
        """Prepare stats()."""
        return Path(F.stats_flow(self._core), _same)

    def _check_path(
        self, text: str, metadata: Mapping[str, Any] | None
    ) -> Path[list[Trip], list[Trip]]:
        """Prepare check(): a scoped collection needs the scope to check for."""
        text_arg(text)
        meta = metadata_arg(metadata)
        key = scope_needed(self.scope_key, self.scope_keys, meta)
        if key is not None:
            raise InvalidInput(
                f"This collection keeps scopes apart by the metadata key {key!r}, so check() "
                f"needs the scope to check for: pass metadata={{{key!r}: <value>}} (the value "
                "of the memories' owner; None for records without the key)."
            )
        return Path(F.check_flow(self._core, text, meta), _same)


# ------------------------------------------------------------------ the clients' verbs

DEFAULT_EF: Any = (
    inspect.signature(ChromaClient.create_collection).parameters["embedding_function"].default
)
"""chromadb's own default embedding function argument, so "not given" differs from None."""


@dataclass(frozen=True, slots=True)
class OpenArgs:
    """The arguments of chromadb's ``get_or_create_collection``."""

    name: str
    schema: Schema | None = None
    configuration: CreateCollectionConfiguration | None = None
    metadata: CollectionMetadata | None = None
    embedding_function: EmbeddingFunction[Any] | None = DEFAULT_EF
    data_loader: DataLoader[Any] | None = None


@dataclass(frozen=True, slots=True)
class CreateArgs(OpenArgs):
    """The arguments of chromadb's ``create_collection``."""

    get_or_create: bool = False


def _dropped_note(anchor: str, deprecates: list[str]) -> str:
    """Return the report's note on an anchor dropped (:func:`anchors_kept` says which kind)."""
    listed = ", ".join(repr(p) for p in deprecates)
    if all(is_identifier(p) for p in deprecates):
        return (
            f"The anchor {anchor!r} was dropped: {listed} names one thing wherever it is "
            "written, so the correction holds for every memory and command that names it."
        )
    if not any(Matcher([(anchor, 0)]).find(p) for p in deprecates):
        return (
            f"The anchor {anchor!r} is a new value by the text's wording, and the outdated "
            "memories name the old one: it was dropped."
        )
    return f"The anchor {anchor!r} is part of {listed}, so it narrows nothing: it was dropped."


def _new_value_note(phrase: str, given: bool) -> str:
    """Return the report's note on a deprecated string dropped for being a new value too."""
    why = "also a new value (replaced_by)" if given else "a new value by the text's wording"
    return f"{phrase!r} is {why}, so it stays current: it was dropped from deprecates."


def _old_value_note(phrase: str) -> str:
    """Return the report's note on a string given as old and new that the text calls old."""
    return (
        f"{phrase!r} was given both as an old and as a new value; the text says it no longer "
        "holds, so it is stored as an old value only (dropped from replaced_by)."
    )


def _repeat_note(standing: str) -> str:
    """Return the report's note on a correction that repeats one that stands (nothing stored)."""
    undo = retract_words(standing)
    return (
        f"The same correction (its text, strings, anchors and new values) is already stored "
        f"as {standing!r}, and it stands: nothing new was written, and its id is returned. "
        f"To state the change anew, retract it first: {undo}."
    )


def _absent_note(strings: Sequence[str]) -> str:
    """Return the report's note on deprecated strings the text does not name, accepted."""
    listed = ", ".join(repr(p) for p in strings)
    return (
        f"The text does not name {listed}, but memories do, so it was accepted as an old "
        "value: the line is shown beneath them. Name the old value in the text to make the "
        "line say what changed."
    )


class _ClientAttribute:
    """A ``str`` attribute read from and written to the wrapped client (``tenant``, ...)."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _ClientAttribute: ...

    @overload
    def __get__(self, obj: ClientFacade[Any], owner: type | None = None) -> str: ...

    def __get__(
        self, obj: ClientFacade[Any] | None, owner: type | None = None
    ) -> str | _ClientAttribute:
        if obj is None:
            return self
        value: str = getattr(obj._client, self._name)
        return value

    def __set__(self, obj: ClientFacade[Any], value: str) -> None:
        setattr(obj._client, self._name, value)


class ClientFacade(Generic[A]):
    """The shared half of :class:`nowline.Client` and :class:`nowline.AsyncClient` (no I/O).

    ``A`` is chromadb's client API it wraps (sync or async); attributes nowline does not name
    pass through to the wrapped client.
    """

    _client: A
    _options: Options

    def __init__(self, client: A, options: Options) -> None:
        """Wrap ``client``; prefer :func:`nowline.wrap`."""
        self._client = client
        self._options = options

    def __getattr__(self, name: str) -> Any:
        """Pass any attribute nowline does not name through to the wrapped client."""
        if name in ("_client", "_options"):
            raise AttributeError(name)
        return getattr(self._client, name)

    @property
    def raw(self) -> A:
        """The wrapped chromadb client."""
        return self._client

    tenant = _ClientAttribute("The tenant, as the wrapped client's.")
    database = _ClientAttribute("The database, as the wrapped client's.")


def _forward(name: str, coroutine: bool) -> Callable[..., Any]:
    """Return a method that calls the wrapped client's method of the same name."""
    if coroutine:

        async def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            return await getattr(self._client, name)(*args, **kwargs)

    else:

        def method(self: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            return getattr(self._client, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"Call the wrapped client's ``{name}``."
    return method


def forward_client_api(cls: type[Any], api: type, concrete: type) -> None:
    """Give ``cls`` every method of chromadb's client ``api`` that nowline does not define.

    Each is an explicit method that calls the wrapped client's (awaited where ``api``'s is a
    coroutine), so that the ABC is satisfied and no stub of ``api`` shadows the wrapped
    client's method; a static method is ``concrete``'s own.
    """
    for name in sorted(set(dir(api))):
        attr = getattr(api, name)
        if name.startswith("__") or name in cls.__dict__ or not callable(attr):
            continue
        if isinstance(inspect.getattr_static(api, name), staticmethod):
            setattr(cls, name, staticmethod(getattr(concrete, name)))
        else:
            setattr(cls, name, _forward(name, inspect.iscoroutinefunction(attr)))
    cls.__abstractmethods__ = frozenset()
