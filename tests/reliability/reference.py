"""A from-scratch reference for the README's "Linking" and "What a stale hit shows".

It is written from the text, not from the code.

Given every record of a collection (id, document, metadata), it says for each record:
which active corrections supersede it (the links that must be stored in ``nowline_by``), its
role, and its now-line corrections. It shares nothing with nowline but the metadata key names:
occurrence is a slow loop over ``str.find`` on folded text, chains are a memoised recursion.

Inputs it reads from a record's metadata: ``deprecates`` (a correction), the scope key,
``nowline_time`` and ``nowline_written`` (order), ``nowline_retracted`` (retraction), and a
correction's new values (``replaced_by`` as given; else the wording itself, read by nowline's
reader: the one input taken from nowline, since the reader is tested on its own in
``tests/core/test_wording.py`` and ``bench/wording.py``; the same reader says whether a memory
records a correction's change itself, which the correction then does not supersede). Outputs
it never reads: ``nowline_by`` and ``nowline_role``; those are what it checks.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from typing import Any

__all__ = [
    "TRAVELS",
    "Expect",
    "Record",
    "all_records",
    "expected",
    "expected_links",
    "expected_states",
    "expected_trips",
    "fold",
    "names",
    "occurs",
    "reach_counts",
    "recall_states",
    "repeat_of",
    "same_value",
    "spelled",
    "stored_links",
]

Order = tuple[float, float, str]

TRAVELS = "<the scope travels with the correction>"
"""A ``scope_key`` argument: each correction applies by the scope it stores (DESIGN §7).

