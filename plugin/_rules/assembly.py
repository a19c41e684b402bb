"""Post-retrieval assembly: a hit's role, the corrections it shows, and how they are written.

Every surface that shows a recalled memory (``query()``, ``recall()``, LangChain, the tools, the
CLI and ``check()``) takes its verdict from here:

* :func:`read_state` decides a record's role and which corrections it shows: every correction
  that supersedes it **directly** (it names the memory's string), oldest first, and the
  **newest** correction of each of their chains. Chains are inferred from strings that occur
  in a correction's own text, which is weaker evidence, so a chain adds a line and never
  replaces the direct one.
* :func:`lines_of` turns that verdict into labelled lines by the one rule of
  :func:`nowline.render.correction_lines`. Forgery quoting of stored text lives there too.
* :func:`with_not_covered` labels the current hits of a result that name a longer name
  beginning like a shown correction's deprecated string (:func:`.uncovered.uncovered`); it
  changes no role.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..models import (
    CURRENT,
    HISTORICAL,
    RETRACTED,
    TRANSITION,
    CorrectionRef,
    Hit,
    NotCovered,
    Occurrence,
    Role,
    Trip,
)
from ..render import Line, Shown, annotate_document, correction_lines, sanitize
from . import records as R
from .records import Record, Scoped
from .registry import Registry
from .uncovered import uncovered
from .verdict import verdict

__all__ = [
    "HitState",
    "hit_of",
    "lines_of",
    "query_row",
    "read_state",
    "ref_of",
    "trip_metadata",
    "trips_of",
    "with_not_covered",
]


@dataclass(frozen=True, slots=True)
class HitState:
    """A record's read-time verdict.

    Attributes:
        role: its role.
        direct: the corrections that supersede it directly, oldest first.
        newest: the newest correction of each of their chains, oldest first.
    """

    role: Role
    direct: tuple[str, ...] = ()
    newest: tuple[str, ...] = ()

    @property
    def superseded(self) -> bool:
        """Return whether the record shows correction lines (it is historical)."""
        return bool(self.direct)


def read_state(
    record: Record, registry: Registry, legacy_key: str | None, as_of: float | None = None
) -> HitState:
    """Return a record's role and corrections as the registry knows them now (or at ``as_of``)."""
    judged = verdict(record, registry, legacy_key, as_of)
    if not judged.direct:
        return HitState(judged.role)
    newest = {registry.newest(c, as_of) for c in judged.direct}
    return HitState(
        judged.role, tuple(registry.sorted_ids(judged.direct)), tuple(registry.sorted_ids(newest))
    )


def lines_of(state: HitState, registry: Registry) -> list[Line]:
    """Return the labelled lines a hit shows (by :func:`nowline.render.correction_lines`)."""
    return correction_lines(
        state.role == RETRACTED, _texts(registry, state.direct), _texts(registry, state.newest)
    )


def _texts(registry: Registry, ids: Sequence[str]) -> list[Shown]:
    """Return (id, text, new values) of the corrections with these ids the registry holds."""
    return [
        (cid, info.document, info.replaced_by)
        for cid in ids
        if (info := registry.get(cid)) is not None
    ]


def ref_of(registry: Registry, correction_id: str) -> CorrectionRef | None:
    """Return the public view of a correction, or None if the registry does not hold it."""
    info = registry.get(correction_id)
    if info is None:
        return None
    return CorrectionRef(
        id=info.id,
        document=info.document,
        deprecates=list(info.deprecates),
        about=list(info.about),
        replaced_by=list(info.replaced_by),
        time=info.time,
        source=info.source,
        source_url=info.source_url,
    )


def _refs(registry: Registry, ids: Sequence[str]) -> list[CorrectionRef]:
    """Return the public views of the corrections with these ids (unknown ids skipped)."""
    return [ref for cid in ids if (ref := ref_of(registry, cid)) is not None]


def hit_of(record: Record, distance: float | None, state: HitState, registry: Registry) -> Hit:
    """Return one recalled record as an evidence-packet hit."""
    return Hit(
        id=record.id,
        document=record.document,
        metadata=R.user_metadata(record.metadata),
        distance=distance,
        role=state.role,
        now=_refs(registry, state.newest),
        direct=_refs(registry, state.direct),
    )


