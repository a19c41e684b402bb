"""Write-time linking: what a write changes, whom a correction reaches, and the stored links.

The links are the ids of the corrections that supersede a record (``nowline_by``) and its
stored role (``nowline_role``), kept in the record's metadata so that ``where`` filters can use
them and nothing depends on process memory. Every function here is pure: records and the
registry in, a plan or metadata patches out. The write path (:mod:`nowline._flows`) reads and
writes Chroma around them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from . import records as R
from .records import CorrectionInfo, Record, correction_info
from .registry import PlannedRegistry, Registry
from .verdict import Verdict, direct_of, verdict

__all__ = [
    "Judged",
    "RepairPlan",
    "WritePlan",
    "WriteReach",
    "batch_metadata",
    "plan_write",
    "reach_of",
    "relink_patches",
    "repair_plan",
    "stored_links",
    "write_reach",
]

Op = Literal["add", "upsert", "update"]


def stored_links(meta: Mapping[str, Any] | None) -> list[str]:
    """Return a record's stored links."""
    value = (meta or {}).get(R.BY)
    return [b for b in value if isinstance(b, str)] if isinstance(value, list) else []


# ------------------------------------------------------------------------- a write


@dataclass
class WritePlan:
    """What a write of records changes.

    Attributes:
        records: every record as it will be after the write, in the caller's order.
        landing: the ids whose write lands (chromadb ignores an ``add`` of an existing id and
            an ``update`` of a missing one).
        put: corrections that are new or changed (their text, strings, anchors, scope or time).
        drop: records that stop being corrections.
        relink: corrections that existed before and changed: their old links are recomputed.
    """

    records: list[Record]
    landing: set[str]
    put: list[CorrectionInfo] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)
    relink: list[str] = field(default_factory=list)

    @property
    def active(self) -> list[CorrectionInfo]:
        """Return the put corrections that are not retracted (they need their reach)."""
        return [info for info in self.put if info.retracted is None]


def plan_write(
    op: Op,
    ids: Sequence[str],
    user_metas: Sequence[Mapping[str, Any] | None] | None,
    documents: Sequence[str | None] | None,
    known: Mapping[str, Record],
    registry: Registry,
    scope_key: str | None,
    stamps: Sequence[float],
    legacy_key: str | None = None,
) -> WritePlan:
    """Return the plan of a write: the records after it and the corrections it changes.

    Args:
        op: ``add``, ``upsert`` or ``update``.
        ids: the records' ids.
        user_metas: the caller's metadata patches (None values remove keys), or None.
        documents: the documents to store, or None to keep the stored ones.
        known: the stored records among ``ids``.
        registry: the corrections as this process knows them.
        scope_key: the writer's scope key: a new correction carries it (and its own value
            for it); an edited correction keeps the key it had, if any.
        stamps: one write stamp per record (see ``_records.write_stamps``).
        legacy_key: the collection's scope key from nowline 0.1, if any.
    """
    records: list[Record] = []
    landing: set[str] = set()
    plan = WritePlan(records=records, landing=landing)
    for i, rid in enumerate(ids):
        old = known.get(rid)
        doc = documents[i] if documents is not None else None
        user = user_metas[i] if user_metas is not None else None
        if (op == "add" and old is not None) or (op == "update" and old is None):
            records.append(old if old is not None else Record(rid, doc, user))
            continue
        record = R.merge(rid, old, user, doc, stamps[i])
        if R.is_correction(record.metadata):
            # nowline marks every correction it writes (a listing finds it). A new correction
            # takes the writer's scope key, if it has one; an edit keeps the key the
            # correction has: the scope travels with the correction, not with its editor.
            marks: dict[str, Any] = {R.CORRECTION: True}
            new = old is None or not R.is_correction(old.metadata)
            if scope_key is not None and new:
                marks[R.SCOPE_KEY] = scope_key
            merged = R.with_new_values({**(record.metadata or {}), **marks}, record.document or "")
            record = Record(rid, record.document, merged)
        records.append(record)
        landing.add(rid)
        info = correction_info(record, legacy_key)
        was = registry.get(rid)
        if info is not None:
            if was is not None and was.retracted is not None and info.retracted is None:
                info = _keep_retracted(info, was.retracted)
            if was is None or _identity(was) != _identity(info):
                plan.put.append(info)
                if was is not None or (old is not None and R.is_correction(old.metadata)):
                    plan.relink.append(rid)
        elif was is not None or (old is not None and R.is_correction(old.metadata)):
            plan.drop.append(rid)
    return plan


def _keep_retracted(info: CorrectionInfo, when: float) -> CorrectionInfo:
    """Return ``info`` still retracted: a retracted correction stays inert whatever is edited."""
    return info._replace(retracted=when)


