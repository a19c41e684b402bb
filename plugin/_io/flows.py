"""The read and write paths of a wrapped collection, shared by the sync and async facades.

Each path is a generator: it yields the Chroma operations it needs (:mod:`nowline._store`),
receives their results, and applies the pure rules of :mod:`nowline._validate`,
:mod:`nowline._links`, :mod:`nowline._assembly` and :mod:`nowline._freshness` in between. The
sync :class:`nowline.Collection` runs a path with blocking calls, the async one with
``await``; neither holds a copy of the rules.

A write lands whole or not at all: everything is validated and planned first, the caller's
records go to Chroma in one call, and only then do the registry and other records' links
change. If a process dies after that call, read-time checks already show the right lines and
``repair()`` stores the missing links (see the README's "Reliability").
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NoReturn, cast

from chromadb.api.types import DeleteResult, Where, WhereDocument

from .._rules import records as R
from .._rules.assembly import (
    HitState,
    hit_of,
    query_row,
    read_state,
    trips_of,
    with_not_covered,
)
from .._rules.guards import (
    Allowances,
    Holders,
    check_correction,
    check_reach,
    check_scope,
    missing_text,
    repeat_of,
    repeat_refusal,
    same_change,
    with_suggestions,
)
from .._rules.links import (
    Judged,
    WritePlan,
    WriteReach,
    batch_metadata,
    plan_write,
    reach_of,
    relink_patches,
    repair_plan,
    stored_links,
    write_reach,
)
from .._rules.prefilter import candidate_regex
from .._rules.records import CorrectionInfo, Record, Scoped, correction_info, record_of, scope_token
from .._rules.registry import PlannedRegistry, Registry
from .._rules.times import now
from .._rules.validate import (
    MAX_COUNT,
    InsertRequest,
    QueryRequest,
    insert_request,
    needs_total,
)
from .._rules.verbs import InsertArgs
from ..errors import AbsentString, InvalidCorrection, InvalidInput, Repeated, UnknownRecord
from ..models import (
    CURRENT,
    HISTORICAL,
    RETRACTED,
    TRANSITION,
    CorrectionChange,
    CorrectionSummary,
    Hit,
    Preview,
    Recall,
    RepairReport,
    Trip,
)
from ..render import strip_annotation
from . import journal as J
from .freshness import (
    Freshness,
    Shared,
    load_flow,
    marked_flow,
    marking_flow,
    observe,
    refresh_flow,
)
from .guards import (
    STRICT,
    absent_flow,
    anchored_proposal_flow,
    generic_flow,
    persons_flow,
    suggestions_flow,
    swapped_flow,
    unreached_flow,
)
from .guards import preview_flow as guards_preview_flow
from .mark import DONE
from .mark import state_of as mark_state
from .ops import (
    Count,
    Delete,
    DropEntries,
    Embed,
    Flow,
    Get,
    Lock,
    Modify,
    Query,
    ReadJournal,
    ReadMark,
    Work,
    Write,
)
from .reads import PAGE, read_all, read_by_ids, read_range, records_of

__all__ = [
    "Changes",
    "Core",
    "Repaired",
    "changes_flow",
    "check_flow",
    "correct_flow",
    "corrections_flow",
    "delete_flow",
    "drain_flow",
    "get_flow",
    "load",
    "modify_flow",
    "preview_flow",
    "query_flow",
    "recall_flow",
    "remember_flow",
    "repair_flow",
    "retract_flow",
    "stats_flow",
    "write_flow",
]


@dataclass
class Core:
    """What one wrapped collection knows and how it is configured (shared by its paths)."""

    registry: Registry
    fresh: Freshness
    scope_key: str | None
    legacy_key: str | None
    annotate: bool
    max_reach: float | int | None
    max_batch: int
    text_key: str | None = None
    shared: Shared | None = field(default=None, repr=False)

    def refresh(self, force: bool = False, *, now: bool = False) -> Flow[bool]:
        """Read the generation mark if due (``now``: at once) and catch up if it changed.

        See ``refresh_flow``.
        """
        return refresh_flow(
            self.fresh,
            self.registry,
            self.legacy_key,
            force=force,
            text_key=self.text_key,
            now_=now,
        )

    def verify(self, ids: Iterable[str]) -> Flow[bool]:
        """Before an operation uses these corrections: the one freshness check, bounded once.

        It is :meth:`refresh`: the mark is read if ``refresh_seconds`` has passed, and the
        registry catches up if the mark changed. Returns whether the registry changed (the
        caller recomputes what it shows).
        """
        return self.refresh()

    def marking(self, changed: Sequence[str] | None) -> Flow[Marking | None]:
        """Before a write's records change: its journal entry and a *writing* mark.

        ``changed`` names the corrections the write changes (none: no mark is written; None:
        too many to name, as in a repair, so other processes list them all).
        """
        if changed is not None and not changed:
            return None
        ids = None if changed is None else list(changed)
        return Marking((yield from marking_flow(self.fresh, ids)), ids)

    def marked(self, marking: Marking | None) -> Flow[None]:
        """After a write's records changed: its entry done, then a *done* mark."""
        if marking is not None:
            yield from marked_flow(self.fresh, marking.token, marking.changed, self.registry)


@dataclass(frozen=True)
class Marking:
    """A write between its writing mark and its done mark: the token and what it changes."""

    token: tuple[bool, str]
    changed: list[str] | None


def load(core: Core, snapshot: str | None = None, *, save: bool = True) -> Flow[None]:
    """Load the collection's corrections (the first wrapper of a collection in a process).

    A later wrapper of the same collection shares the registry (:func:`freshness.shared`)
    and only reads the mark.
    """
    shared = core.shared
    if shared is not None and shared.loaded:
        yield from core.refresh()
        return
    yield from load_flow(
        core.fresh, core.registry, core.legacy_key, snapshot, core.text_key, save=save
    )
    if shared is not None:
        shared.loaded = True


