"""The guards of a correction that read the store: near misses, people, suggestions, preview.

The rules are in :mod:`nowline._rules.guards` and :mod:`nowline._rules.nearmiss`; these flows
yield the reads they need. Each reach they ask for is the write path's own rule
(:data:`ReachFn`), computed for *probes*: copies of the correction with one string, without
its anchor, or with a suggested string, under ids no record has.

* **Near misses** (:func:`near_miss_flow`, :func:`unreached_flow`): a correction that reaches
  nothing where the store names almost its string (a typo, or the old and new values swapped);
  one of several strings that reaches nothing while the others reach records; an anchor that
  makes the correction reach nothing where without it it would reach records.
* **People** (:func:`persons_flow`): a person's full name without an anchor is refused, and the
  message says which of the records it would reach also name the anchors the text suggests.
  A generic string's refusal counts its suggested anchors the same way
  (:func:`generic_flow`).
* **Suggestions** (:func:`suggestions_flow`): the strings to deprecate, read from the
  correction's wording and the store, each with its reach; every refusal of the write path
  carries them, and so does :func:`preview_flow`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Literal

from .._rules import records as R
from .._rules.generic import (
    is_generic,
    is_identifier,
    is_person_name,
    proper_noun_in,
    strip_edges,
)
from .._rules.guards import (
    Allowances,
    Holders,
    absent_forgiven,
    anchor_candidates,
    changed_back,
    check_correction,
    check_reach,
    count_records,
    generic_refusal,
    person_refusal,
    swapped_body_refusal,
)
from .._rules.kin import swapped_kin
from .._rules.links import stored_links
from .._rules.nearmiss import (
    MAX_CANDIDATES,
    MAX_SUGGESTIONS,
    NearMiss,
    absent_message,
    edit_bound,
    like_of,
    longest_parts,
    near_strings,
    other_version_named,
    parts,
    pieces,
    text_candidates,
    unreached_message,
    unreached_summary,
)
from .._rules.prefilter import candidate_regex
from .._rules.records import CorrectionInfo, Record
from .._rules.wording import old_values
from ..errors import AbsentString, GenericString, InvalidCorrection, NewValue, Unreached
from ..matchers import Matcher, fold
from ..models import Preview
from ..terms import active
from .ops import Count, Flow, Get
from .reads import read_all

__all__ = [
    "STRICT",
    "ReachFn",
    "absent_flow",
    "anchored_proposal_flow",
    "generic_flow",
    "near_miss_flow",
    "persons_flow",
    "preview_flow",
    "suggestions_flow",
    "swapped_flow",
    "unreached_flow",
]

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
    found: dict[str, tuple[str, Literal["edit", "text", "part"], str]] = {}
    every: list[str] | None = None
    for phrase in info.deprecates:
        # a string with a host already reaches its path wherever it names this value, so the
        # path alone would add other hosts' (a mirror's); typos are looked for in the path
        form = R.match_form(phrase)
        for part in parts(phrase, info.replaced_by):
            if form == phrase or fold(part) != fold(form):
                found.setdefault(fold(part), (part, "part", phrase))
        k = edit_bound(form)
        if k < 1:
            continue
        if text_key is not None:
            if every is None:
                records = yield from read_all(include=("documents",), text_key=text_key)
                every = [r.document for r in records if isinstance(r.document, str)]
            docs = every
        else:
            page = yield Get(
                where_document={"$regex": candidate_regex(pieces(form, k))},
                limit=MAX_CANDIDATES,
                include=("documents",),
            )
            docs = [d for d in page.get("documents") or [] if isinstance(d, str)]
        for string in near_strings(form, docs, k).values():
            # a window of the text may end in its punctuation ("acme/app." for "acme/app/")
            string = strip_edges(string) or string
            at = phrase.find(form) if form != phrase else -1
            if at >= 0:  # in the writer's spelling: https://github.com/acme/app2 for ...app-2
                string = phrase[:at] + string + phrase[at + len(form) :]
            found.setdefault(fold(string), (string, "edit", phrase))
    if text:
        cands = text_candidates(text, info.deprecates, info.about, anchored=bool(info.about))
        for key, string in cands.items():
            found.setdefault(key, (string, "text", like_of(string, info.deprecates)))
        # an identifier of the text of the sent string's kind, of another shape ("acme/app"
        # where the text calls "go.acme.dev/app" new): the old value, if the memories name it
        for string, of in swapped_kin(text, info.deprecates).items():
            found.setdefault(fold(string), (string, "text", of))
    if not found:
        return []
    probes = [
        info._replace(id=f"\x00near{i}", deprecates=(string,), document="")
        for i, (string, _, _) in enumerate(found.values())
    ]
    reached = yield from reach(probes)
    out = []
    for probe, (string, source, of) in zip(probes, found.values(), strict=True):
        memories = _memories(reached[probe.id])
        if source == "part" and other_version_named(string, (m.document or "" for m in memories)):
            continue  # com.acme:core of com.acme:core:3.0 would reach com.acme:core:3.5 too
        if memories:
            out.append(NearMiss(string, len(memories), source, of))
    # of the identifiers inside one deprecated string, the longest that name records
    named = [m.string for m in out if m.source == "part"]
    longest = set(longest_parts(named))
    out = [m for m in out if m.source != "part" or m.string in longest]
    # a near miss that holds one of them is it with more around it ("to Ruairí Ó Briain",
    # two edits from "Dr Ruairí Ó Briain"): the part says it
    inside = Matcher((p, p) for p in longest) if longest else None
    out = [m for m in out if m.source == "part" or inside is None or not inside.keys(m.string)]
    out.sort(key=lambda m: (-m.count, m.source != "edit", fold(m.string)))
    return out[:MAX_SUGGESTIONS]


STRICT = Allowances(unreached=False)
"""What ``correct()`` allows by default: nothing."""


def _probe(info: CorrectionInfo, tag: str, **changes: object) -> CorrectionInfo:
    """Return a copy of ``info`` under an id no record has, with ``changes`` applied."""
    return info._replace(id=f"\x00{tag}", **changes)  # type: ignore[arg-type]


def _memories(records: Sequence[Record]) -> list[Record]:
    """Return the records that are not corrections: what a correction would mark."""
    return [r for r in records if not R.is_correction(r.metadata)]


def _named_counts(words: Sequence[str], texts: Iterable[str]) -> dict[str, int]:
    """Return how many of ``texts`` name each of ``words`` (one automaton, one scan each).

    Linear in what is read, where a matcher per word made a long correction text quadratic.
    """
    matcher = Matcher((w, w) for w in words)
    counts = dict.fromkeys(words, 0)
    for text in texts:
        for word in matcher.keys(text):
            counts[word] += 1
    return counts


def _counted_anchors(
    info: CorrectionInfo,
    source: str,
    records: Sequence[Record],
    words: Sequence[str] | None = None,
    *,
    names_first: bool = False,
) -> list[tuple[str, int]]:
    """Return the anchor candidates of ``source``, each with how many ``records`` name it.

    The candidates of :func:`anchor_candidates` (role and subject words, not the deprecated
    strings or new values, nor a word inside a deprecated string, which would be dropped as
    an anchor), at most :data:`MAX_SUGGESTIONS`. Those that narrow come first (named by some
    of ``records`` but not all: "Harbor" where "API" is in every record of "600"), then the
    rest; each group most named first. An anchor is there to narrow: measured on the writer
    benchmark, a small model retried with the first suggestion, and a word every record names
    marked the unrelated ones too.

    With ``names_first`` (a number's or a first name's anchors), the proper nouns of
    ``source`` that records name come before all of these: what the value belongs to
    ("Tollgate" in "The Tollgate free trial is 45 days long now, up from 21 days", named by
    both memories of "21 days", before "free", named by one). Measured on the second blind
    writer set, the word that narrows left one of two stale memories unmarked there. Not for
    a person's full name, whose anchor is the role that changed, not the company.
    """
    if words is None:
        words = anchor_candidates(source, (*info.deprecates, *info.replaced_by))
    if not words:
        return []
    counts = _named_counts(words, (r.document or "" for r in records))
    inside = {w for w, n in _named_counts(words, info.deprecates).items() if n}
    counted = [(w, counts[w]) for w in words if w not in inside]
    names = {w for w, n in counted if n and names_first and proper_noun_in(w, source)}
    counted.sort(key=lambda c: (c[0] not in names, c[1] >= len(records), -c[1]))
    return counted[:MAX_SUGGESTIONS]


def _anchor_words(info: CorrectionInfo, records: Sequence[Record]) -> list[tuple[str, int]]:
    """Return the words of a correction's text and anchors that ``records`` name, with counts.

    What a writer whose anchor reaches nothing can anchor to instead ("Harbor" where it gave
    "Harbor API rate limit").
    """
    source = " ".join((info.document, *info.about))
    return [c for c in _counted_anchors(info, source, records) if c[1] > 0]


def _anchor_miss(
    info: CorrectionInfo,
    count: int,
    words: Sequence[tuple[str, int]] = (),
    alone: tuple[Sequence[str], int] | None = None,
) -> Unreached:
    """Return the refusal of an anchored correction that reaches nothing (``count`` without).

    ``alone``: the correction's identifiers and how many memories they reach by themselves,
    where it also deprecates a word ("onyx" beside "tallpine/onyx"): anchors beside
    identifiers are dropped, so the identifiers alone are the way forward (blind act case
    5021 sent ``deprecates=["tallpine/onyx", "onyx"], about=["team"]``).
    """
    terms = active()
    anchors = ", ".join(repr(a) for a in info.about)
    summary = (
        f"The correction would be shown beneath no memory: no record names "
        f"{', '.join(repr(p) for p in info.deprecates)} together with the anchor {anchors}, "
        f"while without the anchor {count_records(count)} name"
        f"{'s' if count == 1 else ''} it. An anchor is a word the outdated memories name "
        "(the role or subject that changed), not a word of the change itself."
    )
    if words:
        listed = ", ".join(f"{w!r} {n}" for w, n in words)
        summary += f" Of those {count}, these also name: {listed}."
    example = [words[0][0]] if words else ["..."]
    way = (
        " Give an anchor those memories name, or none"
        + f" ({terms.give('about', example) or 'about'})"
        + terms.or_switch("allow_unreached", "stores it as it is")
        + "."
    )
    if alone is not None:
        idents, reached = alone
        given = terms.give("deprecates", idents) or repr(list(idents))
        way = (
            f" An identifier names one thing wherever it is written, and needs no anchor: "
            f"{given} alone, without "
            f"{terms.name_of('about')}, would reach {count_records(reached)}." + way
        )
    return Unreached(
        summary + way + " Nothing was stored.",
        near_misses=[],
        summary=summary,
        anchors=list(info.about),
    )


def _identifiers_alone(
    info: CorrectionInfo, reach: ReachFn
) -> Flow[tuple[tuple[str, ...], int] | None]:
    """Return the correction's identifiers and their reach alone, where it mixes in words."""
    idents = tuple(p for p in info.deprecates if is_identifier(p))
    if not idents or len(idents) == len(info.deprecates):
        return None
    probe = _probe(info, "idents", deprecates=idents, about=())
    reached = (yield from reach([probe]))[probe.id]
    count = len(_memories(reached))
    return (idents, count) if count else None


