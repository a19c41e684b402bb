"""One line of a JSON Lines file (``jsonl.read_object``): the rule both importers share.

``nowline import`` (memories, :func:`nowline.surfaces.jsonl.plan`) and ``nowline import --from
github-events`` (:func:`nowline.surfaces.github_events.read_line`) read their lines with this one
function, so a line that is not a JSON object is refused with the same words by both.
"""

from __future__ import annotations

import json

import pytest

from nowline import InvalidInput
from nowline.requests import Audience
from nowline.surfaces.github_events import plan_lines
from nowline.surfaces.jsonl import plan, read_object


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('{"text": "a"', "not valid JSON (Expecting ',' delimiter at column 13)"),
        ("", "not valid JSON (Expecting value at column 1)"),
        (b"\xff{}", "not valid JSON (byte 0 is not UTF-8); save the file as UTF-8"),
        ("[1, 2]", "got an array"),
        ('"text"', "got a string"),
        ("1.5", "got a number"),
        ("true", "got true or false"),
        ("null", "got null"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply to read"),
        ('{"a": ' * 5_000 + "1" + "}" * 5_000, "nested too deeply to read"),
    ],
)
def test_a_line_that_is_no_json_object_is_refused_saying_why(line: str | bytes, said: str) -> None:
    """Bad JSON and JSON values other than objects raise InvalidInput naming the problem."""
    with pytest.raises(InvalidInput) as caught:
        read_object(line)
    assert said in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_an_object_line_is_read_as_python_json_reads_it() -> None:
    """An object comes back as a dict, bytes or text, with NaN and big integers as json has them."""
    got = read_object(b'{"n": 18446744073709551616, "x": NaN, "t": "a"}\n')
    assert got["n"] == 2**64 and isinstance(got["n"], int)
    assert got["x"] != got["x"] and got["t"] == "a"


def test_both_importers_refuse_a_non_object_line_with_the_same_words() -> None:
    """The memories plan and the events plan give the same reason for the same bad line."""
    lines = ["[1, 2]", '{"text": "a"', "null", "[" * 100_000]
    memories = [bad.message for bad in plan(lines).bad]
    events = [reason for _, reason in plan_lines(lines, Audience(), received_at=0).bad]
    assert memories == events == [str(_refusal(line)) for line in lines]
    assert all(isinstance(bad.error, InvalidInput) for bad in plan(lines).bad)


def _refusal(line: str) -> InvalidInput:
    """Return the InvalidInput ``read_object`` raises for ``line``."""
    try:
        read_object(line)
    except InvalidInput as exc:
        return exc
    raise AssertionError(json.dumps(line))