# ------------------------------------------------------------------------- reading


def _observe(core: Core, records: Iterable[Record], since: int) -> Flow[None]:
    """Take in what a read shows about corrections (``freshness.observe``), then refresh.

    ``since`` is the registry's version before the read began.
    """
    observe(core.registry, core.legacy_key, records, since)
    yield from core.refresh()


def _states(
    core: Core, records: Sequence[Record], as_of: float | None = None
) -> Flow[list[HitState]]:
    """Return the read-time verdicts of records, with every correction they show verified.

    The corrections a verdict would show (direct ones and every step of their chains) are
    read back by id first, so one deleted, edited or retracted elsewhere is never shown as it
    was; if the registry changed, the verdicts are computed again.
    """
    states: list[HitState] = []
    for _ in range(3):
        states, shown = yield Work(_verdicts, (records, core.registry, core.legacy_key, as_of))
        if not shown or not (yield from core.verify(shown)):
            return states
    return states


def _verdicts(
    records: Sequence[Record], registry: Registry, legacy_key: str | None, as_of: float | None
) -> tuple[list[HitState], set[str]]:
    """Return the verdicts of records and every correction they would show (CPU-bound)."""
    states = [read_state(r, registry, legacy_key, as_of) for r in records]
    shown: set[str] = set()
    for state in states:
        for cid in state.direct:
            shown |= registry.chain(cid, as_of)
    return states, shown


def _strip_rows(result: Mapping[str, Any]) -> dict[str, Any]:
    """Return a GetResult with nowline's keys removed from its metadatas."""
    out = dict(result)
    metas = result.get("metadatas")
    if metas is not None:
        out["metadatas"] = [R.user_metadata(m) for m in metas]
    return out


def get_flow(
    core: Core,
    ids: list[str] | None,
    where: Where | None,
    limit: int | None,
    offset: int | None,
    where_document: WhereDocument | None,
    include: list[str],
) -> Flow[dict[str, Any]]:
    """Read records as chromadb's ``get`` (paged past Chroma's row limit), keys removed."""
    since = core.registry.version
    result = yield from read_range(ids, where, limit, offset, where_document, include)
    if "metadatas" in include:
        yield from _observe(core, records_of(result, core.text_key), since)
    return _strip_rows(result)


def peek_flow(core: Core, limit: int) -> Flow[dict[str, Any]]:
    """Read the first records as chromadb's ``peek``, keys removed."""
    page = yield Get(limit=limit, include=("metadatas", "documents", "embeddings"))
    return _strip_rows(page)


def query_flow(core: Core, req: QueryRequest) -> Flow[dict[str, Any]]:
    """Query as chromadb's ``query``; a superseded hit carries its lines (``_assembly``)."""
    embeddings = req.embeddings
    if embeddings is None:
        embeddings, _ = yield Embed(req.record_set, is_query=True)
    include = list(req.include)
    wanted = tuple(dict.fromkeys([*include, "documents", "metadatas"]))
    since = core.registry.version
    result = yield Query(
        embeddings=embeddings,
        ids=req.ids,
        n_results=req.n_results,
        where=req.where,
        where_document=req.where_document,
        include=wanted,
    )
    rows = [
        [(record_of(i, d, m, core.text_key), d) for i, d, m in zip(ids, docs, metas, strict=True)]
        for ids, docs, metas in zip(
            result["ids"], result["documents"] or [], result["metadatas"] or [], strict=True
        )
    ]
    flat = [r for row in rows for r, _ in row]
    yield from _observe(core, flat, since)
    verdicts = iter((yield from _states(core, flat)))
    docs_out: list[list[Any]] = []
    metas_out: list[list[Any]] = []
    for row in rows:
        d_row: list[Any] = []
        m_row: list[Any] = []
        for record, document in row:
            state = next(verdicts)
            doc, meta = query_row(
                record, state, core.registry, core.annotate, core.text_key, document
            )
            d_row.append(doc)
            m_row.append(meta)
        docs_out.append(d_row)
        metas_out.append(m_row)
    out = dict(result)
    out["documents"] = docs_out if "documents" in include else None
    out["metadatas"] = metas_out if "metadatas" in include else None
    out["included"] = include
    return out


def recall_flow(
    core: Core,
    text: str,
    n_results: int,
    where: Where | None,
    where_document: WhereDocument | None,
    as_of: float | None,
    include_historical: bool,
    record_set: Any,
) -> Flow[Recall]:
    """Recall the memories closest to ``text`` as an evidence packet.

    With ``as_of``, records whose time is later are left out here rather than by a Chroma
    filter, so a record written around nowline (no stored time) takes part with its
    ``observed_at``. More neighbours are fetched until enough hits remain.
    """
    embeddings, _ = yield Embed(record_set, is_query=True)
    fetch = n_results
    while True:
        since = core.registry.version
        res = yield Query(
            embeddings=embeddings,
            ids=None,
            n_results=fetch,
            where=where,
            where_document=where_document,
            include=("documents", "metadatas", "distances"),
        )
        row = [
            (record_of(i, d, m, core.text_key), dist)
            for i, d, m, dist in zip(
                res["ids"][0],
                (res["documents"] or [[]])[0],
                (res["metadatas"] or [[]])[0],
                (res["distances"] or [[]])[0],
                strict=True,
            )
        ]
        yield from _observe(core, (r for r, _ in row), since)
        kept = [(r, d) for r, d in row if as_of is None or R.time_of(r.metadata) <= as_of]
        verdicts = yield from _states(core, [r for r, _ in kept], as_of)
        hits: list[Hit] = []
        for (record, distance), state in zip(kept, verdicts, strict=True):
            if not include_historical and state.role == HISTORICAL:
                continue
            hits.append(hit_of(record, distance, state, core.registry))
        # Chroma returns fewer than asked once the collection is exhausted.
        if len(hits) >= n_results or len(row) < fetch or fetch >= MAX_COUNT:
            shown = with_not_covered(hits[:n_results], core.registry)
            return Recall(query=text, as_of=as_of, hits=shown)
        fetch = min(fetch * 4, MAX_COUNT)


