"""Paged reads of a Chroma collection, as flows: every bulk read nowline makes goes through here.

Chroma caps what one read may return (a single read of more than about 32k rows with
metadatas fails) and has no cursor. These flows yield :class:`nowline._ops.Get` operations
and return :class:`nowline._records.Record` values, whose text is the record's document, or
``metadata[text_key]`` in a store wrapped with ``text_key`` (:func:`nowline._records.text_of`).
In the ``include`` of these readers, ``"documents"`` means that text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from chromadb.api.types import Where, WhereDocument

from .._rules.records import Record, record_of
from .ops import Flow, Get

__all__ = ["PAGE", "TEXT", "read_all", "read_by_ids", "read_ids", "read_range", "records_of"]

PAGE = 5000
"""Rows per bulk read (a single Chroma read of more than about 32k rows with metadatas fails)."""

TEXT = ("documents", "metadatas")
"""What the readers fetch by default: each record's text and metadata."""


def _include(include: Sequence[str], text_key: str | None) -> tuple[str, ...]:
    """Return what to ask Chroma for: with ``text_key``, a record's text is in its metadata."""
    if text_key is None or "documents" not in include:
        return tuple(include)
    return tuple(dict.fromkeys("metadatas" if f == "documents" else f for f in include))


def records_of(page: Mapping[str, Any], text_key: str | None = None) -> list[Record]:
    """Return the records of a raw GetResult."""
    ids: list[str] = list(page["ids"])
    empty: list[Any] = [None] * len(ids)
    docs: list[Any] = list(page.get("documents") or empty)
    metas: list[Any] = list(page.get("metadatas") or empty)
    return [record_of(i, d, m, text_key) for i, d, m in zip(ids, docs, metas, strict=True)]


def read_all(
    where: Where | None = None,
    where_document: Any = None,
    include: Sequence[str] = TEXT,
    *,
    text_key: str | None = None,
) -> Flow[list[Record]]:
    """Read every matching record: the first page with the filter, any others by id.

    Chroma has no cursor: a read at an offset evaluates its filter again from the first row
    (a ``$regex`` reads every document). So past the first page, the remaining ids are read in
    one pass without their data, and their rows by id, in pages.
    """
    asked = _include(include, text_key)
    page = yield Get(
        where=where, where_document=where_document, limit=PAGE, offset=0, include=asked
    )
    out = records_of(page, text_key)
    if len(out) < PAGE:
        return out
    rest = yield Get(where=where, where_document=where_document, offset=PAGE, include=())
    seen = {r.id for r in out}
    ids = [i for i in dict.fromkeys(rest["ids"]) if i not in seen]
    found = yield from read_by_ids(ids, include, text_key=text_key)
    out += [found[i] for i in ids if i in found]
    return out


def read_ids(where: Where) -> Flow[list[str]]:
    """Return the ids of every matching record (no data: a membership listing's read)."""
    page = yield Get(where=where, limit=PAGE, offset=0, include=())
    ids: list[str] = list(page["ids"])
    if len(ids) < PAGE:
        return ids
    rest = yield Get(where=where, offset=PAGE, include=())
    seen = set(ids)
    return ids + [i for i in dict.fromkeys(rest["ids"]) if i not in seen]


def read_by_ids(
    ids: Iterable[str], include: Sequence[str] = TEXT, *, text_key: str | None = None
) -> Flow[dict[str, Record]]:
    """Read the stored records among ``ids`` (missing ids are left out), by id."""
    wanted = list(dict.fromkeys(ids))
    asked = _include(include, text_key)
    out: dict[str, Record] = {}
    for i in range(0, len(wanted), PAGE):
        page = yield Get(ids=wanted[i : i + PAGE], include=asked)
        out.update((r.id, r) for r in records_of(page, text_key))
    return out


def read_range(
    ids: list[str] | None,
    where: Where | None,
    limit: int | None,
    offset: int | None,
    where_document: WhereDocument | None,
    include: Sequence[str],
) -> Flow[dict[str, Any]]:
    """Read records as chromadb's ``get`` returns them, paged past Chroma's row limit.

    The first page sends ``limit`` and ``offset`` as given (a Chroma server refuses a bool,
    and nowline must refuse it the same way). The result is one raw GetResult.
    """
    start = 0 if offset is None else offset
    parts: list[Mapping[str, Any]] = []
    remaining = limit
    while True:
        size = PAGE if remaining is None else min(PAGE, remaining)
        page = yield Get(
            ids=ids,
            where=where,
            where_document=where_document,
            limit=size,
            offset=start,
            include=tuple(include),
        )
        parts.append(page)
        got = len(page["ids"])
        start += got
        if remaining is not None:
            remaining -= got
        if got < size or (remaining is not None and remaining <= 0):
            break
    return _concat(parts)


def _concat(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Join the pages of one read into one GetResult."""
    if len(parts) == 1:
        return dict(parts[0])
    out: dict[str, Any] = dict(parts[0])
    out["ids"] = [i for p in parts for i in p["ids"]]
    for key in ("embeddings", "documents", "uris", "metadatas"):
        if parts[0].get(key) is not None:
            out[key] = [v for p in parts for v in (p.get(key) or [])]
    return out
