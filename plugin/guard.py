"""Checking any text against the active corrections: actions, plans, cached tool results."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ParamSpec, TypeVar

from pydantic import BaseModel, ConfigDict

from nowline.errors import StaleReference
from nowline.models import CorrectionRef
from nowline.registry import CorrectionInfo, Registry, ScopeToken
from nowline.render import NOW_PREFIX, one_line

__all__ = [
    "Occurrence",
    "Trip",
    "find_trips",
    "guard_call",
    "newest_texts",
    "stale_message",
    "text_arguments",
]

P = ParamSpec("P")
R = TypeVar("R")

# Strings nested deeper than this inside a tool call's arguments are not inspected.
_MAX_DEPTH = 4


class Occurrence(BaseModel):
    """Where a deprecated string occurs in a checked text (half-open code-point offsets).

    Attributes:
        phrase: the deprecated string as the correction names it.
        start: offset of the occurrence's first character.
        end: offset just past its last character; ``text[start:end]`` is the occurrence.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    phrase: str
    start: int
    end: int


class Trip(BaseModel):
    """An active correction that a checked text trips.

    Attributes:
        correction: the correction whose strings occur in the text.
        newest: its newest correction (chains resolved); what the now-line shows.
        occurrences: every occurrence of its strings in the text, ordered by start.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    correction: CorrectionRef
    newest: CorrectionRef
    occurrences: list[Occurrence]


def _ref(info: CorrectionInfo) -> CorrectionRef:
    """Return the public view of a correction."""
    return CorrectionRef(
        id=info.id, document=info.document, deprecates=list(info.deprecates), time=info.time
    )


def find_trips(registry: Registry, text: str, scope: ScopeToken) -> list[Trip]:
    """Return the active corrections of ``scope`` whose strings occur in ``text``.

    The text is treated as a plain memory: every active correction of its scope applies.
    Only the in-memory registry is consulted (no Chroma round trip).
    """
    by_correction: dict[str, list[Occurrence]] = {}
    for match in registry.matches(text):
        info = registry.get(match.key)
        if info is None or not info.may_supersede("", scope, None):
            continue
        by_correction.setdefault(match.key, []).append(
            Occurrence(phrase=match.phrase, start=match.start, end=match.end)
        )
    trips = []
    for cid, occurrences in by_correction.items():
        info = registry.get(cid)
        newest = registry.get(registry.newest(cid))
        if info is not None and newest is not None:
            trips.append(Trip(correction=_ref(info), newest=_ref(newest), occurrences=occurrences))
    trips.sort(key=lambda t: (t.occurrences[0].start, t.correction.time, t.correction.id))
    return trips


def newest_texts(trips: list[Trip]) -> list[str]:
    """Return the distinct newest corrections' texts of ``trips``, oldest first."""
    seen: dict[str, CorrectionRef] = {}
    for trip in trips:
        seen.setdefault(trip.newest.id, trip.newest)
    return [ref.document for ref in sorted(seen.values(), key=lambda r: (r.time, r.id))]


def stale_message(trips: list[Trip]) -> str:
    """Return the message of a StaleReference: what is stale, the now-lines, what to do."""
    names = sorted({o.phrase for t in trips for o in t.occurrences})
    lines = [f"Stale reference: {', '.join(repr(n) for n in names)} has been superseded."]
    lines += [NOW_PREFIX + one_line(doc) for doc in newest_texts(trips)]
    lines.append(
        "Retry with the current value from the now-line, or pass allow_stale=True if the old "
        "value is meant (for example when discussing the change itself)."
    )
    return "\n".join(lines)


def text_arguments(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Iterator[str]:
    """Yield every string in a call's arguments, looking into lists, tuples, sets and dicts."""
    stack: list[tuple[Any, int]] = [(a, 0) for a in args] + [(v, 0) for v in kwargs.values()]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            yield value
        elif depth < _MAX_DEPTH and isinstance(value, (list, tuple, set, frozenset)):
            stack.extend((v, depth + 1) for v in value)
        elif depth < _MAX_DEPTH and isinstance(value, Mapping):
            stack.extend((v, depth + 1) for v in value.values())
            stack.extend((k, depth + 1) for k in value if isinstance(k, str))


def guard_call(check: Callable[[str], list[Trip]], func: Callable[P, R]) -> Callable[P, R]:
    """Wrap ``func`` so that it raises StaleReference instead of running on stale strings.

    The wrapper accepts one extra keyword, ``allow_stale=True``, which runs the call anyway.
    """

    @functools.wraps(func)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs.pop("allow_stale", False):
            return func(*args, **kwargs)
        trips: list[Trip] = []
        seen: set[str] = set()
        for text in text_arguments(args, kwargs):
            for trip in check(text):
                if trip.correction.id not in seen:
                    seen.add(trip.correction.id)
                    trips.append(trip)
        if trips:
            raise StaleReference(stale_message(trips), trips=trips)
        return func(*args, **kwargs)

    return guarded