def hits_flow(core: Core, ids: Sequence[str], as_of: float | None) -> Flow[list[Hit]]:
    """Return the records with these ids as hits (no distance), in the order given."""
    since = core.registry.version
    found = yield from read_by_ids(ids, text_key=core.text_key)
    yield from _observe(core, found.values(), since)
    records = [found[rid] for rid in ids if rid in found]
    verdicts = yield from _states(core, records, as_of)
    hits = [
        hit_of(r, None, state, core.registry) for r, state in zip(records, verdicts, strict=True)
    ]
    return with_not_covered(hits, core.registry)


def check_flow(core: Core, text: str, metadata: Mapping[str, Any] | None) -> Flow[list[Trip]]:
    """Return the active corrections a text trips, after catching up if a refresh is due."""
    yield from core.refresh()
    scope = Scoped(metadata)
    trips: list[Trip] = yield Work(trips_of, (core.registry, text, scope))
    for _ in range(3):
        shown: set[str] = set()
        for trip in trips:
            shown |= core.registry.chain(trip.correction.id)
        if not shown or not (yield from core.verify(shown)):
            break
        trips = yield Work(trips_of, (core.registry, text, scope))
    return trips


def _written_scope(core: Core, metadata: Mapping[str, Any] | None) -> R.CorrectionScope:
    """Return the scope a correction written by this wrapper with ``metadata`` would have."""
    key = core.scope_key or core.legacy_key
    return None if key is None else (key, scope_token(metadata, key))


def preview_flow(
    core: Core,
    deprecates: Sequence[str],
    about: Sequence[str],
    metadata: Mapping[str, Any] | None,
    text: str | None = None,
    replaced_by: Sequence[str] | None = None,
    *,
    allow: Allowances = STRICT,
    max_reach: float | int | Literal["default"] | None = "default",
) -> Flow[Preview]:
    """Return the ids of the records a correction would reach, without writing anything.

    The result also says what ``correct()`` would do with the same ``allow`` and
    ``max_reach`` (``_io.guards.preview_flow``). With no ``deprecates``, the old values
    ``text`` states that name records are previewed, and ``Preview.deprecates`` names them:
    nowline proposes what to deprecate.
    """
    yield from core.refresh()
    body = text or ""
    given = replaced_by is not None
    info = CorrectionInfo(
        id="\x00preview",
        document=body,
        deprecates=tuple(deprecates),
        about=tuple(about),
        time=float("inf"),
        written=float("inf"),
        scope=_written_scope(core, metadata),
        replaced_by=tuple(replaced_by or ()) if given else R.new_values_of({}, body, deprecates),
        source=R.source_of(metadata),
    )

    def reach_of_probes(infos: Sequence[CorrectionInfo]) -> Flow[dict[str, list[Record]]]:
        return _reach(core, infos, exclude=())

    if not info.deprecates:
        proposed = yield from suggestions_flow(info, reach_of_probes)
        chosen = tuple(s for s, n in proposed if n > 0) or tuple(s for s, _ in proposed[:1])
        if not any(n > 0 for _, n in proposed) and not info.about:
            # a number or a first name is proposed with the text's word that narrows it
            anchored = yield from anchored_proposal_flow(info, reach_of_probes)
            if anchored is not None:
                chosen = (anchored[0],)
                info = info._replace(about=(anchored[1],))
        if not chosen:
            return Preview(refusal=_NOTHING_TO_PROPOSE)
        info = info._replace(deprecates=chosen)
        if not given:
            info = info._replace(replaced_by=R.new_values_of({}, body, chosen))
    reach = yield from _reach(core, [info], exclude=())
    preview = yield from guards_preview_flow(
        info,
        [r.id for r in reach[info.id]],
        reach_of_probes,
        text=text,
        max_reach=core.max_reach if max_reach == "default" else max_reach,
        allow=allow,
        holders=_holders(core.registry, info),
        given_new=given,
        text_key=core.text_key,
    )
    if not deprecates:  # proposed: the suggestions are what was proposed, and the rest
        preview.suggestions = [*proposed, *preview.suggestions]
    if preview.refusal is None:  # correct() would judge a repeat here, as it would write it
        standing = _standing(core.registry, info, timed=False, now=now())
        preview.repeat_of = None if standing is None else standing.id
    return preview


_NOTHING_TO_PROPOSE = (
    "No deprecated strings were given, and the text states no old value to propose: name the "
    "outdated strings as the memories write them."
)


def _holders(registry: Registry, info: CorrectionInfo) -> Holders:
    """Return the lookup of what the active corrections of ``info``'s scope hold as current.

    A value a later step of the chain deprecated is held by none: it is no longer current.
    """

    def holding(value: str) -> list[CorrectionInfo]:
        held = registry.holding(value, info.scope)
        return [h for h in held if not registry.changed_since(value, h)] if held else held

    return holding


# ------------------------------------------------------------------------- writing


def _reach(
    core: Core, infos: Sequence[CorrectionInfo], exclude: Iterable[str]
) -> Flow[dict[str, list[Record]]]:
    """Return, per correction, the stored records it would supersede.

    One Chroma read serves every correction (:func:`_candidates`); the matcher decides.
    """
    if not infos:
        return {}
    candidates = yield from _candidates(core, infos)
    found: dict[str, list[Record]] = yield Work(
        reach_of, (infos, candidates, core.registry, core.legacy_key, tuple(exclude))
    )
    return found