def with_not_covered(hits: Sequence[Hit], registry: Registry) -> list[Hit]:
    """Return the hits with ``not_covered`` set on each current hit the rule labels.

    The corrections a result shows are those beneath its stale hits (direct and newest) and
    the active corrections recalled as hits of their own; a current hit is labelled with the
    longer names it writes that begin like one of their deprecated strings
    (:func:`.uncovered.uncovered`). Corrections the result does not show label nothing: the
    reader cannot misapply what it is not shown. Roles are left as they are.
    """
    shown: dict[str, CorrectionRef] = {}
    for hit in hits:
        for ref in (*hit.direct, *hit.now):
            shown.setdefault(ref.id, ref)
        own = ref_of(registry, hit.id) if hit.role == TRANSITION else None
        if own is not None:
            shown.setdefault(own.id, own)
    if not shown:
        return list(hits)
    # a string with a host is found as its path (:func:`R.match_form`): so is a longer name,
    # and the label names the string as written
    written = {(c.id, R.match_form(d)): d for c in shown.values() for d in reversed(c.deprecates)}
    corrections = [
        (c.id, list(dict.fromkeys(R.match_form(d) for d in c.deprecates)), c.document)
        for c in shown.values()
    ]
    out = []
    for hit in hits:
        found = uncovered(hit.document or "", corrections) if hit.role == CURRENT else []
        labels = [
            NotCovered(
                name=u.name,
                deprecated=written.get((u.correction, u.deprecated), u.deprecated),
                correction=u.correction,
            )
            for u in found
        ]
        out.append(hit.model_copy(update={"not_covered": labels}) if labels else hit)
    return out


def query_row(
    record: Record,
    state: HitState,
    registry: Registry,
    annotate: bool,
    text_key: str | None = None,
    document: str | None = None,
) -> tuple[str | None, dict[str, Any] | None]:
    """Return a hit's document and metadata as ``query()`` returns them.

    A hit that no correction supersedes comes back as chromadb returns it (nowline's keys
    removed), except that a stored line that could pass for one of nowline's labels is quoted
    (:func:`nowline.render.sanitize`): the model is told to act on those labels, so no stored
    text may imitate one, in any hit. A superseded hit carries its correction lines in its
    text (unless ``annotate`` is off) and its role and correction ids in its metadata; a
    retracted correction carries its mark the same way.

    The text is the document, or ``metadata[text_key]`` in a ``text_key`` store; there the
    Chroma ``document`` (usually None) comes back sanitized and otherwise unchanged.
    """
    meta = R.user_metadata(record.metadata)
    marked = state.superseded or state.role == RETRACTED
    out: dict[str, Any] | None = meta
    if marked:
        out = dict(meta or {})
        out[R.ROLE] = state.role
        if state.superseded:
            out[R.BY] = list(state.direct)
            out[R.NOW] = list(state.newest)
    text = record.document
    if text is not None:
        if marked and annotate:
            text = annotate_document(text, lines_of(state, registry))
        else:
            text = sanitize(text)
    if text_key is None:
        return text, out
    if text is not None:
        out = {**(out or {}), text_key: text}
    return (sanitize(document) if document is not None else None), out


def trip_metadata(trips: Sequence[Trip]) -> dict[str, Any]:
    """Return the bookkeeping keys a text that trips corrections carries, as a stale hit does.

    Its role (historical), the corrections it names (``nowline_by``) and their newest
    (``nowline_now``): what ``query()`` puts in a superseded hit's metadata. For adapters that
    check a framework's own documents (LangChain's retriever).
    """
    return {
        R.ROLE: HISTORICAL,
        R.BY: sorted({t.correction.id for t in trips}),
        R.NOW: sorted({t.newest.id for t in trips}),
    }


def trips_of(
    registry: Registry, text: str, scope: Scoped, as_of: float | None = None
) -> list[Trip]:
    """Return the active corrections of ``scope`` that a text trips, first occurrence first.

    The text is checked as a plain memory of that scope: every active correction applies
    whose deprecated string (and anchor, if it has one) occurs in it.
    """
    found = registry.direct(text, record_id="", scope=scope, order=None, as_of=as_of)
    trips: list[Trip] = []
    for cid, matches in found.items():
        ref = ref_of(registry, cid)
        newest = ref_of(registry, registry.newest(cid, as_of))
        if ref is None or newest is None:
            continue
        occurrences = [Occurrence(phrase=m.phrase, start=m.start, end=m.end) for m in matches]
        occurrences.sort(key=lambda o: (o.start, o.end))
        trips.append(Trip(correction=ref, newest=newest, occurrences=occurrences))
    trips.sort(key=lambda t: (t.occurrences[0].start, t.correction.time, t.correction.id))
    return trips