def unreached_flow(
    infos: Sequence[CorrectionInfo],
    reached: Mapping[str, int],
    reach: ReachFn,
    text_key: str | None = None,
) -> Flow[None]:
    """Refuse a correction, or one of its strings, that reaches nothing where a miss is near.

    A correction that reaches no record is refused where the store names a near miss of its
    strings, or where without its anchor it would reach records. One of several strings that
    reaches no record, while the others do, is refused where the store names a near miss of
    it. A correction (or string) that reaches nothing with no near miss is stored.

    Args:
        infos: the corrections being written.
        reached: how many records each reaches (by id).
        reach: the write path's reach computation.
        text_key: the metadata key holding records' text, if not the document.

    Raises:
        Unreached: naming the string and the near misses; nothing is written.
    """
    for info in infos:
        if not reached.get(info.id, 0):
            near = yield from near_miss_flow(info, reach, text=info.document, text_key=text_key)
            if near:
                raise Unreached(
                    unreached_message(info.deprecates, near),
                    near_misses=[(m.string, m.count) for m in near],
                    summary=unreached_summary(info.deprecates, near),
                )
            if info.about:
                bare = _probe(info, "bare", about=())
                reached_bare = (yield from reach([bare]))[bare.id]
                memories = _memories(reached_bare)
                if memories:
                    alone = yield from _identifiers_alone(info, reach)
                    words = _anchor_words(info, memories) or _shared_anchors(info, memories)
                    raise _anchor_miss(info, len(memories), words, alone)
            continue
        if len(info.deprecates) < 2:
            continue
        probes = [_probe(info, f"one{i}", deprecates=(p,)) for i, p in enumerate(info.deprecates)]
        each = yield from reach(probes)
        for probe in probes:
            if each[probe.id]:
                continue
            near = yield from near_miss_flow(probe, reach, text=info.document, text_key=text_key)
            if near:
                raise Unreached(
                    unreached_message(
                        probe.deprecates,
                        near,
                        whole=False,
                        others=[p for p in info.deprecates if p not in probe.deprecates],
                    ),
                    near_misses=[(m.string, m.count) for m in near],
                    summary=unreached_summary(probe.deprecates, near, whole=False),
                )