A correction that stores ``nowline_scope_key`` K reaches a plain memory whose value for K has
its own token (absent is a token of its own), and another correction only if that one stores
K too with the same token; a correction without ``nowline_scope_key`` is global.
"""


def fold(s: str) -> str:
    """Return ``s`` as §3 compares it: NFKC, then casefold."""
    return unicodedata.normalize("NFKC", s).casefold()


_URL_HEAD = re.compile(r"^[a-z][a-z0-9+.-]*://")
_HOSTNAME = re.compile(r"^(?:www\.)?([^/\s]+\.[a-z]{2,})/")


def spelled(value: str) -> tuple[str, str]:
    """Return the host a string writes a value under ("" for none) and its path, folded.

    The same repository written with a scheme, a host, ``.git`` or slashes:
    ``https://github.com/acme/app.git`` is ``acme/app`` under ``github.com``; ``acme/app/``
    is ``acme/app`` under no host. A host stays part of the value where no path of its own
    (``owner/name``) follows it (``docs.acme.io/guide``). Only the spellings the model-based
    test writes (``tests/core/test_spelling.py`` tests the rest).
    """
    v = _URL_HEAD.sub("", fold(value).strip())
    host = ""
    found = _HOSTNAME.match(v)
    if found is not None and "/" in v[found.end() :].rstrip("/"):
        host, v = found.group(1), v[found.end() :]
    v = v.strip("/")
    if v.endswith(".git"):
        v = v[:-4]
    return (host, v) if v else ("", fold(value))


def same_value(a: str, b: str) -> bool:
    """Return whether two strings write the same value, in any spelling (§6).

    The same path, under the same host or a host on one side only: ``github.com/acme/app``
    and ``acme/app`` are one value, ``gitlab.com/acme/app`` and ``github.com/acme/app`` two.
    """
    (host_a, path_a), (host_b, path_b) = spelled(a), spelled(b)
    return path_a == path_b and (not host_a or not host_b or host_a == host_b)


def _token(c: str) -> bool:
    """Return whether ``c`` is a token character (§3): a letter or digit, ``_`` or ``-``."""
    return c.isalnum() or c in "_-"


def occurs(phrase: str, text: str) -> bool:
    """Return whether ``phrase`` occurs in ``text`` (§3), by trying every position."""
    return bool(_starts(phrase, text))


_FORGE = {"github.com", "gitlab.com"}
_HOSTED = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:[^@/\s]+@)?[^/\s]*\.[a-z]{2,}")
_BEFORE_PATH = re.compile(
    r"^(?:[a-z][a-z0-9+.-]*://)?(?:[^@/\s]+@)?(?:www\.)?([^/\s:@]+\.[a-z]{2,})(?::\d+)?[/:]$"
)


def names(phrase: str, text: str, news: Iterable[str] = (), *, bare: bool = True) -> bool:
    """Return whether ``text`` names what ``phrase`` deprecates (§3, and a value's spellings).

    A string without a host occurs as written. A string with a host names its path written
    right after the same host (any scheme, user, ``www.`` or port), or, on a forge
    (github.com, gitlab.com), written with no host before it, unless a new value is the same
    path under another host (a move: the bare path then names either). ``bare=False``: only
    under its host (a change back made the bare value current again). Another path before it
    (``foo/acme/app``) or an npm scope (``@acme/app``) names no such value.
    """
    host, path = spelled(phrase)
    if not host:
        return occurs(phrase, text)
    moved = any(spelled(v)[0] not in ("", host) and spelled(v)[1] == path for v in news)
    t = fold(text)
    for start in _starts(path, text):
        word = start
        while word > 0 and not t[word - 1].isspace() and t[word - 1] not in "\"'`<>()[]{}=,;|":
            word -= 1
        before = t[word:start]
        if before.endswith("@"):
            continue  # an npm scope: another registry's name
        if not before.lstrip("~%+:-[").strip("/"):  # nothing but punctuation: no host
            if host in _FORGE and not moved and bare:
                return True
            continue
        found = _BEFORE_PATH.match(before) if _HOSTED.match(before) else None
        if found is not None and (found.group(1) == host or found.group(1).endswith("." + host)):
            return True  # the same host, or a subdomain of it (§3 rule 5)
    return False


def _starts(phrase: str, text: str) -> list[int]:
    """Return where ``phrase`` occurs in ``text``, folded (§3), by trying every position.

    Dotted names (§3 item 5): when the phrase's last segment (after its last ``/``, ``@``,
    ``:`` or whitespace; trailing dots aside) holds a ``.``, a ``.`` followed by a token
    character after the occurrence continues the name, and a phrase ending in ``.`` needs a
    non-token character after it.
    """
    p, t = fold(phrase.strip()), fold(text)
    found: list[int] = []
    if not p:
        return found
    last = re.split(r"[/@:\s]", p)[-1].rstrip(".")
    dotted = "." in last
    start = t.find(p)
    while start != -1:
        end = start + len(p)
        free_before = not (_token(p[0]) and start > 0 and _token(t[start - 1]))
        needs_end = _token(p[-1]) or (dotted and p[-1] == ".")
        free_after = not (needs_end and end < len(t) and _token(t[end]))
        after = t[end + 5 : end + 6] if t[end + 4 : end + 5] == "." else t[end + 4 : end + 5]
        git = t.startswith(".git", end) and not (after and _token(after))
        goes_on = (
            dotted
            and _token(p[-1])
            and end + 1 < len(t)
            and t[end] == "."
            and _token(t[end + 1])
            and not git
        )
        if free_before and free_after and not goes_on:
            found.append(start)
        start = t.find(p, start + 1)
    return found


@dataclass(frozen=True)
class Record:
    """A record as stored: id, document and metadata."""

    id: str
    document: str
    metadata: Mapping[str, Any]

    @property
    def deprecates(self) -> tuple[str, ...]:
        """Return the deprecated strings (empty unless the record is a correction)."""
        value = self.metadata.get("deprecates")
        if isinstance(value, str):
            value = [value]
        return tuple(s.strip() for s in value or () if isinstance(s, str) and s.strip())

    @property
    def about(self) -> tuple[str, ...]:
        """Return the correction's anchors (§6); empty when it has none."""
        if not self.deprecates:
            return ()
        value = self.metadata.get("about")
        if isinstance(value, str):
            value = [value]
        return tuple(s.strip() for s in value or () if isinstance(s, str) and s.strip())

    @property
    def new_values(self) -> frozenset[str]:
        """Return the correction's new values, folded (§6): what it names as current now."""
        if not self.deprecates:
            return frozenset()
        # What nowline stores under nowline_new is what it read from the wording, and holds
        # only for the text it read: the reference reads the wording itself.
        value = self.metadata.get("replaced_by")
        if value is not None:
            if isinstance(value, str):
                try:
                    parsed = json.loads(value)
                except ValueError:
                    parsed = [value]
                value = parsed if isinstance(parsed, list) else [value]
            return frozenset(fold(v.strip()) for v in value if isinstance(v, str) and v.strip())
        from nowline._rules.wording import new_values

        return frozenset(fold(v) for v in new_values(self.document, list(self.deprecates)))

    @property
    def is_correction(self) -> bool:
        """Return whether a non-empty ``deprecates`` makes the record a correction (§2)."""
        return bool(self.deprecates)

    @property
    def retracted(self) -> bool:
        """Return whether the record is a retracted correction (§6)."""
        return self.is_correction and self.metadata.get("nowline_retracted") is not None

    @property
    def time(self) -> float:
        """Return the record's time (§2); a record nowline never wrote has its observed_at or 0."""
        stored = self.metadata.get("nowline_time")
        if stored is not None:
            return float(stored)
        observed = self.metadata.get("observed_at")
        if isinstance(observed, (int, float)) and not isinstance(observed, bool):
            return float(observed)
        if isinstance(observed, str):
            text = observed.strip().replace("Z", "+00:00").replace("z", "+00:00")
            parsed = datetime.fromisoformat(text)
            return (parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)).timestamp()
        return 0.0

    @property
    def order(self) -> Order:
        """Return the order of §2: time, then write order, then id."""
        written = self.metadata.get("nowline_written")
        return (self.time, self.time if written is None else float(written), self.id)

    @property
    def scope_key(self) -> str | None:
        """Return the scope key a correction carries (None: global, or a plain memory)."""
        key = self.metadata.get("nowline_scope_key")
        return key if isinstance(key, str) and self.is_correction else None

    def reaches(self, other: Record) -> bool:
        """Return whether this correction's scope covers ``other`` under :data:`TRAVELS`."""
        key = self.scope_key
        if key is None:
            return True
        if other.is_correction and other.scope_key != key:
            return False
        return self.scope(key) == other.scope(key)

    def scope(self, scope_key: str | None) -> Any:
        """Return the record's scope (§7): records without the key share one scope."""
        if scope_key is None:
            return None
        value = self.metadata.get(scope_key)
        if value is None:
            return ("missing",)
        return (type(value), tuple(value) if isinstance(value, list) else value)


