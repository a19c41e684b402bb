"""The units a number carries (``nowline._rules.units``): one pattern, read by two rules."""

from __future__ import annotations

import re

import pytest

from nowline._rules.generic import is_identifier
from nowline._rules.units import PER_TIME
from nowline._rules.wording import old_values, stated_things


@pytest.mark.parametrize("unit", ["req/min", "MB/s", "GB/day", "calls/hour", "jobs/wk", "€/month"])
def test_a_unit_per_time_is_one(unit: str) -> None:
    """A unit over a unit of time is a unit; a slug or a path is not."""
    if unit[0].isalpha():
        assert re.fullmatch(PER_TIME, unit, re.IGNORECASE)
    else:
        assert not re.fullmatch(PER_TIME, unit)  # a currency sign is no unit word


@pytest.mark.parametrize("text", ["acme/web", "acme/min-api", "ops/dayshift"])
def test_a_slug_is_no_unit(text: str) -> None:
    """A slug whose second part begins like a unit of time is no unit per time.

    ("docs/h" is one: the rules read the pattern only after a number.)
    """
    assert not re.fullmatch(PER_TIME, text, re.IGNORECASE)


def test_the_wording_and_the_generic_rule_agree() -> None:
    """'300 req/min' is one number with its unit to the reader, and no identifier to the rule."""
    text = "The API rate limit went from 300 req/min to 900 req/min."
    assert stated_things(text) == ("300 req/min", "900 req/min")
    assert old_values(text) == ("300 req/min",)
    assert not is_identifier("300 req/min")
