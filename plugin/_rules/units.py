"""The units a number carries: one home for the wording reader and the generic-string rule.

The wording reader (:mod:`.wording`) takes "300 req/min" for one number with its unit, and the
generic-string rule (:mod:`.generic`) takes it for a phrase of a number and a unit, not an
identifier. Both read the unit from here, so that they agree; this module imports nothing, so
neither pays for the other's import (``generic`` is loaded on every write, ``wording`` lazily on
the hook's deny path).
"""

from __future__ import annotations

__all__ = ["PER_TIME"]

PER_TIME = r"[^\W\d_]{1,8}/(?:s|sec|min|h|hr|hour|d|day|wk|week|mo|month|yr|year)\b"
"""A unit per time after a number ("300 req/min", "100 MB/s", "2 GB/day"), as a pattern."""