@dataclass(frozen=True)
class Expect:
    """What §4–§5 say about one record.

    Attributes:
        by: the active corrections that supersede it (the stored ``nowline_by``), sorted.
        role: ``current``, ``historical``, ``transition`` or ``retracted``.
        now: the ids of its now-line corrections, oldest first (empty unless historical).

    A historical record shows every correction in ``by`` (its direct corrections), oldest
    first, and ``now`` (the newest of their chains) as its now-lines (§5).
    """

    by: tuple[str, ...]
    role: str
    now: tuple[str, ...]

    @property
    def stored_role(self) -> str | None:
        """Return the role as stored in ``nowline_role`` (current is stored as no key)."""
        return None if self.role == "current" else self.role


def _revives(d: Record, c: Record, phrase: str) -> bool:
    """Return whether the active correction ``d`` revives ``phrase`` of ``c`` (scope aside).

    ``d`` is newer, holds ``phrase`` as a new value and deprecates what ``c`` made new (one
    of its new values, or a string its text names): a rename back.
    """
    return (
        d.id != c.id
        and d.order > c.order
        and any(same_value(phrase, v) for v in d.new_values)
        and any(
            any(same_value(x, v) for v in c.new_values) or names(x, c.document, d.new_values)
            for x in d.deprecates
        )
    )


def _revives_through(d: Record, c: Record, phrase: str, made: frozenset[str]) -> bool:
    """Return whether ``d`` changes back a chain ``c`` began: it deprecates a value of ``made``.

    ``acme/app`` → ``acme/app2`` → ``acme/app3`` → ``acme/app``: the last deprecates what the
    second made new, and the second deprecated what the first made new.
    """
    return (
        d.id != c.id
        and d.order > c.order
        and any(same_value(phrase, v) for v in d.new_values)
        and any(same_value(x, v) for x in d.deprecates for v in made)
    )


def _scope_of(c: Record, scope_key: str | None) -> Any:
    """Return a correction's scope as §7 compares corrections."""
    if scope_key == TRAVELS:
        key = c.scope_key
        return None if key is None else (key, c.scope(key))
    return c.scope(scope_key)