def absent_flow(
    info: CorrectionInfo, error: AbsentString, reach: ReachFn
) -> Flow[AbsentString | None]:
    """Return the refusal of strings absent from the text, naming what the store holds instead.

    None where the store names every absent string as written: ``correct()`` accepts those
    with a note (:func:`~nowline._rules.guards.absent_forgiven`). A string the text does not
    mention and no memory names is no old value as written: most often the old value with more
    around it (``com.acme:core:3.0``) or a typo. Where the store names a near miss of such a
    string (:func:`near_miss_flow`), the refusal names the near misses and the call to send
    (:func:`~nowline._rules.nearmiss.absent_message`); otherwise ``error`` stands.
    """
    probes = [_probe(info, f"absent{i}", deprecates=(p,)) for i, p in enumerate(error.absent)]
    reached = yield from reach(probes)
    counts = {p.deprecates[0]: len(_memories(reached[p.id])) for p in probes}
    if absent_forgiven(counts):
        return None
    unnamed = [p for p, n in counts.items() if not n]
    near: list[NearMiss] = []
    for i, phrase in enumerate(unnamed):
        probe = _probe(info, f"absentnear{i}", deprecates=(phrase,))
        near += yield from near_miss_flow(probe, reach, text=info.document)
    if not near:
        return error
    others = [p for p in info.deprecates if p not in unnamed]
    refusal = AbsentString(
        absent_message(info.document, error.absent, near, others), absent=list(error.absent)
    )
    refusal.suggestions = [(m.string, m.count) for m in near]
    return refusal