def _write_reach(core: Core, plan: WritePlan, exclude: Iterable[str]) -> Flow[WriteReach]:
    """Return whom a write's active corrections reach, with those records' verdicts after it.

    As :func:`_reach`, but each candidate is judged once, against the registry as it will be
    after the write (``links.write_reach``); :func:`_relink` reuses those verdicts.
    """
    if not plan.active:
        return WriteReach({})
    candidates = yield from _candidates(core, plan.active)
    args = (plan.put, plan.drop, candidates, core.registry, core.legacy_key, tuple(exclude))
    reach: WriteReach = yield Work(write_reach, args)
    return reach


def _candidates(core: Core, infos: Sequence[CorrectionInfo]) -> Flow[list[Record]]:
    """Read the records that may name a string of these corrections (a superset).

    A regex that cannot miss (``_prefilter``) narrows the candidates, in the corrections'
    scope when they share one.
    """
    where: Where | None = None
    scopes = {info.scope for info in infos}
    scope = next(iter(scopes))
    if len(scopes) == 1 and scope is not None:
        key, token = scope
        if isinstance(token, tuple) and len(token) == 2 and token[0] != "list":
            value = token[1]
            if isinstance(value, (str, int, float, bool)):
                where = cast(Where, {key: value})
    phrases = [R.match_form(p) for info in infos for p in info.deprecates]
    # Chroma filters documents only: in a text_key store every record of the scope is read.
    prefilter = None if core.text_key else {"$regex": candidate_regex(phrases)}
    candidates: list[Record] = yield from read_all(
        where=where, where_document=prefilter, text_key=core.text_key
    )
    return candidates


def _update_metadatas(core: Core, ids: list[str], metas: list[dict[str, Any]]) -> Flow[None]:
    """Merge metadata patches into stored records, in batches the store accepts."""
    step = core.max_batch
    for i in range(0, len(ids), step):
        yield Write("update", ids=ids[i : i + step], metadatas=metas[i : i + step])


def _linked(metas: Iterable[Mapping[str, Any] | None], own: Iterable[str] = ()) -> set[str]:
    """Return the corrections that metadata patches link to, less those being written."""
    skip = set(own)
    return {cid for m in metas for cid in stored_links(m) if cid not in skip}


def _relink(
    core: Core,
    correction_ids: Iterable[str],
    reached: Iterable[Record] = (),
    keep: Iterable[str] = (),
    judged: Judged | None = None,
) -> Flow[None]:
    """Store what the registry says now as the links of the records these corrections held.

    ``reached`` adds records a write's new corrections reach. Every record gets one patch,
    computed from the registry after the change (never from links read before it), so a
    call that drops one correction and adds another leaves no stale link behind; ``judged``
    holds verdicts already computed for that registry (a write's reach), used while the
    registry is at their version. Every correction a patch links to is read back by id first
    (verify on use).
    """
    touched: dict[str, Record] = {}
    for cid in dict.fromkeys(correction_ids):
        held = yield from read_all(
            where=cast(Where, {R.BY: {"$contains": cid}}), text_key=core.text_key
        )
        touched.update((r.id, r) for r in held)
    for record in reached:
        touched.setdefault(record.id, record)
    args = (list(touched.values()), core.registry, core.legacy_key, tuple(keep), judged)
    ids, metas = yield Work(relink_patches, args)
    for _ in range(3):
        if not (yield from core.verify(_linked(metas))):
            break
        ids, metas = yield Work(relink_patches, args)
    yield from _update_metadatas(core, ids, metas)


PLAIN = Allowances()
"""What a plain ``add``/``upsert``/``update`` of a correction accepts: one that reaches nothing."""


@dataclass(frozen=True)
class Refused:
    """A write the guards refused: the correction, and the error to raise (suggestions added)."""

    info: CorrectionInfo
    error: InvalidCorrection


Prepared = tuple[WritePlan, list[dict[str, Any] | None], dict[str, tuple[str, ...]]]
"""A planned write: the plan, every record's metadata, and the people each correction names."""


def _prepare_write(
    req: InsertRequest,
    known: Mapping[str, Record],
    registry: Registry,
    scope_key: str | None,
    legacy_key: str | None,
    stamps: Sequence[float],
    allow: Allowances,
    text_key: str | None = None,
) -> Prepared | Refused:
    """Plan a write, apply the correction guards, and compute every record's metadata.

    Pure and CPU-bound (a matcher scan per record), so the async collection runs it off the
    event loop. A guard's refusal comes back as :class:`Refused`, before anything is stored.
    The people each correction names without an anchor come back too: the write path counts
    what they reach before it refuses them.
    """
    plan = plan_write(
        req.op,
        req.ids,
        req.metadatas,
        req.texts(text_key),
        known,
        registry,
        scope_key,
        stamps,
        legacy_key,
    )
    persons: dict[str, tuple[str, ...]] = {}
    earlier: list[CorrectionInfo] = []  # new corrections of this call, for a repeat among them
    told_at = max(stamps, default=0.0)  # the write's time: an untimed correction is told then
    for info in plan.put:
        old = known.get(info.id)
        before = correction_info(old, legacy_key) if old is not None else None
        # A string is judged when it is set; editing an accepted correction's text, scope or
        # time does not ask again.
        same = before is not None and (before.deprecates, before.about) == (
            info.deprecates,
            info.about,
        )
        given = next(r for r in plan.records if r.id == info.id).metadata or {}
        given_new = R.REPLACED_BY in given
        if text_key is None and not info.document.strip():
            unread = missing_text(given, info.deprecates)  # its text is in metadata (mem0)
            if unread is not None:
                return Refused(info, unread)
        try:
            # Its strings and text as stored (a write that only changes other metadata): none
            # of them is being set, so none is judged (the text of a correction stored around
            # nowline may not name its strings; re-sending it as it is must not be refused).
            if not (same and before is not None and before.document == info.document):
                persons[info.id] = check_correction(
                    info,
                    replace(allow, generic=allow.generic or same, person=allow.person or same),
                    given_new=given_new,
                    holders=None if same else _holders(registry, info),
                )
            check_scope(info, scope_key, registry.scope_keys())
        except InvalidCorrection as exc:
            return Refused(info, exc)
        edited = old is not None and (
            before is None or _told(before) != _told(info)  # it now tells something else
        )
        if (old is None or edited) and info.retracted is None:  # does it tell one again?
            timed = given.get(R.OBSERVED_AT) is not None
            twin = next(
                (e for e in earlier if same_change(info, e, timed=timed, now=told_at)), None
            )
            if twin is not None:
                return Refused(info, repeat_refusal(info, twin, in_write=True))
            standing = _standing(registry, info, timed=timed, now=told_at)
            if standing is not None:
                return Refused(info, repeat_refusal(info, standing))
            earlier.append(info)
    view = PlannedRegistry(registry, plan.put, plan.drop)
    final = batch_metadata(req.op, plan, known, req.metadatas, view, legacy_key, changed=0.0)
    return plan, final, persons


