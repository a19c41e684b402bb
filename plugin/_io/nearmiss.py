"""Near misses, as flows: a correction reaching nothing where the store names almost its string.

The rules (what a near miss is, the edit bound, the candidates of a text, the messages) are in
:mod:`nowline._rules.nearmiss`; these flows yield the reads they need: one ``Get`` per
deprecated string long enough for an edit distance, then one reach computation for every
candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from .._rules import records as R
from .._rules.nearmiss import (
    MAX_CANDIDATES,
    MAX_SUGGESTIONS,
    NearMiss,
    edit_bound,
    like_of,
    near_strings,
    pieces,
    text_candidates,
    unreached_message,
    unreached_summary,
)
from .._rules.prefilter import candidate_regex
from .._rules.records import CorrectionInfo, Record
from .._rules.validate import check_correction, check_reach
from ..errors import InvalidCorrection
from ..matchers import fold
from ..models import Preview
from .ops import Count, Flow, Get
from .reads import read_all

__all__ = ["ReachFn", "near_miss_flow", "preview_flow", "unreached_check_flow"]

ReachFn = Callable[[Sequence[CorrectionInfo]], Flow[dict[str, list[Record]]]]
"""Computes, per correction, the stored records it would reach (the write path's own rule)."""


def near_miss_flow(
    info: CorrectionInfo, reach: ReachFn, *, text: str | None, text_key: str | None = None
) -> Flow[list[NearMiss]]:
    """Return the near misses of a correction, most records first (at most MAX_SUGGESTIONS).

    Yields one ``Get`` per deprecated string long enough for an edit distance, then one
    reach computation for every candidate (the correction's anchors and scope apply). In a
    ``text_key`` store, whose texts Chroma cannot filter, every record's text is read once.
    """
    found: dict[str, tuple[str, Literal["edit", "text"], str]] = {}
    every: list[str] | None = None
    for phrase in info.deprecates:
        k = edit_bound(phrase)
        if k < 1:
            continue
        if text_key is not None:
            if every is None:
                records = yield from read_all(include=("documents",), text_key=text_key)
                every = [r.document for r in records if isinstance(r.document, str)]
            docs = every
        else:
            page = yield Get(
                where_document={"$regex": candidate_regex(pieces(phrase, k))},
                limit=MAX_CANDIDATES,
                include=("documents",),
            )
            docs = [d for d in page.get("documents") or [] if isinstance(d, str)]
        for key, string in near_strings(phrase, docs, k).items():
            found.setdefault(key, (string, "edit", phrase))
    if text:
        cands = text_candidates(text, info.deprecates, info.about, anchored=bool(info.about))
        for key, string in cands.items():
            found.setdefault(key, (string, "text", like_of(string, info.deprecates)))
    if not found:
        return []
    probes = [
        info._replace(id=f"\x00near{i}", deprecates=(string,), document="")
        for i, (string, _, _) in enumerate(found.values())
    ]
    reached = yield from reach(probes)
    out = []
    for probe, (string, source, of) in zip(probes, found.values(), strict=True):
        memories = [r for r in reached[probe.id] if not R.is_correction(r.metadata)]
        if memories:
            out.append(NearMiss(string, len(memories), source, of))
    out.sort(key=lambda m: (-m.count, m.source != "edit", fold(m.string)))
    return out[:MAX_SUGGESTIONS]


def unreached_check_flow(
    infos: Sequence[CorrectionInfo],
    reached: Mapping[str, int],
    reach: ReachFn,
    text_key: str | None = None,
) -> Flow[None]:
    """Refuse a correction that reaches no record while the store names a near miss.

    Args:
        infos: the corrections being written.
        reached: how many records each reaches (by id).
        reach: the write path's reach computation.
        text_key: the metadata key holding records' text, if not the document.

    Raises:
        Unreached: with the suggestions; nothing is written.
    """
    from ..errors import Unreached

    for info in infos:
        if reached.get(info.id, 0):
            continue
        near = yield from near_miss_flow(info, reach, text=info.document, text_key=text_key)
        if near:
            raise Unreached(
                unreached_message(info.deprecates, near),
                near_misses=[(m.string, m.count) for m in near],
                summary=unreached_summary(info.deprecates, near),
            )


def preview_flow(
    info: CorrectionInfo,
    ids: list[str],
    reach: ReachFn,
    *,
    text: str | None,
    max_reach: float | int | None,
    text_key: str | None = None,
) -> Flow[Preview]:
    """Return a preview: the ids reached, the near misses, and why ``correct()`` would refuse.

    ``refusal`` is the message of the first guard ``correct()`` (with its default keywords)
    would raise, in its order: the correction's strings and anchors (generic strings, absent
    strings when ``text`` is given), its reach against ``max_reach``, then near misses.
    """
    refusal: str | None = None
    named = info._replace(id="(preview)")
    try:
        check_correction(named, has_text=text is not None)
    except InvalidCorrection as exc:
        refusal = str(exc)
    if refusal is None and max_reach is not None:
        total = yield Count()
        try:
            check_reach(named, len(ids), max_reach, total)
        except InvalidCorrection as exc:
            refusal = str(exc)
    near: list[NearMiss] = []
    if not ids:
        near = yield from near_miss_flow(info, reach, text=text, text_key=text_key)
    if refusal is None and near:
        refusal = unreached_message(info.deprecates, near)
    return Preview(ids, near_misses=[(m.string, m.count) for m in near], refusal=refusal)