def persons_flow(info: CorrectionInfo, names: Sequence[str], reach: ReachFn) -> Flow[None]:
    """Refuse a person's full name without an anchor, counting the anchors the text suggests.

    Where no word of the text is named by the person's records ("Saoirse Gallagher has taken
    them over from Casimir Volkonsky"), the words most of those records share are suggested
    ("procurement", in both of Casimir's), as for a generic string (:func:`_shared_anchors`).

    Raises:
        PersonName: with the suggested anchors and how many of the records the name would
            reach name each; nothing is written.
    """
    if not names:
        return
    probes = [_probe(info, f"person{i}", deprecates=(n,), about=()) for i, n in enumerate(names)]
    reached = yield from reach(probes)
    # the first name that memories name: one that names none (the new person, given as old:
    # blind writer case g11) has no role to suggest, and the string that reaches nothing is
    # refused as such once the others are anchored
    name, probe = next(
        ((n, p) for n, p in zip(names, probes, strict=True) if reached[p.id]),
        (names[0], probes[0]),
    )
    records = reached[probe.id]
    counted = _counted_anchors(info, info.document, records)
    if not any(n for _, n in counted):  # the text names no role: what the memories share
        counted = _shared_anchors(info, records)
    raise person_refusal(name, len(records), counted)


def generic_flow(
    info: CorrectionInfo, error: InvalidCorrection, reach: ReachFn
) -> Flow[InvalidCorrection]:
    """Return a generic deprecated string's refusal with its anchors counted in the store.

    The anchors the text suggests are counted in the records the string alone would reach,
    those that narrow first, so the example the message gives is one the outdated memories
    name ("plan" for "39" in "the Pro plan now costs $49; it was $39"). Any other refusal
    is returned as it is.
    """
    if (
        not isinstance(error, GenericString)
        or error.field != "deprecates"
        or error.phrase not in info.deprecates
        or not info.document.strip()
    ):
        return error
    probe = _probe(info, "generic", deprecates=(error.phrase,), about=())
    records = (yield from reach([probe]))[probe.id]
    # the refusal holds the text's candidates already (check_correction read them)
    words = [w for w, _ in error.anchors]
    counted = _counted_anchors(info, info.document, records, words, names_first=True)
    if not any(n for _, n in counted):  # the text names no subject: the memories do
        counted = _shared_anchors(info, records)
    return generic_refusal(error.phrase, error.kind, error.reason, (), counted, len(records))