def _standing(
    registry: Registry, info: CorrectionInfo, *, timed: bool, now: float
) -> CorrectionInfo | None:
    """Return the standing correction of the registry that ``info`` repeats, or None."""
    return repeat_of(
        info,
        registry.stating(info),
        newest=registry.newest,
        revived=registry.revived,
        timed=timed,
        now=now,
    )


def _told(info: CorrectionInfo) -> tuple[Any, ...]:
    """Return what a correction tells, as a repeat compares it (an edit of any is judged)."""
    return (info.document, info.deprecates, info.about, info.replaced_by, info.source, info.scope)


def _refuse(core: Core, refused: Refused) -> Flow[NoReturn]:
    """Raise a refusal with its suggestions: the strings to deprecate instead, with reach.

    A repeat is raised as it is: its way forward is the standing correction.
    """
    if isinstance(refused.error, Repeated):
        raise refused.error

    def reach(infos: Sequence[CorrectionInfo]) -> Flow[dict[str, list[Record]]]:
        return _reach(core, infos, exclude=())

    error = yield from generic_flow(refused.info, refused.error, reach)
    error = yield from swapped_flow(refused.info, error, reach)
    if isinstance(error, AbsentString):
        # None: the store names each string as written, and correct_flow accepts them
        other = yield from absent_flow(refused.info, error, reach)
        if other is None:
            error.named = True
        error = other or error
    if not error.suggestions:
        extra = [s for s, _ in getattr(error, "near_misses", [])]
        found = yield from suggestions_flow(refused.info, reach, extra)
        error = with_suggestions(error, found)
    raise error


def _documents_as_stored(
    req: InsertRequest, known: Mapping[str, Record], text_key: str | None = None
) -> InsertRequest:
    """Return the request with texts that came back annotated stored as they were.

    Only where that is certain: a text equal to the stored one as nowline shows it (its
    label-like lines quoted, nowline's lines beneath it) is nowline's rendering of that very
    record, and is stored unchanged. Any other text is stored exactly as given. The text is
    the document, or ``metadata[text_key]`` in a ``text_key`` store.
    """
    if text_key is not None and req.metadatas is not None and known:
        metas = [
            {**m, text_key: strip_annotation(m[text_key], stored.document)}
            if m is not None
            and isinstance(m.get(text_key), str)
            and (stored := known.get(rid)) is not None
            and stored.document
            else m
            for rid, m in zip(req.ids, req.metadatas, strict=True)
        ]
        return req if metas == req.metadatas else req.with_metadatas(metas)
    if req.documents is None or not known:
        return req
    docs = [
        strip_annotation(d, stored.document)
        if isinstance(d, str) and (stored := known.get(rid)) is not None and stored.document
        else d
        for rid, d in zip(req.ids, req.documents, strict=True)
    ]
    return req if docs == list(req.documents) else req.with_documents(docs)


