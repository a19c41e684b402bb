"""Record times: nowline's one clock, and parsing ``observed_at`` values into epoch seconds."""

from __future__ import annotations

import math
import os
import time
from datetime import date, datetime, timezone

from ..errors import InvalidInput
from ..terms import active

__all__ = ["CLOCK_OFFSET_VARIABLE", "now", "stored_time", "to_epoch"]

CLOCK_OFFSET_VARIABLE = "NOWLINE_CLOCK_OFFSET"
"""Seconds added to this process's wall clock, read once (tests simulate a clock that is off)."""


def _offset() -> float:
    """Return the clock offset the environment sets (0 when unset or not a finite number)."""
    raw = os.environ.get(CLOCK_OFFSET_VARIABLE, "")
    try:
        value = float(raw) if raw.strip() else 0.0
    except ValueError:
        return 0.0
    return value if math.isfinite(value) else 0.0


_OFFSET = _offset()


def stored_time(seconds: float) -> float:
    """Return ``seconds`` as a float that a Chroma store gives back unchanged.

    chromadb 1.5.9 returns about one float metadata value in eight one step of the last bit
    away from what was written (``1796337570.9158401`` reads back as ``1796337570.91584``),
    so a time nowline held in memory and the same time read from the store would differ, and
    every read would look like a change of the correction. Times are therefore held to the
    microsecond (fifteen significant digits beyond the years 1843 to 2096), which every one
    of 45,000 measured values survived.
    """
    if abs(seconds) < 4e9:
        return round(seconds, 6)
    return float(f"{seconds:.15g}")


def now() -> float:
    """Return the wall-clock time in epoch seconds: nowline's one time source.

    Every time nowline writes (a record's time, a write stamp, a retraction) comes from here.
    ``NOWLINE_CLOCK_OFFSET`` shifts it, so that a test can run a process whose clock is
    ahead or behind the others', as happens between machines. To the microsecond
    (:func:`stored_time`).
    """
    return stored_time(time.time() + _OFFSET)


# datetime can represent years 1..9999; anything outside cannot be an observation time.
_MIN = datetime(1, 1, 2, tzinfo=timezone.utc).timestamp()
_MAX = datetime(9999, 12, 30, tzinfo=timezone.utc).timestamp()


def to_epoch(value: object, *, what: str = "observed_at") -> float:
    """Return ``value`` (ISO 8601 text, epoch seconds or a datetime) as epoch seconds.

    Naive datetimes and ISO strings without an offset are taken as UTC.

    Raises:
        InvalidInput: the value is of another type, not finite, unparsable or out of range.
    """
    what = active().name_of(what)  # the caller's name of the parameter (--observed-at)
    if isinstance(value, bool):
        raise InvalidInput(f"{what} must be ISO 8601 text or epoch seconds, not a bool.")
    if isinstance(value, (int, float)):
        try:
            seconds = float(value)
        except OverflowError:
            seconds = math.inf
    elif isinstance(value, datetime):
        dt = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
        seconds = dt.timestamp()
    elif isinstance(value, date):
        seconds = datetime(value.year, value.month, value.day, tzinfo=timezone.utc).timestamp()
    elif isinstance(value, str):
        seconds = _parse_text(value, what)
    else:
        raise InvalidInput(
            f"{what} must be ISO 8601 text (e.g. '2025-03-01T12:00:00Z') or epoch seconds, "
            f"not {type(value).__name__}."
        )
    if not math.isfinite(seconds) or not _MIN <= seconds <= _MAX:
        raise InvalidInput(
            f"{what}={value!r} is not a usable time; give a finite time between the years "
            "1 and 9999."
        )
    return stored_time(seconds)


def _parse_text(text: str, what: str) -> float:
    """Parse ISO 8601 text (or a decimal number of epoch seconds)."""
    s = text.strip()
    try:
        return float(s)
    except ValueError:
        pass
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(s)
    except ValueError:
        raise InvalidInput(
            f"{what}={text!r} is not ISO 8601; write it like '2025-03-01' or "
            "'2025-03-01T12:00:00+00:00', or give epoch seconds."
        ) from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    try:
        return dt.timestamp()
    except (OverflowError, ValueError):
        raise InvalidInput(f"{what}={text!r} is out of range.") from None
