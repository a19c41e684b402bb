"""The shared scenario of the framework tests: two memories, one correction, one sibling.

Every framework test stores the stale memory and its sibling, writes the correction through
the framework, and checks what the framework hands a model: the now-line beneath the stale
memory, nothing on the sibling ``metalcraftai/ufo-hosted``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import nowline
from tests.conftest import FakeEmbedding

STALE = "metalcraftai/ufo: PR #1705 passed review."
SIBLING = "metalcraftai/ufo-hosted deploys on Fridays."
FIX = "UFO core moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
DEPRECATES = ["metalcraftai/ufo"]
QUERY = "ufo PR #1705 review"
NOW_LINE = f"now: {FIX}"

_fake = FakeEmbedding()


def vector(text: str) -> list[float]:
    """Return the deterministic test embedding of one text."""
    return [float(x) for x in _fake([text])[0]]


def vectors(texts: list[str]) -> list[list[float]]:
    """Return the deterministic test embeddings of several texts."""
    return [vector(text) for text in texts]


def check(by_text: dict[str, str]) -> None:
    """Assert the scenario on what a framework returned: {original memory: text handed on}."""
    assert NOW_LINE in by_text[STALE], by_text[STALE]
    assert by_text[SIBLING] == SIBLING


def original(text: str) -> str:
    """Return which memory of the scenario a returned text is (the stale one may be annotated)."""
    for memory in (SIBLING, FIX, STALE):
        if text.startswith(memory):
            return memory
    raise AssertionError(f"not a memory of the scenario: {text!r}")


@pytest.fixture
def instrumented() -> Iterator[None]:
    """Instrument the process for one test; uninstrument after it, also on failure."""
    nowline.instrument()
    try:
        yield
    finally:
        nowline.uninstrument()
