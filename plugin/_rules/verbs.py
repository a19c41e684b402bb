"""The parameters of the public verbs, declared once for the sync and async wrappers.

chromadb writes each verb's parameter list out in ``Collection``, ``AsyncCollection``,
``Client`` and ``AsyncClient``, and nowline would write it a third time in the step that
prepares the call. Here each list is one frozen dataclass instead, and :func:`takes` gives a
method that list: callers pass the arguments as to chromadb (positionally or by keyword, with
chromadb's defaults), type checkers and ``help()`` see the same signature, and the method
receives one object that it hands to its prepare step (:mod:`nowline._facade`). A parameter
added to a verb is added here, once, and both wrappers take it.

Only the lists that take more than a line are declared here; a verb of one or two
parameters (``peek``, ``retract``, ``check``) keeps its signature where it is defined.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar, cast

from chromadb.api.types import (
    ID,
    URI,
    Document,
    Embedding,
    Image,
    Include,
    Metadata,
    OneOrMany,
    PyEmbedding,
    Where,
    WhereDocument,
)

__all__ = [
    "CorrectArgs",
    "DeleteArgs",
    "EmbeddingsArg",
    "GetArgs",
    "InsertArgs",
    "PreviewArgs",
    "QueryArgs",
    "RecallArgs",
    "RememberArgs",
    "as_kwargs",
    "call_as",
    "signature_with",
    "takes",
]

P = ParamSpec("P")
A = TypeVar("A")
S = TypeVar("S")
R = TypeVar("R")

EmbeddingsArg = OneOrMany[Embedding] | OneOrMany[PyEmbedding]
"""The embeddings chromadb's ``add``, ``upsert``, ``update`` and ``query`` accept."""


def takes(args: Callable[P, A]) -> Callable[[Callable[[S, A], R]], Callable[Concatenate[S, P], R]]:
    """Give the decorated method the parameters of ``args`` (one of the classes here).

    The method is written as ``def verb(self, call: Args)``; callers call ``verb(...)`` with
    the parameters of ``Args`` and the method receives them as one ``Args``. The method made
    here declares those parameters itself (its source is generated, as a dataclass's
    ``__init__`` is), so Python binds the arguments when it is called: a wrong argument raises
    Python's own ``TypeError`` at the call, also for a coroutine function, which stays one.
    """

    def decorate(fn: Callable[[S, A], R]) -> Callable[Concatenate[S, P], R]:
        signature = signature_with(fn, args)
        method = _declared(fn, args, signature)
        functools.update_wrapper(method, fn)
        del method.__wrapped__  # the signature is the declared one, not ``fn``'s
        method.__annotations__ = {
            **{p.name: p.annotation for p in signature.parameters.values()},
            "return": signature.return_annotation,
        }
        method.__signature__ = signature
        return cast(Callable[Concatenate[S, P], R], method)

    return decorate


def _declared(fn: Callable[..., Any], build: Any, signature: inspect.Signature) -> Any:
    """Return a function with ``signature`` that calls ``fn(self, build(<its arguments>))``."""
    params = list(signature.parameters.values())
    namespace: dict[str, Any] = {"_fn": fn, "_build": build}
    declared: list[str] = []
    passed: list[str] = []
    for p in params:
        if p.kind is inspect.Parameter.KEYWORD_ONLY and "*" not in declared:
            declared.append("*")
        if p.default is inspect.Parameter.empty:
            declared.append(p.name)
        else:
            namespace[f"_default_{p.name}"] = p.default
            declared.append(f"{p.name}=_default_{p.name}")
        keyword = p.kind is inspect.Parameter.KEYWORD_ONLY
        passed.append(f"{p.name}={p.name}" if keyword else p.name)
    coroutine = inspect.iscoroutinefunction(fn)
    call = f"_fn({passed[0]}, _build({', '.join(passed[1:])}))"
    source = (
        f"{'async ' if coroutine else ''}def {fn.__name__}({', '.join(declared)}):\n"
        f"    return {'await ' if coroutine else ''}{call}\n"
    )
    exec(source, namespace)  # the names and defaults are those of this module's classes
    return namespace[fn.__name__]


def call_as(name: str, build: Callable[P, A], /, *args: P.args, **kwargs: P.kwargs) -> A:
    """Return ``build(*args, **kwargs)``; an argument error names ``name()`` instead of it.

    ``build`` is a class (``Options``, for :func:`nowline.wrap`); a plain ``TypeError`` from
    its constructor is Python's own binding error, renamed for ``name``, the function the
    caller called. nowline's own errors (``InvalidInput``, ...) pass unchanged.
    """
    try:
        return build(*args, **kwargs)
    except TypeError as exc:
        if type(exc) is not TypeError:  # one of nowline's errors: not a binding error
            raise
        owner = getattr(build, "__qualname__", "")
        raise TypeError(str(exc).replace(f"{owner}.__init__()", f"{name}()")) from None