SHARED_RECORDS = 50
"""The most records whose words :func:`_shared_anchors` reads (the first the reach returns)."""


def _shared_anchors(info: CorrectionInfo, records: Sequence[Record]) -> list[tuple[str, int]]:
    """Return the words most of a string's memories (not corrections) name, with their counts.

    Where a correction's text names no subject ("Ximena took over from Wolfgang", or a body
    made of the two values, "Changed from €4.90 to €6.90."), what the memories of the string
    share is what it belongs to: "Brackenbury" where both memories of "Wolfgang" are about
    Brackenbury Press. Only the words named by the most of them are returned (a word of one
    memory alone would narrow to it), proper nouns first, at most :data:`MAX_SUGGESTIONS`.
    """
    records = _memories(records)[:SHARED_RECORDS]
    exclude = (*info.deprecates, *info.replaced_by)
    words: dict[str, str] = {}
    proper: set[str] = set()
    for record in records:
        text = record.document or ""
        for word in anchor_candidates(text, exclude):
            words.setdefault(fold(word), word)
            if proper_noun_in(word, text):
                proper.add(fold(word))
    if not words:
        return []
    counts = _named_counts(list(words.values()), (r.document or "" for r in records))
    most = max(counts.values())
    top = [(w, n) for w, n in counts.items() if n == most]
    top.sort(key=lambda c: fold(c[0]) not in proper)
    return top[:MAX_SUGGESTIONS]


def swapped_flow(
    info: CorrectionInfo, error: InvalidCorrection, reach: ReachFn
) -> Flow[InvalidCorrection]:
    """Return the refusal of a deprecated string the text calls new, judged by the store.

    Where the writer gave ``replaced_by`` and the text calls a deprecated string new, one of
    the two is turned round. The store tells which: memories that still name the deprecated
    string as current, and none that name a new value of ``replaced_by``, side with the
    fields (an old value is what memories name; a new one, not yet), and the refusal asks
    for the text the right way round (:func:`~nowline._rules.guards.swapped_body_refusal`).
    Otherwise, or for any other refusal, ``error`` is returned as it is: the text may be
    right (a change back, whose old name the memories name as historical).
    """
    if (
        not isinstance(error, NewValue)
        or error.said is None
        or error.holder is not None
        or not info.replaced_by
        or error.phrase not in info.deprecates
        or fold(error.phrase) in {fold(v) for v in info.replaced_by}
    ):
        return error
    probes = [_probe(info, "swap-old", deprecates=(error.phrase,), about=())]
    probes += [
        _probe(info, f"swap-new{i}", deprecates=(v,), about=())
        for i, v in enumerate(info.replaced_by)
    ]
    reached = yield from reach(probes)

    # memories of the deprecated string that no correction supersedes yet
    named = sum(1 for r in _memories(reached[probes[0].id]) if not stored_links(r.metadata))
    if not named or any(reached[p.id] for p in probes[1:]):
        return error
    return swapped_body_refusal(info, error.phrase, error.said, named)


def suggestions_flow(
    info: CorrectionInfo, reach: ReachFn, extra: Sequence[str] = ()
) -> Flow[list[tuple[str, int]]]:
    """Return the strings to deprecate instead, each with its reach, most first.

    The candidates are the old values the correction's text states (``nowline._rules.wording``)
    and ``extra`` (near misses), less the strings it deprecates already, its new values, and,
    unless it is anchored, generic strings (they would be refused again). Each is counted as
    the correction would reach it (its scope and anchors).
    """
    taken = {fold(v) for v in (*info.deprecates, *info.replaced_by)}
    candidates: dict[str, str] = {}
    for value in (*old_values(info.document, info.deprecates), *extra):
        key = fold(value)
        if key in taken or key in candidates:
            continue
        if not info.about and is_generic(value, info.document) is not None:
            continue
        candidates[key] = value
    if not candidates:
        return []
    # counted as the correction would reach them: an identifier drops the anchors beside it
    probes = [
        _probe(info, f"suggest{i}", deprecates=(v,), about=() if is_identifier(v) else info.about)
        for i, v in enumerate(candidates.values())
    ]
    reached = yield from reach(probes)
    out = [(p.deprecates[0], len(reached[p.id])) for p in probes]
    out.sort(key=lambda s: -s[1])
    return out[:MAX_SUGGESTIONS]