def _identity(info: CorrectionInfo) -> tuple[Any, ...]:
    """Return what makes a correction's links: a change to any of it relinks.

    Its new values count: a correction whose new value another one deprecates revives it.
    """
    return (
        info.document,
        info.deprecates,
        info.about,
        info.replaced_by,
        info.scope,
        info.order,
        info.retracted,
    )


def batch_metadata(
    op: Op,
    plan: WritePlan,
    known: Mapping[str, Record],
    user_metas: Sequence[Mapping[str, Any] | None] | None,
    view: PlannedRegistry,
    legacy_key: str | None,
    changed: float,
) -> list[dict[str, Any] | None]:
    """Return the metadata to send for each record: the caller's keys plus nowline's.

    In ``add`` (or for a new record) a dict without None values; in ``update`` and ``upsert``
    a patch in which None removes a key. ``changed`` stamps the corrections that change.
    """
    put = {info.id for info in plan.put}
    dropped = set(plan.drop)
    out: list[dict[str, Any] | None] = []
    for i, record in enumerate(plan.records):
        if record.id not in plan.landing:
            out.append(dict(user_metas[i] or {}) if user_metas is not None else None)
            continue
        meta = record.metadata or {}
        old = known.get(record.id)
        old_meta = (old.metadata or {}) if old is not None else {}
        patch: dict[str, Any] = dict(user_metas[i] or {}) if user_metas is not None else {}
        if R.is_correction(meta):
            patch[R.DEPRECATES] = list(R.stored_phrases(meta[R.DEPRECATES]) or ())
            for key in (R.ABOUT, R.REPLACED_BY):
                if meta.get(key) is not None:
                    patch[key] = list(R.stored_phrases(meta[key]) or ()) or None
            patch[R.NEW] = meta.get(R.NEW)
        patch[R.TIME] = meta[R.TIME]
        if meta.get(R.WRITTEN) is not None:
            patch[R.WRITTEN] = meta[R.WRITTEN]
        judged = verdict(record, view, legacy_key)
        patch[R.ROLE] = R.role_value(judged.role)
        patch[R.BY] = sorted(judged.direct) if judged.direct else None
        if R.is_correction(meta):
            patch[R.CORRECTION] = True
            patch[R.SCOPE_KEY] = meta.get(R.SCOPE_KEY)
            if record.id in put or old_meta.get(R.CORRECTION) is not True:
                patch[R.CHANGED] = changed
        elif record.id in dropped:
            patch[R.CORRECTION] = False
            patch[R.CHANGED] = changed
            patch[R.RETRACTED] = None
            patch[R.SCOPE_KEY] = None
            patch[R.NEW] = None
        if op == "add" or old is None:
            patch = {k: v for k, v in patch.items() if v is not None}
        else:
            # Do not send deletions of keys the record never had.
            patch = {k: v for k, v in patch.items() if v is not None or k in old_meta}
        out.append(patch or None)
    return out


def reach_of(
    infos: Sequence[CorrectionInfo],
    candidates: Iterable[Record],
    registry: Registry,
    legacy_key: str | None,
    exclude: Iterable[str] = (),
) -> dict[str, list[Record]]:
    """Return, per correction, the stored records among ``candidates`` it supersedes.

    The same rule as read time: a deprecated string and the anchor (if any) occur, the
    record is another record in the same scope, and not a correction newer than this one.
    """
    skip = set(exclude)
    own = Registry(infos)
    found: dict[str, list[Record]] = {info.id: [] for info in infos}
    for record in candidates:
        if record.id in skip or record.document is None:
            continue
        for cid in direct_of(record, registry, legacy_key, by=own):
            found[cid].append(record)
    return found


@dataclass(frozen=True)
class Judged:
    """Verdicts of records, each the rules' answer while the registry is at ``version``.

    Attributes:
        version: the :attr:`Registry.version` the verdicts hold at.
        verdicts: by record id, the record as it was judged and its verdict.
    """

    version: int
    verdicts: Mapping[str, tuple[Record, Verdict]]


@dataclass(frozen=True)
class WriteReach:
    """Whom a write's corrections reach, and the verdicts of those records after the write.

    Attributes:
        found: per active correction the write puts, the stored records it will supersede.
        verdicts: by record id, every record in ``found`` and its verdict once the write has
            landed.
        planned_at: the registry's version they were computed over (a
            :class:`PlannedRegistry` of it); None if it changed while they were computed.
    """

    found: dict[str, list[Record]]
    verdicts: dict[str, tuple[Record, Verdict]] = field(default_factory=dict)
    planned_at: int | None = None

    def judged(self, before: int, after: int) -> Judged | None:
        """Return the verdicts for :func:`relink_patches` once the write is in the registry.

        ``before`` and ``after`` are the registry's versions around the write's own changes
        (:meth:`Registry.apply`). Only a write applied to the version the verdicts were
        planned over makes the registry what they were judged against.
        """
        if self.planned_at is None or self.planned_at != before:
            return None
        return Judged(after, self.verdicts)