def signature_with(fn: Callable[..., Any], build: Any) -> inspect.Signature:
    """Return ``fn``'s signature with its first parameter followed by ``build``'s parameters.

    ``build`` is a class: one of the dataclasses here (a list default such as ``include``'s is
    shown as its value, as chromadb shows it) or another class whose constructor declares
    the parameters (``Options``, for :func:`nowline.wrap`).
    """
    own = inspect.signature(fn)
    factories = {}
    if dataclasses.is_dataclass(build):
        factories = {
            f.name: f.default_factory
            for f in dataclasses.fields(build)
            if f.default_factory is not dataclasses.MISSING
        }
    given = [
        p.replace(default=factories[p.name]()) if p.name in factories else p
        for p in inspect.signature(build).parameters.values()
    ]
    return own.replace(parameters=[next(iter(own.parameters.values())), *given])


def as_kwargs(call: Any) -> dict[str, Any]:
    """Return a call's fields as keyword arguments (values as given, not copied)."""
    return {f.name: getattr(call, f.name) for f in dataclasses.fields(call)}


# ------------------------------------------------------------------- chromadb's verbs


@dataclass(frozen=True, slots=True)
class InsertArgs:
    """The records of chromadb's ``add``, ``upsert`` and ``update``."""

    ids: OneOrMany[ID]
    embeddings: EmbeddingsArg | None = None
    metadatas: OneOrMany[Metadata] | None = None
    documents: OneOrMany[Document] | None = None
    images: OneOrMany[Image] | None = None
    uris: OneOrMany[URI] | None = None


@dataclass(frozen=True, slots=True)
class DeleteArgs:
    """The selection of chromadb's ``delete``."""

    ids: list[ID] | None = None
    where: Where | None = None
    where_document: WhereDocument | None = None
    limit: int | None = None


@dataclass(frozen=True, slots=True)
class GetArgs:
    """The arguments of chromadb's ``get``, in its order."""

    ids: OneOrMany[ID] | None = None
    where: Where | None = None
    limit: int | None = None
    offset: int | None = None
    where_document: WhereDocument | None = None
    include: Include = field(default_factory=lambda: ["metadatas", "documents"])


@dataclass(frozen=True, slots=True)
class QueryArgs:
    """The arguments of chromadb's ``query``, in its order."""

    query_embeddings: EmbeddingsArg | None = None
    query_texts: OneOrMany[Document] | None = None
    query_images: OneOrMany[Image] | None = None
    query_uris: OneOrMany[URI] | None = None
    ids: OneOrMany[ID] | None = None
    n_results: int = 10
    where: Where | None = None
    where_document: WhereDocument | None = None
    include: Include = field(default_factory=lambda: ["metadatas", "documents", "distances"])


# -------------------------------------------------------------------- nowline's verbs


@dataclass(frozen=True, slots=True)
class RememberArgs:
    """The arguments of ``remember``."""

    text: str
    _: KW_ONLY
    id: str | None = None
    metadata: Mapping[str, Any] | None = None
    observed_at: str | float | int | None = None


@dataclass(frozen=True, slots=True)
class CorrectArgs:
    """The arguments of ``correct`` (documented on :meth:`nowline.Collection.correct`)."""

    text: str
    _: KW_ONLY
    deprecates: Sequence[str] | str
    about: Sequence[str] | str | None = None
    replaced_by: Sequence[str] | str | None = None
    id: str | None = None
    metadata: Mapping[str, Any] | None = None
    observed_at: str | float | int | None = None
    allow_absent: bool = False
    allow_generic: bool = False
    allow_person: bool = False
    max_reach: float | int | Literal["default"] | None = "default"
    allow_unreached: bool = False


@dataclass(frozen=True, slots=True)
class RecallArgs:
    """The arguments of ``recall`` (documented on :meth:`nowline.Collection.recall`)."""

    text: str
    _: KW_ONLY
    n_results: int = 5
    where: Where | None = None
    where_document: WhereDocument | None = None
    as_of: str | float | int | None = None
    include_historical: bool = True


@dataclass(frozen=True, slots=True)
class PreviewArgs:
    """The arguments of ``preview`` (documented on :meth:`nowline.Collection.preview`)."""

    deprecates: Sequence[str] | str | None = None
    _: KW_ONLY
    about: Sequence[str] | str | None = None
    metadata: Mapping[str, Any] | None = None
    text: str | None = None
    replaced_by: Sequence[str] | str | None = None
    allow_absent: bool = False
    allow_generic: bool = False
    allow_person: bool = False
    max_reach: float | int | Literal["default"] | None = "default"
    allow_unreached: bool = False