def anchored_proposal_flow(info: CorrectionInfo, reach: ReachFn) -> Flow[tuple[str, str] | None]:
    """Return an old value of the text that needs an anchor, with the anchor that narrows it.

    :func:`suggestions_flow` leaves out what would be refused without an anchor: a number, a
    first name, a common word ("03:45 UTC", "Beatriz") or a person's full name. Here the first
    such old value the text states (``nowline._rules.wording``) that names memories is
    returned with the first of the text's anchor candidates those memories name: a proper
    noun of the text first ("Fairlop" in "Standard shipping on Fairlop orders is €6.90 now,
    was €4.90"), then any word; each group counted as a refusal counts it (those that name
    some of the memories but not all first: "Tamberlane" for "tamberlane nightly backup runs
    at 01:15 UTC now instead of 03:45 UTC", where "03:45 UTC" also names a report's time,
    and "Harbor" before "API" where another API's limit is also 600). None when the text
    states no such value, or none of its words is named by the value's memories: an anchor
    nowline made up would narrow to something the writer never said. Only the first
    :data:`MAX_SUGGESTIONS` such values are read, in one reach: a hostile text stating
    thousands made a recall's change hint read the store thousands of times.
    """
    taken = {fold(v) for v in (*info.deprecates, *info.replaced_by)}
    values: list[str] = []
    for value in old_values(info.document, info.deprecates):
        if fold(value) in taken:
            continue
        if is_generic(value, info.document) is None and not is_person_name(value, info.document):
            continue
        taken.add(fold(value))
        values.append(value)
        if len(values) == MAX_SUGGESTIONS:  # the first few: a hostile text states thousands
            break
    probes = [_probe(info, f"anchored{i}", deprecates=(v,), about=()) for i, v in enumerate(values)]
    if not probes:
        return None
    reached = yield from reach(probes)
    words = anchor_candidates(info.document, (*info.deprecates, *info.replaced_by, *values))
    for value, probe in zip(values, probes, strict=True):
        # a name the text gives ("Fairlop") says what it is about: it comes first
        memories = _memories(reached[probe.id])
        counted = _counted_anchors(probe, info.document, memories, words, names_first=True)
        named = [w for w, n in counted if n]
        if named:
            return value, named[0]
    return None


def preview_flow(
    info: CorrectionInfo,
    ids: list[str],
    reach: ReachFn,
    *,
    text: str | None,
    max_reach: float | int | None,
    allow: Allowances = STRICT,
    holders: Holders | None = None,
    given_new: bool = False,
    text_key: str | None = None,
) -> Flow[Preview]:
    """Return a preview: the ids reached, near misses, suggestions, and why ``correct()`` refuses.

    ``refusal`` is the message of the first guard ``correct()`` (with ``allow``) would raise,
    in its order: the correction's strings and anchors (a new value, an absent string, a
    generic string, a person's name; ``text`` needed for those that read it), its reach
    against ``max_reach``, then near misses.
    """
    refusal: str | None = None
    named = info._replace(id="(preview)")
    allowed = allow
    while True:
        try:
            persons = check_correction(
                named, allowed, has_text=text is not None, given_new=given_new, holders=holders
            )
            yield from persons_flow(info, persons, reach)
        except InvalidCorrection as exc:
            if text:
                exc = yield from generic_flow(info, exc, reach)
                exc = yield from swapped_flow(info, exc, reach)
                if isinstance(exc, AbsentString):
                    found = yield from absent_flow(info, exc, reach)
                    if found is None:  # the store names each as written: correct() accepts it
                        allowed = replace(allowed, absent=True)
                        continue
                    exc = found
            refusal = str(exc)
        break
    if refusal is None and max_reach is not None:
        total = yield Count()
        try:
            check_reach(named, len(ids), max_reach, total)
        except InvalidCorrection as exc:
            refusal = str(exc)
    near: list[NearMiss] = []
    if not ids:
        near = yield from near_miss_flow(info, reach, text=text, text_key=text_key)
    if refusal is None and not allow.unreached:
        try:
            yield from unreached_flow([info], {info.id: len(ids)}, reach, text_key)
        except Unreached as exc:
            refusal = str(exc)
    suggestions = (
        (yield from suggestions_flow(info, reach, [m.string for m in near])) if text else []
    )
    return Preview(
        ids,
        near_misses=[(m.string, m.count) for m in near],
        refusal=refusal,
        suggestions=suggestions,
        deprecates=info.deprecates,
        about=info.about,
        replaced_by=info.replaced_by or (changed_back(info, holders) if holders else ()),
    )
