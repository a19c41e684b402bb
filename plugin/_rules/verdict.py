"""A record's verdict: inert or not, the corrections that supersede it directly, its role.

One home for the write side (the links a write stores, ``repair()``), the read side (what a hit
shows) and reach (whom a new correction would supersede): each asks :func:`verdict` of a
record, so none of them can count a retracted correction's links, or a correction's place in
time, differently from the others.

* A retracted correction is **inert**: it holds no links and shows no lines; its role is
  ``retracted``.
* Otherwise a record is superseded directly by every active correction whose deprecated
  string (and anchor) occurs in its text, in its scope, and that is not newer than the record
  when the record is a correction itself (:meth:`nowline._rules.registry.Registry.direct`).
* Its role follows (:func:`nowline._rules.records.role_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..matchers import Match
from ..models import Role
from . import records as R
from .records import CorrectionInfo, Order, Record, Scoped

__all__ = ["Corrections", "Verdict", "direct_of", "is_inert", "order_of", "verdict"]


class Corrections(Protocol):
    """What the verdict needs of a registry (the registry, or one as it will be after a write)."""

    def get(self, correction_id: str) -> CorrectionInfo | None:
        """Return the correction with this id, or None."""

    def direct(
        self,
        text: str,
        *,
        record_id: str,
        scope: Scoped,
        order: Order | None,
        as_of: float | None = None,
    ) -> dict[str, list[Match[str]]]:
        """Return the active corrections that supersede a text directly, with occurrences."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the rules say of one record.

    Attributes:
        role: its role.
        direct: the ids of the corrections that supersede it directly (unordered).
        inert: it is a retracted correction: it holds no links.
    """

    role: Role
    direct: frozenset[str]
    inert: bool = False


def is_inert(record: Record, known: Corrections) -> bool:
    """Return whether a record is a retracted correction (stored so, or as ``known`` has it)."""
    if not R.is_correction(record.metadata):
        return False
    info = known.get(record.id)
    return R.is_retracted(record.metadata) or (info is not None and info.retracted is not None)


def order_of(record: Record, known: Corrections) -> Order | None:
    """Return a record's place among corrections if it is one (as ``known`` has it), else None."""
    if not R.is_correction(record.metadata):
        return None
    info = known.get(record.id)
    return info.order if info is not None else R.order_of(record.id, record.metadata)


def direct_of(
    record: Record,
    known: Corrections,
    legacy_key: str | None,
    *,
    by: Corrections | None = None,
    as_of: float | None = None,
) -> dict[str, list[Match[str]]]:
    """Return the corrections of ``by`` (default ``known``) that supersede a record directly.

    ``known`` is what the caller knows of the record itself (whether it is a retracted
    correction, its order); ``by`` holds the corrections asked about, so that reach asks a
    write's new corrections of a record the registry knows. An inert record has none. With
    ``as_of``, corrections whose time is later are left out.
    """
    if is_inert(record, known):
        return {}
    return (by or known).direct(
        record.document or "",
        record_id=record.id,
        scope=Scoped.of_record(record.metadata, legacy_key),
        order=order_of(record, known),
        as_of=as_of,
    )


def verdict(
    record: Record, known: Corrections, legacy_key: str | None, as_of: float | None = None
) -> Verdict:
    """Return a record's verdict: inert or not, its direct corrections, its role (at ``as_of``)."""
    inert = is_inert(record, known)
    direct = frozenset(direct_of(record, known, legacy_key, as_of=as_of))
    role = R.role_of(R.is_correction(record.metadata), inert, bool(direct))
    return Verdict(role=role, direct=direct, inert=inert)
