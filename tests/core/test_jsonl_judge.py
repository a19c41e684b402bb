"""``jsonl.judge``: an import's corrections judged against the store before any write.

A refusal there must be one the import would meet: the file's earlier lines are not in the
store yet, so where they could lift a refusal (a reach limit taken of a larger store, a string
that they name), the judge accepts, and the write judges the line as it meets it.
"""

from __future__ import annotations

import json

import pytest

import nowline
from nowline.surfaces import jsonl


def _plan(*rows: dict[str, object]) -> jsonl.Plan:
    """Return the plan of these rows, one JSON line each."""
    return jsonl.plan(json.dumps(r) for r in rows)


def test_a_refusal_is_named_with_its_line_and_nothing_is_written(
    memory: nowline.Collection,
) -> None:
    """write() judges first: the refused line is listed, and the memory before it is not written."""
    memory.add(ids=["x", "y"], documents=["Clone acme/one.", "acme/one docs."])
    planned = _plan(
        {"id": "a", "text": "A memory."},
        {"id": "c", "text": "Moved from acme/one to acme/two.", "deprecates": ["acme/one"]},
    )
    refused = jsonl.judge(memory, planned, max_reach=1)
    assert [(b.line, "would reach 2 of 2 records (limit 1)" in b.message) for b in refused] == [
        (2, True)
    ]
    with pytest.raises(jsonl.Stopped) as caught:
        jsonl.write(memory, planned, max_reach=1)
    assert caught.value.written == 0 and caught.value.line == 2
    assert [b.line for b in caught.value.refused] == [2]
    assert isinstance(caught.value, nowline.NowlineError) and isinstance(caught.value, ValueError)
    assert sorted(memory.get()["ids"]) == ["x", "y"]


def test_a_share_is_taken_of_the_store_and_the_lines_before(memory: nowline.Collection) -> None:
    """120 of 120 records is over a quarter; with 400 lines before it, the import accepts it."""
    memory.add(
        ids=[f"m{i}" for i in range(120)], documents=[f"acme/one note {i}" for i in range(120)]
    )
    fix = {"id": "c", "text": "Moved from acme/one to acme/two.", "deprecates": ["acme/one"]}
    alone = _plan(fix)
    assert [b.line for b in jsonl.judge(memory, alone, max_reach=0.25)] == [1]
    after = _plan(*({"text": f"Other note {i}."} for i in range(400)), fix)
    assert jsonl.judge(memory, after, max_reach=0.25) == []
    assert jsonl.write(memory, after, max_reach=0.25) == 401  # the write agrees


def test_a_string_an_earlier_line_names_is_not_judged_unreached(
    memory: nowline.Collection,
) -> None:
    """The store names a near miss only, but the file's own memory names the string."""
    memory.add(ids=["w"], documents=["The wiki is wiki.northwind.dev."])
    fix = {
        "id": "c",
        "text": "The wiki moved off wiki.nortwind.dev.",
        "deprecates": ["wiki.nortwind.dev"],
    }
    assert [b.line for b in jsonl.judge(memory, _plan(fix))] == [1]
    planned = _plan({"id": "m", "text": "Old notes at wiki.nortwind.dev."}, fix)
    assert jsonl.judge(memory, planned) == []
    assert jsonl.write(memory, planned) == 2
    meta = memory.raw.get(ids=["m"], include=["metadatas"])["metadatas"] or [{}]
    assert meta[0]["nowline_by"] == ["c"]


def test_an_earlier_line_names_a_url_in_another_spelling(memory: nowline.Collection) -> None:
    """The judge reads the file's lines by the registry's rule: a URL names its bare path.

    A correction that deprecates ``https://github.com/acme/app2`` reaches the file's memory
    that writes ``acme/app2`` (a code forge's repository without its host), so the judge
    must not call it unreached where the store names a near miss; another host's path is no
    such line.
    """
    memory.add(ids=["w"], documents=["Deploy https://github.com/acme/appp2 on Fridays."])
    url = "https://github.com/acme/app2"
    fix = {"id": "c", "text": f"{url} is archived.", "deprecates": [url]}
    mirror = _plan({"id": "m", "text": "The mirror is gitlab.com/acme/app2."}, fix)
    assert [b.line for b in jsonl.judge(memory, mirror)] == [2]
    planned = _plan({"id": "m", "text": "CI runs in acme/app2."}, fix)
    assert jsonl.judge(memory, planned) == []
    assert jsonl.write(memory, planned) == 2
    meta = memory.raw.get(ids=["m"], include=["metadatas"])["metadatas"] or [{}]
    assert meta[0]["nowline_by"] == ["c"]


def test_lines_after_an_upsert_are_judged_as_they_are_written(
    memory: nowline.Collection,
) -> None:
    """A line that replaces a stored record changes what a preview reads: the judge stops there."""
    memory.add(ids=["x", "y"], documents=["Clone acme/one.", "acme/one docs."])
    planned = jsonl.against(
        _plan(
            {"id": "y", "text": "Replaced: nothing about it now."},
            {"id": "c", "text": "Moved from acme/one to acme/two.", "deprecates": ["acme/one"]},
        ),
        memory,
        "upsert",
    )
    assert jsonl.judge(memory, planned, max_reach=1) == []
    assert jsonl.write(memory, planned, max_reach=1) == 2  # y no longer names acme/one
