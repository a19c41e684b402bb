"""The Chroma operations nowline's read and write paths ask for: a sans-I/O protocol.

nowline's rules never call Chroma. The read and write paths (:mod:`nowline._flows`) are
generators that *yield* the operations defined here and receive their results; a driver
(:mod:`nowline._store`) carries them out, with blocking calls or with ``await``. A test can
drive a flow against a scripted store, as httpx's ``MockTransport`` lets its tests do.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from chromadb.api.types import Where, WhereDocument

__all__ = [
    "Background",
    "Count",
    "Delete",
    "DropEntries",
    "Embed",
    "Flow",
    "Get",
    "Lock",
    "Modify",
    "Op",
    "Query",
    "ReadJournal",
    "ReadMark",
    "Work",
    "Write",
    "WriteEntry",
    "WriteMark",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _Selection:
    """Which records an operation reads or deletes, as chromadb's ``get`` and ``delete`` say it."""

    ids: list[str] | None = None
    where: Where | None = None
    where_document: WhereDocument | None = None
    limit: int | None = None


@dataclass(frozen=True, slots=True)
class Get(_Selection):
    """Read the selected records (chromadb's ``_get``); the result is the raw GetResult."""

    offset: int | None = None
    include: tuple[str, ...] = ("documents", "metadatas")


@dataclass(frozen=True, slots=True)
class Count:
    """Count the records; the result is an int."""


@dataclass(frozen=True, slots=True)
class Query:
    """Nearest neighbours of query embeddings; the result is the raw QueryResult."""

    embeddings: Any
    ids: list[str] | None
    n_results: int
    where: Where | None
    where_document: WhereDocument | None
    include: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Write:
    """One add, upsert or update call; nothing is returned.

    ``metadatas`` are patches: in update and upsert a key set to None is removed.
    """

    op: Literal["add", "upsert", "update"]
    ids: list[str]
    embeddings: Any = None
    metadatas: list[Any] | None = None
    documents: list[Any] | None = None
    uris: list[Any] | None = None


@dataclass(frozen=True, slots=True)
class Delete(_Selection):
    """Delete the selected records; the result is chromadb's DeleteResult."""


@dataclass(frozen=True, slots=True)
class Modify:
    """Change the collection's name, metadata or configuration."""

    name: str | None = None
    metadata: Any = None
    configuration: Any = None


@dataclass(frozen=True, slots=True)
class Embed:
    """Embed a record set with the collection's embedding function (CPU-heavy).

    The result is ``(embeddings, metadatas)``: chromadb's embeddings and the metadatas with any
    sparse embeddings a schema asks for.
    """

    record_set: Any
    fields: frozenset[str] | None = None
    is_query: bool = False
    metadatas: list[Any] | None = None
    documents: list[Any] | None = None


@dataclass(frozen=True, slots=True)
class Work:
    """Run a pure, CPU-heavy function (a matcher scan of many records) and return its result."""

    fn: Callable[..., Any]
    args: tuple[Any, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Background:
    """Start a pure, CPU-heavy function in a daemon thread and go on at once.

    The function must not need the flow's result, and whatever waits for it must not need a
    lock it holds. If no thread can be started, it runs inline (so it always runs).
    """

    fn: Callable[[], None]


@dataclass(frozen=True, slots=True)
class ReadMark:
    """Read the store's generation mark (:mod:`nowline._io.mark`); the result is it, or None."""


@dataclass(frozen=True, slots=True)
class WriteMark:
    """Write a generation mark (the companion record, and a local store's file); no result."""

    value: str


@dataclass(frozen=True, slots=True)
class ReadJournal:
    """Read the change journal (:mod:`nowline._io.journal`); the result is it, or None."""


@dataclass(frozen=True, slots=True)
class WriteEntry:
    """Store one journal entry (a companion record); no result."""

    entry: Any  # journal.Entry


@dataclass(frozen=True, slots=True)
class DropEntries:
    """Delete journal entries by id (a fold's parts); no result."""

    ids: list[str]


@dataclass(frozen=True, slots=True)
class Lock:
    """Before a write: become this local store's only writer process (no-op on a server)."""


Op = (
    Get
    | Count
    | Query
    | Write
    | Delete
    | Modify
    | Embed
    | Work
    | Background
    | Lock
    | ReadMark
    | WriteMark
    | ReadJournal
    | WriteEntry
    | DropEntries
)
"""Every operation a flow may yield."""

Flow = Generator[Op, Any, T]
"""A read or write path: yields operations, receives their results, returns ``T``."""