def write_flow(
    core: Core,
    req: InsertRequest,
    *,
    allow: Allowances = PLAIN,
    max_reach: float | int | Literal["default"] | None = "default",
) -> Flow[dict[str, int]]:
    """Validate, plan, link and write records; then propagate new corrections.

    Returns how many records each written correction reaches. ``allow`` says what the
    writer accepts that the guards would refuse (``correct()`` accepts nothing by default; a
    plain ``add`` accepts a correction that reaches nothing). A refusal carries the strings
    to deprecate instead, with their reach, and nothing is written.
    """
    yield from core.refresh()
    metas = req.metadatas
    corrections_in_batch = metas is not None and any(R.is_correction(m) for m in metas)
    touches_known = any(rid in core.registry for rid in req.ids)
    known: dict[str, Record] = {}
    if req.op != "add" or corrections_in_batch or touches_known:
        known = yield from read_by_ids(req.ids, text_key=core.text_key)
    req = _documents_as_stored(req, known, core.text_key)
    stamps = R.write_stamps(now(), len(req.ids))
    args = (req, known, core.registry, core.scope_key, core.legacy_key, stamps, allow)
    prepared = yield Work(_prepare_write, (*args, core.text_key))
    for _ in range(3):
        # Verify on use: every correction this write links to is read back by id first, and
        # so is the standing correction a repeat is refused for (or answered with).
        if isinstance(prepared, Refused):
            error = prepared.error
            if (
                not isinstance(error, Repeated)
                or error.standing not in core.registry  # a twin within this write
                or (yield from _still_standing(core, error.standing))
            ):
                break
        elif not (yield from core.verify(_linked(prepared[1], (i.id for i in prepared[0].put)))):
            break
        prepared = yield Work(_prepare_write, (*args, core.text_key))
    if isinstance(prepared, Refused):
        yield from _refuse(core, prepared)
    assert not isinstance(prepared, Refused)
    plan, final, persons = prepared

    def reach_of_probes(infos: Sequence[CorrectionInfo]) -> Flow[dict[str, list[Record]]]:
        return _reach(core, infos, exclude=())

    active = plan.active
    planned = yield from _write_reach(core, plan, exclude=plan.landing)
    reach = planned.found
    if active:
        own = _own_links(req.ids, final, plan.landing)
        counts = {info.id: len(reach[info.id]) + own[info.id] for info in active}
        setting = core.max_reach if max_reach == "default" else max_reach
        total = (yield Count()) if needs_total(setting, counts.values()) else 0
        for info in active:
            try:
                yield from persons_flow(info, persons.get(info.id, ()), reach_of_probes)
                if setting is not None:
                    check_reach(info, counts[info.id], setting, total)
                if not allow.unreached:
                    yield from unreached_flow([info], counts, reach_of_probes, core.text_key)
            except InvalidCorrection as exc:
                yield from _refuse(core, Refused(info, exc))
    # Every guard has passed: now embed, and write the caller's records in one call.
    embeddings = req.embeddings
    embedded, final = yield Embed(
        req.record_set if req.needs_embedding else None,
        fields=req.embed_fields,
        metadatas=final,
        documents=req.documents,
    )
    if req.needs_embedding:
        embeddings = embedded
    yield Lock()
    token = yield from core.marking([*(i.id for i in plan.put), *plan.drop])
    started = now()
    for m in final:
        if m and R.CHANGED in m:
            m[R.CHANGED] = started
    yield Write(
        req.op,
        ids=req.ids,
        embeddings=embeddings,
        metadatas=final if any(m is not None for m in final) else None,
        documents=req.documents,
        uris=req.uris,
    )
    # The write landed: the registry and the links of other records follow. A correction
    # that held a string of an older one as new (a rename back) revives it: the older one's
    # records are linked anew when the reviver comes, changes or goes.
    was_reviving = _revived_by(core.registry, _infos(core, (*plan.relink, *plan.drop)))
    new = _new_corrections(core, plan, known)
    judged = planned.judged(*core.registry.apply(plan.put, plan.drop))
    now_reviving = _revived_by(core.registry, plan.put)
    yield from core.marked(token)
    regained = yield from _regained(core, [c for c in was_reviving if c not in now_reviving])
    yield from _relink(
        core,
        [c for c in (*plan.relink, *plan.drop, *now_reviving) if c not in new],
        reached=(r for records in (*reach.values(), regained) for r in records),
        keep=plan.landing,
        judged=judged,
    )
    own = _own_links(req.ids, final, plan.landing)
    return {info.id: len(reach.get(info.id, ())) + own[info.id] for info in plan.put}


def _new_corrections(core: Core, plan: WritePlan, known: Mapping[str, Record]) -> set[str]:
    """Return the corrections a write puts that neither the registry nor the store held.

    No stored record links to such an id yet, bar this write's own (its reach is relinked
    anyway), so :func:`_relink` need not read the records that hold it: a correction that a
    new one revives in the same write (a rename and its rename back) is one. Call it before
    the registry takes the write in. An id deleted around nowline may still be in stale
    links; the write of a new correction never read those, and ``repair()`` clears them.
    """
    return {i.id for i in plan.put if i.id not in known and i.id not in core.registry}


def _revived_by(registry: Registry, infos: Iterable[CorrectionInfo]) -> list[str]:
    """Return the corrections these revive a string of (rename backs), without repeats."""
    return list(dict.fromkeys(c for info in infos for c in registry.revived_by(info)))


def _regained(core: Core, correction_ids: Sequence[str]) -> Flow[list[Record]]:
    """Return the records these corrections reach again, now that nothing revives them."""
    infos = [i for i in (core.registry.get(c) for c in correction_ids) if i is not None]
    if not infos:
        return []
    reach = yield from _reach(core, infos, exclude=())
    return [r for records in reach.values() for r in records]


def _unused_id(rid: str, given: bool) -> Flow[str]:
    """Return a new record's id: a given one must not name a stored record (else raise)."""
    if given:
        got = yield Get(ids=[rid], include=())
        if got["ids"]:
            raise InvalidInput(
                f"A record with id {rid!r} already exists (chromadb would ignore this add); "
                "change it with update() or upsert(), or give another id."
            )
    return rid


def remember_flow(
    core: Core, text: str, rid: str, metadata: dict[str, Any], *, given: bool
) -> Flow[str]:
    """Store one memory (``remember()``); return its id."""
    new = yield from _unused_id(rid, given)
    records = InsertArgs([new], metadatas=[metadata] if metadata else None, documents=[text])
    req = insert_request("add", records, max_batch=1)
    yield from write_flow(core, req)
    return new


@dataclass(frozen=True)
class Repaired:
    """What ``correct()`` repaired instead of refusing (:func:`correct_flow`).

    Attributes:
        absent: deprecated strings its text does not name, accepted because the store names
            each of them as written (:func:`~nowline._rules.guards.absent_forgiven`).
        standing: the correction it repeats (:class:`~nowline.errors.Repeated`), whose id
            and reach ``correct()`` returns: nothing was written. None when it was stored.
    """

    absent: tuple[str, ...] = ()
    standing: str | None = None


