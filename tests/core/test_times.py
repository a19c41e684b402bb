"""observed_at parsing into epoch seconds."""

from __future__ import annotations

import math
from datetime import date, datetime, timezone

import pytest

from nowline import InvalidInput
from nowline._rules.times import to_epoch


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-06-01", 1717200000.0),
        ("2024-06-01T00:00:00Z", 1717200000.0),
        ("2024-06-01T02:00:00+02:00", 1717200000.0),
        (1717200000, 1717200000.0),
        ("1717200000.5", 1717200000.5),
        (datetime(2024, 6, 1, tzinfo=timezone.utc), 1717200000.0),
        (datetime(2024, 6, 1), 1717200000.0),
        (date(2024, 6, 1), 1717200000.0),
    ],
)
def test_times_parse_to_epoch_seconds(value: object, expected: float) -> None:
    """ISO 8601 text, epoch seconds and datetimes all become UTC epoch seconds."""
    assert to_epoch(value) == expected


@pytest.mark.parametrize("value", [math.nan, math.inf, 1e20, -1e20, True, "soon", [], None])
def test_bad_times_are_rejected(value: object) -> None:
    """Unusable times raise InvalidInput with a hint."""
    with pytest.raises(InvalidInput):
        to_epoch(value)
