"""The one driver loop (``nowline.drive``, ``nowline.drive_async``), with no store at all.

The collections' read and write paths and the memory tools' runners are generators of steps;
these tests drive small generators with plain functions and check what the loop promises:
results sent back, failures thrown in at the step that asked, and what the generator does
not catch (``KeyboardInterrupt``, a cancellation) leaving the loop unchanged after clean-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

import pytest

import nowline
from nowline.surfaces.tools import run_tool, run_tool_async


def _sum(log: list[str]) -> Generator[int, int, int]:
    """Ask for three steps and return the sum of their results; log the clean-up."""
    try:
        total = 0
        for step in (1, 2, 3):
            total += yield step
        return total
    finally:
        log.append("cleaned up")


def _answering() -> Generator[str, Any, str]:
    """Ask for a step that fails and answer the failure, then ask for one more step."""
    try:
        yield "fails"
    except LookupError as exc:
        answer = yield f"after {exc.args[0]}"
        return str(answer)
    return "not reached"


def _fail_on(name: str) -> Any:
    """Return an execute that fails on the step ``name`` and echoes every other step."""

    def execute(step: str) -> str:
        if step == name:
            raise LookupError(step)
        return step.upper()

    return execute


def test_drive_sends_each_result_back_and_returns_the_value() -> None:
    """Every step's result goes back into the generator; its return value comes out."""
    log: list[str] = []
    assert nowline.drive(_sum(log), lambda step: step * 10) == 60
    assert log == ["cleaned up"]


def test_drive_throws_a_failure_in_at_the_step_that_asked() -> None:
    """A step's exception is thrown into the generator, which may answer it and go on."""
    assert nowline.drive(_answering(), _fail_on("fails")) == "AFTER FAILS"


def test_drive_lets_an_uncaught_interrupt_out_unchanged_after_clean_up() -> None:
    """A ``KeyboardInterrupt`` of a step reaches the generator's clean-up, then the caller."""
    log: list[str] = []
    stop = KeyboardInterrupt()

    def execute(step: int) -> int:
        if step == 2:
            raise stop
        return step

    with pytest.raises(KeyboardInterrupt) as caught:
        nowline.drive(_sum(log), execute)
    assert caught.value is stop and log == ["cleaned up"]


def test_drive_async_awaits_each_step_and_throws_failures_in() -> None:
    """The async loop awaits every step and treats results and failures as ``drive`` does."""

    async def times_ten(step: int) -> int:
        await asyncio.sleep(0)
        return step * 10

    async def failing(step: str) -> str:
        return _fail_on("fails")(step)  # type: ignore[no-any-return]

    log: list[str] = []
    assert asyncio.run(nowline.drive_async(_sum(log), times_ten)) == 60
    assert asyncio.run(nowline.drive_async(_answering(), failing)) == "AFTER FAILS"
    assert log == ["cleaned up"]


def test_drive_async_lets_a_cancellation_out_after_clean_up() -> None:
    """A task cancelled while a step is awaited cleans the generator up and ends cancelled."""
    log: list[str] = []

    async def main() -> None:
        started = asyncio.Event()

        async def slow(step: int) -> int:
            started.set()
            await asyncio.sleep(60)
            return step

        task = asyncio.create_task(nowline.drive_async(_sum(log), slow))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert log == ["cleaned up"]


class _Interrupted:
    """A stand-in collection whose ``recall`` raises what it is given (sync or async)."""

    scope_key = None
    scope_keys: frozenset[str] = frozenset()

    def __init__(self, exc: BaseException, *, awaited: bool = False) -> None:
        """Raise ``exc`` from ``recall``; as a coroutine if ``awaited``."""
        self._exc = exc
        self._awaited = awaited

    def recall(self, *args: Any, **kwargs: Any) -> Any:
        """Raise the exception, now or when awaited."""
        if not self._awaited:
            raise self._exc

        async def fail() -> None:
            raise self._exc

        return fail()


def test_a_tool_call_interrupted_mid_step_raises_rather_than_answering() -> None:
    """``KeyboardInterrupt`` and a cancellation leave the tool runners as they came in."""
    stop = KeyboardInterrupt()
    with pytest.raises(KeyboardInterrupt) as caught:
        run_tool(_Interrupted(stop), "recall", {"query": "q"})  # type: ignore[arg-type]
    assert caught.value is stop
    cancel = asyncio.CancelledError()
    collection = _Interrupted(cancel, awaited=True)
    with pytest.raises(asyncio.CancelledError) as cancelled:
        asyncio.run(run_tool_async(collection, "recall", {"query": "q"}))  # type: ignore[arg-type]
    assert cancelled.value is cancel