def write_reach(
    put: Sequence[CorrectionInfo],
    drop: Sequence[str],
    candidates: Iterable[Record],
    registry: Registry,
    legacy_key: str | None,
    exclude: Iterable[str] = (),
) -> WriteReach:
    """Return whom a write's active corrections reach, each record judged once.

    A candidate that one of them supersedes gets its whole verdict against the registry as
    it will be once the write has put ``put`` and dropped ``drop`` (:class:`PlannedRegistry`;
    a candidate they do not reach is not scanned for the registry's other corrections). That
    verdict is also the record's links after the write, which :func:`relink_patches` reuses
    while the registry is as planned (:meth:`WriteReach.judged`). Reach is thus exactly what
    the write will link: the rule of :func:`reach_of`, with the revivals by the registry's
    other corrections as well.
    """
    found: dict[str, list[Record]] = {info.id: [] for info in put if info.retracted is None}
    if not found:
        return WriteReach(found)
    skip = set(exclude)
    # The base's corrections are scanned for only where the write's own reach the record.
    view = PlannedRegistry(registry, put, drop).reaching()
    verdicts: dict[str, tuple[Record, Verdict]] = {}
    since = registry.version
    for record in candidates:
        if record.id in skip or record.document is None:
            continue
        judged = verdict(record, view, legacy_key)
        reached = [cid for cid in judged.direct if cid in found]
        if reached:
            for cid in reached:
                found[cid].append(record)
            verdicts[record.id] = (record, judged)
    return WriteReach(found, verdicts, since if registry.version == since else None)


def relink_patches(
    records: Iterable[Record],
    registry: Registry,
    legacy_key: str | None,
    keep: Iterable[str] = (),
    judged: Judged | None = None,
) -> tuple[list[str], list[dict[str, Any]]]:
    """Return patches that set the links of ``records`` to what the registry says now.

    Used, after a write, retraction or deletion, for the records that the changed corrections
    held and the records that new corrections reach: links are recomputed, never added to
    links read before the change. A record that ``judged`` holds a verdict of is not judged
    again: where it is that very record (not one read since) and the registry is still at
    ``judged.version``.
    """
    skip = set(keep)
    known = judged.verdicts if judged is not None and judged.version == registry.version else {}
    ids: list[str] = []
    metas: list[dict[str, Any]] = []
    for record in records:
        if record.id in skip:
            continue
        pair = known.get(record.id)
        ruling = pair[1] if pair is not None and pair[0] is record else None
        if ruling is None:
            ruling = verdict(record, registry, legacy_key)
        ids.append(record.id)
        metas.append({R.BY: sorted(ruling.direct) or None, R.ROLE: R.role_value(ruling.role)})
    return ids, metas


@dataclass
class RepairPlan:
    """What ``repair()`` will store: patches, and the counts it reports."""

    ids: list[str] = field(default_factory=list)
    metas: list[dict[str, Any]] = field(default_factory=list)
    links_added: int = 0
    links_removed: int = 0


def repair_plan(
    records: Iterable[Record], registry: Registry, legacy_key: str | None, changed: float
) -> RepairPlan:
    """Return the patches that make every record's stored links what the rules say."""
    plan = RepairPlan()
    for record in records:
        meta = record.metadata or {}
        judged = verdict(record, registry, legacy_key)
        links = set(judged.direct)
        stored = stored_links(meta)
        role = R.role_value(judged.role)
        patch: dict[str, Any] = {}
        if sorted(stored) != sorted(links) or len(set(stored)) != len(stored):
            patch[R.BY] = sorted(links) or None
            plan.links_added += len(links - set(stored))
            plan.links_removed += len(set(stored) - links)
        if meta.get(R.ROLE) != role:
            patch[R.ROLE] = role
        if R.is_correction(meta):
            if meta.get(R.CORRECTION) is not True:
                patch[R.CORRECTION] = True
                patch[R.CHANGED] = changed
            if not R.new_values_stored(meta, record.document or ""):
                patch[R.NEW] = R.with_new_values(meta, record.document or "")[R.NEW]
        elif meta.get(R.CORRECTION) is True:
            patch[R.CORRECTION] = False
            patch[R.CHANGED] = changed
        if not isinstance(meta.get(R.TIME), (int, float)) or isinstance(meta.get(R.TIME), bool):
            patch[R.TIME] = R.time_of(meta)
        if patch:
            plan.ids.append(record.id)
            plan.metas.append(patch)
    return plan
