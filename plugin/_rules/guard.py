"""Guarding actions: stop a tool call before it runs on a superseded string."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, ParamSpec, TypeVar

from ..errors import StaleReference
from ..models import Trip, stale_message

__all__ = [
    "guard_call",
    "merge_trips",
    "raise_if_stale",
    "text_arguments",
]

P = ParamSpec("P")
R = TypeVar("R")

# Strings nested deeper than this inside a tool call's arguments are not inspected.
_MAX_DEPTH = 4


def merge_trips(groups: Iterable[Iterable[Trip]]) -> list[Trip]:
    """Return the trips of several checked texts, one per correction (its first trip kept)."""
    out: dict[str, Trip] = {}
    for trips in groups:
        for trip in trips:
            out.setdefault(trip.correction.id, trip)
    return list(out.values())


def raise_if_stale(groups: Iterable[Iterable[Trip]], *, override: str | None) -> None:
    """Raise StaleReference if the checked texts trip corrections (one trip per correction).

    Args:
        groups: the trips of each checked text.
        override: as for :func:`stale_message`.
    """
    trips = merge_trips(groups)
    if trips:
        raise StaleReference(stale_message(trips, override=override), trips=trips)


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
        checked = (check(text) for text in text_arguments(args, kwargs))
        raise_if_stale(checked, override="allow_stale=True")
        return func(*args, **kwargs)

    return guarded
