"""The correction registry: every correction of a collection, its matcher, and chains.

The registry is nowline's in-memory view of the corrections stored in one Chroma collection.
It decides, for a record's text, which active corrections supersede the record (DESIGN.md §4),
and resolves each correction to its newest successor (§5). Everything it holds is rebuilt from
Chroma metadata; it is a cache, never the source of truth.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from nowline.matchers import Match, Matcher

__all__ = ["CorrectionInfo", "Registry", "scope_token"]

ScopeToken = Hashable
"""What two records must share to be in one scope (see :func:`scope_token`)."""

# Resolution of a chain stops after visiting this many corrections (hand-written cycles).
_MAX_CHAIN = 10_000


def scope_token(metadata: Mapping[str, Any] | None, scope_key: str | None) -> ScopeToken:
    """Return the scope of a record: equal tokens mean the same scope (DESIGN.md §7).

    Without a ``scope_key`` every record shares one scope. With one, records whose metadata
    lacks the key form their own scope. Values are compared with their type, so ``1`` and
    ``True`` or ``"1"`` are different scopes.
    """
    if scope_key is None:
        return None
    if metadata is None or metadata.get(scope_key) is None:
        return ("missing",)
    value = metadata[scope_key]
    if isinstance(value, list):
        return ("list", tuple(value))
    return (type(value).__name__, value)


@dataclass(frozen=True, slots=True)
class CorrectionInfo:
    """One correction as the registry knows it.

    Attributes:
        id: the correction's record id.
        document: its text.
        deprecates: the outdated strings it names.
        time: its time in epoch seconds (``observed_at`` or the moment it was written).
        written: when it was written (epoch seconds); breaks ties between equal times.
        scope: its scope token.
        retracted: when it was retracted (epoch seconds), or None while it is active.
    """

    id: str
    document: str
    deprecates: tuple[str, ...]
    time: float
    written: float
    scope: ScopeToken
    retracted: float | None = None

    @property
    def order(self) -> tuple[float, float, str]:
        """Return the sort key that orders corrections: time, then write order, then id."""
        return (self.time, self.written, self.id)

    def may_supersede(
        self,
        record_id: str,
        scope: ScopeToken,
        correction_order: tuple[float, float, str] | None,
    ) -> bool:
        """Return whether this correction may supersede a record that names its strings.

        The record must be another record in the same scope, and not a correction newer
        than this one.
        """
        if record_id == self.id or scope != self.scope:
            return False
        return correction_order is None or correction_order < self.order


class Registry:
    """All corrections of one collection, with a matcher over the active ones."""

    def __init__(self, infos: Iterable[CorrectionInfo] = ()) -> None:
        """Create a registry holding ``infos``."""
        self._infos: dict[str, CorrectionInfo] = {}
        self._matcher: Matcher[str] = Matcher()
        self._sups: dict[str, tuple[str, ...]] = {}
        self.version = 0
        for info in infos:
            self.put(info)

    def __len__(self) -> int:
        """Return how many corrections (active or retracted) the registry holds."""
        return len(self._infos)

    def __contains__(self, correction_id: object) -> bool:
        """Return whether the registry holds a correction with this id."""
        return correction_id in self._infos

    def get(self, correction_id: str) -> CorrectionInfo | None:
        """Return the correction with this id, or None."""
        return self._infos.get(correction_id)

    def infos(self) -> list[CorrectionInfo]:
        """Return every correction, oldest first."""
        return sorted(self._infos.values(), key=lambda i: i.order)

    def put(self, info: CorrectionInfo) -> None:
        """Add or replace a correction."""
        old = self._infos.get(info.id)
        if old == info:
            return
        self._matcher.discard(info.id)
        self._infos[info.id] = info
        if info.retracted is None:
            self._matcher.add_many((p, info.id) for p in info.deprecates)
        self._changed()

    def drop(self, correction_id: str) -> None:
        """Forget a correction (it was deleted); unknown ids are ignored."""
        if self._infos.pop(correction_id, None) is not None:
            self._matcher.discard(correction_id)
            self._changed()

    def retract(self, correction_id: str, when: float) -> None:
        """Mark a correction retracted at ``when``."""
        info = self._infos.get(correction_id)
        if info is not None and info.retracted is None:
            self.put(replace(info, retracted=when))

    def is_active(self, correction_id: str, as_of: float | None = None) -> bool:
        """Return whether the correction exists, is not retracted and is not after ``as_of``."""
        info = self._infos.get(correction_id)
        return info is not None and info.retracted is None and (as_of is None or info.time <= as_of)

    def matches(self, text: str) -> list[Match[str]]:
        """Return every occurrence of an active correction's string in ``text``."""
        return self._matcher.find(text)

    def links(
        self,
        text: str,
        *,
        record_id: str,
        scope: ScopeToken,
        correction_order: tuple[float, float, str] | None,
        as_of: float | None = None,
    ) -> set[str]:
        """Return the ids of the active corrections that supersede a record with this text.

        Args:
            text: the record's document.
            record_id: the record's id (a correction never supersedes itself).
            scope: the record's scope token.
            correction_order: the record's ``order`` if it is a correction, else None.
            as_of: leave out corrections whose time is after this (epoch seconds).
        """
        found: set[str] = set()
        for cid in self._matcher.keys(text):
            info = self._infos[cid]
            if as_of is not None and info.time > as_of:
                continue
            if info.may_supersede(record_id, scope, correction_order):
                found.add(cid)
        return found

    def newest(self, correction_id: str, as_of: float | None = None) -> str:
        """Return the newest correction that a link to ``correction_id`` resolves to.

        That is the correction itself when nothing supersedes it, else the newest of the
        newest corrections of its supersessors (DESIGN.md §5): the newest correction reachable
        through supersession that nothing supersedes in turn. Resolution is iterative and
        bounded; ids that are not in the registry are skipped.
        """
        seen: set[str] = set()
        leaves: list[str] = []
        stack = [correction_id]
        while stack and len(seen) < _MAX_CHAIN:
            cid = stack.pop()
            if cid in seen:
                continue
            seen.add(cid)
            nxt = [s for s in self._supersessors(cid) if self.is_active(s, as_of)]
            if nxt:
                stack.extend(nxt)
            else:
                leaves.append(cid)
        pool = [c for c in (leaves or seen) if c in self._infos] or [correction_id]
        return max(pool, key=self.order_of)

    def order_of(self, correction_id: str) -> tuple[float, float, str]:
        """Return a correction's sort key (unknown ids sort first)."""
        info = self._infos.get(correction_id)
        return info.order if info else (float("-inf"), float("-inf"), correction_id)

    def _supersessors(self, correction_id: str) -> tuple[str, ...]:
        """Return the active corrections that supersede a correction (cached until a change)."""
        cached = self._sups.get(correction_id)
        if cached is None:
            info = self._infos.get(correction_id)
            found = (
                self.links(
                    info.document,
                    record_id=info.id,
                    scope=info.scope,
                    correction_order=info.order,
                )
                if info is not None
                else set()
            )
            cached = self._sups[correction_id] = tuple(sorted(found))
        return cached

    def _changed(self) -> None:
        """Invalidate caches after a change."""
        self._sups = {}
        self.version += 1