def repeat_of(
    records: Iterable[Record],
    new: Record,
    scope_key: str | None = None,
    *,
    timed: bool = False,
    now: float = float("inf"),
    stored: Iterable[Record] | None = None,
) -> str | None:
    """Return the id of the standing correction that ``new`` tells again (§6), or None.

    An active correction of the same scope and source with the same strings, anchors and
    new values (folded) and the same text (case-folded, spaces collapsed, no closing stop),
    and the same time where ``new`` gives one (``timed``), else one not after ``now``; it
    must stand: nothing supersedes it and none of its strings is revived. The newest of them.

    ``stored``: the records as the store holds them before the write, where ``records`` adds
    the write's own earlier corrections. Whether a stored correction stands is judged on
    them (the standing correction as the store holds it now); a twin earlier in the same
    write always counts.
    """
    recs = list(records)
    active = [c for c in recs if c.is_correction and not c.retracted and c.id != new.id]
    before = recs if stored is None else list(stored)
    links = expected(before, scope_key)
    held = [c for c in before if c.is_correction and not c.retracted and c.id != new.id]

    def said(text: str) -> str:
        return " ".join(text.casefold().split()).rstrip(" .!")

    def same(c: Record) -> bool:
        return (
            _scope_of(c, scope_key) == _scope_of(new, scope_key)
            and c.metadata.get("source") == new.metadata.get("source")
            and {fold(p) for p in c.deprecates} == {fold(p) for p in new.deprecates}
            and {fold(a) for a in c.about} == {fold(a) for a in new.about}
            and c.new_values == new.new_values
            and said(c.document) == said(new.document)
            and (c.time == new.time if timed else c.time <= now)
        )

    def stands(c: Record) -> bool:
        if c.id not in links:
            return True  # a twin earlier in the same write
        return not links[c.id].by and not any(
            _scope_of(d, scope_key) == _scope_of(c, scope_key) and _revives(d, c, p)
            for d in held
            for p in c.deprecates
        )

    found = [c for c in active if same(c) and stands(c)]
    return max(found, key=lambda c: c.order).id if found else None


def expected(
    records: Iterable[Record], scope_key: str | None = None, as_of: float | None = None
) -> dict[str, Expect]:
    """Return, for every record, its links, role and now-line corrections (§4–§5).

    With ``as_of``, records and corrections whose time is later are left out (§8).
    """
    recs = [r for r in records if as_of is None or r.time <= as_of]
    active = [c for c in recs if c.is_correction and not c.retracted]

    def scope_of(c: Record) -> Any:
        return _scope_of(c, scope_key)

    @cache
    def revived(cid: str, phrase: str) -> bool:
        """Return whether ``phrase`` of ``cid`` is revived (§4, §6: a rename back).

        A newer active correction of the same scope holds ``phrase`` as a new value and
        deprecates what ``cid`` made new (one of its new values, or a string its text names).
        """
        c = by_id[cid]
        return any(
            scope_of(d) == scope_of(c)
            and (_revives(d, c, phrase) or _revives_through(d, c, phrase, chain(cid, d.id)))
            for d in active
        )

    @cache
    def chain(cid: str, did: str) -> frozenset[str]:
        """Return the values made new from ``cid`` on, step by step, before ``did`` (§6).

        ``cid`` makes its new values new; a later active correction of its scope, older than
        ``did``, that deprecates one of them makes its own new values new in turn.
        """
        c, d = by_id[cid], by_id[did]
        made = set(c.new_values)
        grew = True
        while grew:
            grew = False
            for e in active:
                if (
                    c.order < e.order < d.order
                    and scope_of(e) == scope_of(c)
                    and any(same_value(x, v) for x in e.deprecates for v in made)
                    and not e.new_values <= made
                ):
                    made |= e.new_values
                    grew = True
        return frozenset(made)

    by_id = {c.id: c for c in active}

    def supersedes(c: Record, r: Record) -> bool:
        if c.id == r.id:
            return False
        if scope_key == TRAVELS:
            if not c.reaches(r):
                return False
        elif c.scope(scope_key) != r.scope(scope_key):
            return False
        if r.retracted:
            return False  # a retracted correction is inert: it holds no links (§6)
        if r.is_correction and r.order > c.order:
            return False  # a newer correction is never made historical by an older one
        if c.about and not any(occurs(a, r.document) for a in c.about):
            return False  # an anchored correction reaches only records naming its anchor
        return any(
            names(p, r.document, c.new_values, bare=not revived(c.id, spelled(p)[1]))
            and not revived(c.id, p)
            and not records(c, r, p)
            for p in c.deprecates
        )

    def records(c: Record, r: Record, phrase: str) -> bool:
        """Return whether a plain memory records c's change of ``phrase`` itself (§4).

        It names the string only as old, and one of c's new values (or states an end, where
        c has none): the wording is read by nowline's reader, as for new values.
        """
        if r.is_correction:
            return False
        from nowline._rules.wording import records_change

        news = sorted(c.new_values)
        host, path = spelled(phrase)
        bare = sorted(spelled(v)[1] if spelled(v)[0] else v for v in news)
        return records_change(r.document, phrase, news) or bool(
            host and records_change(r.document, path, bare)
        )

    links = {r.id: tuple(sorted(c.id for c in active if supersedes(c, r))) for r in recs}
    order = {r.id: r.order for r in recs}

    @cache
    def newest(cid: str) -> str:
        sups = links[cid]
        if not sups:
            return cid
        return max((newest(s) for s in sups), key=order.__getitem__)

    out: dict[str, Expect] = {}
    for r in recs:
        by = links[r.id]
        if r.retracted:
            out[r.id] = Expect(by, "retracted", ())
        elif by:
            now = tuple(sorted({newest(c) for c in by}, key=order.__getitem__))
            out[r.id] = Expect(by, "historical", now)
        else:
            out[r.id] = Expect(by, "transition" if r.is_correction else "current", ())
    return out