def correct_flow(
    core: Core,
    text: str,
    rid: str,
    metadata: dict[str, Any],
    *,
    given: bool,
    allow: Allowances,
    max_reach: float | int | Literal["default"] | None,
) -> Flow[tuple[str, dict[str, int], Repaired]]:
    """Store one correction (``correct()``).

    Returns its id, what each write reached, and what was repaired instead of refused: the
    absent strings accepted (:class:`Repaired`). The repair is tried once, after the refusal
    it answers; any other refusal stands. A correction that repeats one that stands
    (:class:`~nowline.errors.Repeated`) writes nothing: the standing one's id and reach are
    returned.
    """
    new = yield from _unused_id(rid, given)
    repaired = Repaired()
    while True:
        req = insert_request(
            "add", InsertArgs([new], metadatas=[metadata], documents=[text]), max_batch=1
        )
        try:
            reached = yield from write_flow(core, req, allow=allow, max_reach=max_reach)
        except Repeated as exc:  # it stands (write_flow read it back): answer with it
            linked = yield from read_all(
                where=cast(Where, {R.BY: {"$contains": exc.standing}}), include=()
            )
            return exc.standing, {exc.standing: len(linked)}, Repaired(standing=exc.standing)
        except AbsentString as exc:
            if allow.absent or not exc.named:  # named: counted once, by the refusal's flow
                raise
            allow = replace(allow, absent=True)
            repaired = replace(repaired, absent=tuple(exc.absent))
            continue
        return new, reached, repaired


def _still_standing(core: Core, standing: str) -> Flow[bool]:
    """Return whether the correction a repeat would be answered with stands in the store.

    The registry may lag another process (a retract, a delete, a newer correction). So the
    generation mark is read now (and, where it moved, the journal's changes taken in), and
    the correction itself read back by id (a delete around nowline moves no mark): where
    either shows a change, the registry takes it in and False is returned (the write is
    judged again).
    """
    changed = yield from core.refresh(now=True)
    got = yield from read_by_ids([standing], text_key=core.text_key)
    record = got.get(standing)
    info = correction_info(record, core.legacy_key) if record is not None else None
    held = core.registry.get(standing)
    if info is None:
        core.registry.drop(standing)
        return False
    if held is None or info._replace(marked=held.marked) != held:
        core.registry.put(info)
        return False
    return not changed


def drain_flow() -> Flow[None]:
    """Delete every record of a collection, a page at a time (before the collection goes).

    chromadb 1.5.9 keeps the list-valued metadata of a deleted collection's records and
    attaches it to records of a collection created later (chroma-core/chroma#7594), so a stale
    ``deprecates`` would turn a new memory into a correction. Deleting the records first
    clears it, as record deletion cleans list values up. Every surface that deletes a
    collection (the sync and async clients, the LangChain store) runs this one flow.
    """
    yield Lock()
    while ids := (yield Get(limit=PAGE, include=()))["ids"]:
        yield Delete(ids=ids)


def modify_flow(name: str | None, metadata: Any, configuration: Any) -> Flow[None]:
    """Change the collection's name, metadata or configuration (a write: the lock first)."""
    yield Lock()
    yield Modify(name=name, metadata=metadata, configuration=configuration)


def _own_links(
    ids: list[str], final: list[dict[str, Any] | None], landing: set[str]
) -> Counter[str]:
    """Count, per correction, the records of this write that link to it (one pass)."""
    return Counter(
        cid for rid, m in zip(ids, final, strict=True) if rid in landing for cid in stored_links(m)
    )


def delete_flow(
    core: Core,
    ids: list[str] | None,
    where: Where | None,
    where_document: WhereDocument | None,
    limit: int | None,
) -> Flow[DeleteResult]:
    """Delete records as chromadb's ``delete``; a deleted correction is unlinked after."""
    yield from core.refresh()
    doomed = yield Get(
        ids=ids, where=where, where_document=where_document, limit=limit, include=("metadatas",)
    )
    corrections = [r.id for r in records_of(doomed) if R.is_correction(r.metadata)]
    corrections += [i for i in doomed["ids"] if i in core.registry and i not in corrections]
    yield Lock()
    token = yield from core.marking(corrections)
    result = yield Delete(ids=ids, where=where, where_document=where_document, limit=limit)
    reviving = _revived_by(core.registry, _infos(core, corrections))
    for cid in corrections:
        core.registry.drop(cid)
    yield from core.marked(token)
    regained = yield from _regained(core, [c for c in reviving if c not in corrections])
    yield from _relink(core, corrections, reached=regained)
    return cast(DeleteResult, result)


def _infos(core: Core, correction_ids: Iterable[str]) -> list[CorrectionInfo]:
    """Return the corrections with these ids that the registry holds."""
    return [i for i in (core.registry.get(c) for c in correction_ids) if i is not None]


def retract_flow(core: Core, correction_id: str) -> Flow[bool]:
    """Retract a correction; return False when it was already retracted."""
    got = yield from read_by_ids([correction_id], text_key=core.text_key)
    record = got.get(correction_id)
    if record is None:
        raise UnknownRecord(f"No record has id {correction_id!r}; nothing was retracted.")
    if not R.is_correction(record.metadata):
        raise InvalidInput(
            f"Record {correction_id!r} is not a correction (it has no deprecates); only "
            "corrections can be retracted."
        )
    if R.is_retracted(record.metadata):
        yield from core.verify([correction_id])
        return False
    yield Lock()
    token = yield from core.marking([correction_id])
    when = now()
    yield Write(
        "update",
        ids=[correction_id],
        metadatas=[
            {
                R.RETRACTED: when,
                R.CHANGED: when,
                R.ROLE: RETRACTED,
                R.BY: None,
                R.CORRECTION: True,
            }
        ],
    )
    info = correction_info(record, core.legacy_key)
    reviving = _revived_by(core.registry, _infos(core, [correction_id]))
    if info is not None:
        core.registry.put(info._replace(retracted=when, marked=True))
    yield from core.marked(token)
    # The strings it revived (a rename back) are outdated again: their corrections reach anew.
    regained = yield from _regained(core, reviving)
    yield from _relink(core, [correction_id], reached=regained)
    return True


