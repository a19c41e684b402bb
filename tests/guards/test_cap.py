"""Lean, bounded model text (issue 23 item 4): a rendered hit shows at most MAX_HIT_CHARS.

A memory's own text is cut, with a mark naming the record's id; the labelled lines beneath a
stale hit are shown in full, under every hit.
"""

from __future__ import annotations

import pytest

import nowline
from nowline.render import CUT_MARK, MAX_HIT_CHARS, NOW_PREFIX, cap_text

LOG = "deploy step ok; " * 70_000  # about 1.1 MB


@pytest.fixture
def big(memory: nowline.Collection) -> nowline.Collection:
    """Return a store with a 1.1 MB memory naming a moved repository, and its correction."""
    memory.remember("Build log of metalcraftai/ufo: " + LOG, id="log")
    memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
    memory.correct(
        "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; " + "details " * 400,
        deprecates=["metalcraftai/ufo"],
        id="c",
    )
    return memory


def test_a_long_memory_is_cut_with_its_id(big: nowline.Collection) -> None:
    """The rendered recall of a 1.1 MB memory stays near the cap and names the record."""
    text = nowline.Recall(query="log", hits=big.hits(["log", "pr"])).render()
    assert len(text) < 2 * MAX_HIT_CHARS + 2 * len(big.hits(["c"])[0].document or "") + 500
    assert "more characters cut; the whole memory is record 'log']" in text
    assert big.hits(["log"])[0].document == "Build log of metalcraftai/ufo: " + LOG


def test_the_now_line_is_never_cut(big: nowline.Collection) -> None:
    """A correction longer than the cap is shown whole beneath every stale hit."""
    text = nowline.Recall(query="ufo", hits=big.hits(["log", "pr"])).render()
    correction = big.hits(["c"])[0].document or ""
    assert len(correction) > MAX_HIT_CHARS
    now_lines = [line for line in text.splitlines() if line.startswith(NOW_PREFIX)]
    assert len(now_lines) == 2
    assert all(line == NOW_PREFIX + " ".join(correction.split()) for line in now_lines)


def test_text_within_the_cap_is_unchanged() -> None:
    """A memory of MAX_HIT_CHARS characters or fewer is rendered as stored."""
    text = "x" * MAX_HIT_CHARS
    assert cap_text(text, "r") == text


def test_the_cut_falls_at_a_space_and_counts_what_it_left_out() -> None:
    """The cut falls at a nearby space, and the mark says how many characters were left out."""
    text = "word " * 1000
    capped = cap_text(text, "r")
    head, mark = capped.split(" [", 1)
    assert head.endswith("word") and len(head) <= MAX_HIT_CHARS
    assert " [" + mark == CUT_MARK.format(more=len(text) - len(head), id="r")


def test_the_cut_never_separates_a_mark_from_its_letter() -> None:
    """A cut never falls just before a combining mark."""
    text = "e\u0301" * MAX_HIT_CHARS
    head = cap_text(text, "r").split(" [", 1)[0]
    assert head.endswith("\u0301")