def expected_links(
    records: Iterable[Record], scope_key: str | None = None
) -> dict[str, tuple[tuple[str, ...], str | None]]:
    """Return {id: (nowline_by, nowline_role)} as a store must hold them after repair()."""
    return {rid: (e.by, e.stored_role) for rid, e in expected(records, scope_key).items()}


def reach_counts(records: Iterable[Record], scope_key: str | None = None) -> dict[str, int]:
    """Return, for every record, how many records it supersedes directly (a correction's reach).

    This is what §6's reach limit counts: the records that will be linked to the correction
    once it is written, those written in the same call included.
    """
    exp = expected(records, scope_key)
    counts = dict.fromkeys(exp, 0)
    for e in exp.values():
        for cid in e.by:
            counts[cid] += 1
    return counts


def all_records(collection: Any) -> list[Record]:
    """Return every record of a (raw or wrapped) collection as stored, read in pages."""
    collection = getattr(collection, "raw", collection)  # a wrapper hides its bookkeeping
    out: list[Record] = []
    offset, page = 0, 5000
    while True:
        got = collection.get(limit=page, offset=offset, include=["documents", "metadatas"])
        for rid, doc, meta in zip(got["ids"], got["documents"], got["metadatas"], strict=True):
            out.append(Record(rid, doc or "", dict(meta or {})))
        if len(got["ids"]) < page:
            return out
        offset += page


def stored_links(records: Sequence[Record]) -> dict[str, tuple[tuple[str, ...], str | None]]:
    """Return {id: (nowline_by, nowline_role)} as stored."""
    return {
        r.id: (tuple(sorted(r.metadata.get("nowline_by") or ())), r.metadata.get("nowline_role"))
        for r in records
    }


def recall_states(
    collection: Any, query: str = "memory", as_of: Any = None
) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """Recall every record: {id: (role, direct correction ids sorted, now-line ids in order)}.

    One recall() with n_results = count. Chroma's HNSW index is approximate and can leave a
    record out even then; without ``as_of`` those few are read with ``hits()`` (the same
    read-time computation, by id).
    """
    n = collection.count()
    if n == 0:
        return {}
    recall = collection.recall(query, n_results=n, as_of=as_of)
    got = {h.id: _state(h) for h in recall.hits}
    if as_of is not None:
        return got
    missing = [rid for rid in collection.get(include=[])["ids"] if rid not in got]
    for hit in collection.hits(missing):
        got[hit.id] = _state(hit)
    return got


def _state(hit: Any) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """Return a hit's (role, sorted direct ids, now ids)."""
    return (hit.role, tuple(sorted(c.id for c in hit.direct)), tuple(c.id for c in hit.now))


def expected_states(
    records: Iterable[Record], scope_key: str | None = None, as_of: float | None = None
) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """Return {id: (role, direct ids sorted, now-line ids)} as recall() must show them."""
    return {rid: (e.role, e.by, e.now) for rid, e in expected(records, scope_key, as_of).items()}


def expected_trips(
    records: Iterable[Record], text: str, metadata: Mapping[str, Any] | None
) -> set[tuple[str, str]]:
    """Return what ``check(text, metadata=...)`` must trip under :data:`TRAVELS`.

    The text is checked as a plain memory with ``metadata``: one (correction id, newest id of
    its chain) pair per active correction that supersedes such a memory.
    """
    recs = list(records)
    probe = Record("\x00probe", text, dict(metadata or {}))
    exp = expected([*recs, probe], TRAVELS)
    order = {r.id: r.order for r in recs}
    trips = set()
    for cid in exp[probe.id].by:
        chain = exp[cid].now  # the newest of each chain that supersedes cid
        trips.add((cid, max(chain, key=order.__getitem__) if chain else cid))
    return trips