def repair_flow(core: Core) -> Flow[RepairReport]:
    """Rebuild every link from the documents and store what differs.

    It also marks every correction written around nowline (``nowline_correction``), so that
    every process's listing finds it from then on. It writes a fresh generation mark, and every
    process catches up with what it found, where it stores anything, where the corrections it
    lists differ from what this process held (an edit made around nowline), or where the
    store's mark is not a *done* one (a writing mark left by a writer that died mid-write, or
    none), or where the change journal holds entries still *writing*, which it then deletes.
    A repair that finds nothing of the kind writes nothing at all, so it needs no writer lock
    (a local store held by another writer process can still be checked).
    """
    start = time.perf_counter()
    mark = yield ReadMark()
    stale = J.writing((yield ReadJournal()))
    records = yield from read_all(text_key=core.text_key)
    infos = yield Work(R.correction_infos, (records, core.legacy_key))
    held = {i.id: i for i in core.registry.infos()}
    core.registry.replace_all(infos)
    plan = yield Work(repair_plan, (records, core.registry, core.legacy_key, now()))
    news = held != {i.id: i for i in infos}
    if plan.ids or news or stale or mark_state(mark) != DONE:
        yield Lock()
        token = yield from core.marking(None)  # every process lists (a reset)
        if plan.ids:
            yield from _update_metadatas(core, plan.ids, plan.metas)
        yield from core.marked(token)
        if stale:  # entries left writing by writers that died: their reset is this one
            yield DropEntries(stale)
    return RepairReport(
        records=len(records),
        corrections=len(infos),
        updated=len(plan.ids),
        links_added=plan.links_added,
        links_removed=plan.links_removed,
        seconds=time.perf_counter() - start,
    )


Changes = tuple[list[CorrectionChange], dict[str, CorrectionInfo]]
"""One step of ``changes()``: the changes since the baseline, and the new baseline."""


def changes_flow(core: Core, baseline: Mapping[str, CorrectionInfo] | None) -> Flow[Changes]:
    """Catch up as a read would; return the changes since ``baseline`` and the new baseline.

    With no baseline, nothing is reported: the registry as it is becomes the baseline.
    """
    yield from core.refresh()
    held = core.registry.held()
    if baseline is None:
        return [], held
    when = now()
    out: list[CorrectionChange] = []
    for cid in sorted(set(baseline) | set(held), key=lambda i: (core.registry.order_of(i), i)):
        was, is_ = baseline.get(cid), held.get(cid)
        if was is None and is_ is not None:
            out.append(CorrectionChange(id=cid, kind="added", time=when))
        elif is_ is None:
            out.append(CorrectionChange(id=cid, kind="deleted", time=when))
        elif was is not None and was.retracted is None and is_.retracted is not None:
            out.append(CorrectionChange(id=cid, kind="retracted", time=when))
        elif was is not None and was._replace(marked=is_.marked) != is_:
            out.append(CorrectionChange(id=cid, kind="edited", time=when))
    return out, held


# ------------------------------------------------------------------- summaries


def corrections_flow(core: Core) -> Flow[list[CorrectionSummary]]:
    """List every correction, oldest first, with its status, reach and newest successor.

    A listing reads the store: the corrections are listed in full (and those the registry
    found around nowline read back by id), so what it shows is the store's now.
    """
    yield from core.refresh(force=True)
    yield from core.verify(i.id for i in core.registry.infos())
    linked = yield from read_all(
        where=cast(Where, {R.ROLE: {"$in": [HISTORICAL, RETRACTED]}}), include=("metadatas",)
    )
    reach: dict[str, int] = {}
    for record in linked:
        for cid in stored_links(record.metadata):
            reach[cid] = reach.get(cid, 0) + 1
    out = []
    for info in core.registry.infos():
        out.append(
            CorrectionSummary(
                id=info.id,
                document=info.document,
                deprecates=list(info.deprecates),
                about=list(info.about),
                replaced_by=list(info.replaced_by),
                time=info.time,
                status="active" if info.retracted is None else "retracted",
                retracted=info.retracted,
                reach=reach.get(info.id, 0),
                newest=core.registry.newest(info.id) if info.retracted is None else None,
                source=info.source,
                source_url=info.source_url,
            )
        )
    return out


def stats_flow(core: Core) -> Flow[dict[str, int]]:
    """Count the records of each role, as the stored links show it once verified.

    ``transition`` and ``retracted`` are the stored roles. A record stored as historical
    counts as historical while one of the corrections it links to is an active correction of
    the store (each read back by id); a record whose every link names a correction deleted or
    retracted around nowline counts as current, as a read would show it (``repair()`` stores
    that). ``current`` is every other record.
    """
    total = yield Count()
    counts: dict[str, int] = {}
    for role in (TRANSITION, RETRACTED):
        rows = yield from read_all(where=cast(Where, {R.ROLE: role}), include=())
        counts[role] = len(rows)
    historical = yield from read_all(
        where=cast(Where, {R.ROLE: HISTORICAL}), include=("metadatas",)
    )
    links = {r.id: stored_links(r.metadata) for r in historical}
    yield from core.verify(cid for ids in links.values() for cid in ids)
    counts[HISTORICAL] = sum(
        1 for ids in links.values() if any(core.registry.is_active(c) for c in ids)
    )
    counts[CURRENT] = total - sum(counts.values())
    counts["records"] = total
    return counts
