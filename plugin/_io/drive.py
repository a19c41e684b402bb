"""The one loop that runs a generator of steps: nowline's sans-I/O driver.

nowline's read and write paths (:mod:`nowline._flows`) and the memory tools' runners
(:mod:`nowline.tools`) are generators: each yields a step it needs carried out (a Chroma
operation; a call of a collection method), receives the step's result, and has a step's failure
thrown into it, so it can clean up, or turn the failure into its answer, or let it go on.
:func:`drive` carries the steps out with blocking calls, :func:`drive_async` awaits them; the
generator is the same for both, so a sync and an async surface share every rule.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from typing import Any, TypeVar, cast

__all__ = ["drive", "drive_async"]

S = TypeVar("S")
T = TypeVar("T")


def drive(steps: Generator[S, Any, T], execute: Callable[[S], Any]) -> T:
    """Run ``steps`` to completion, carrying out each step with ``execute``.

    Every exception ``execute`` raises, ``KeyboardInterrupt`` included, is thrown into the
    generator at the step that asked for it: the generator may clean up and re-raise it (a
    write path releases what it holds), answer it and go on, or not catch it, and then it
    leaves this function unchanged.

    Args:
        steps: a generator that yields steps and receives their results.
        execute: carries out one step and returns its result.

    Returns:
        What the generator returns.
    """
    try:
        step = next(steps)
        while True:
            try:
                result = execute(step)
            except BaseException as exc:  # the steps may clean up, answer it or let it go on
                step = steps.throw(exc)
            else:
                step = steps.send(result)
    except StopIteration as stop:
        return cast(T, stop.value)


async def drive_async(steps: Generator[S, Any, T], execute: Callable[[S], Awaitable[Any]]) -> T:
    """Run ``steps`` to completion, awaiting each step's ``execute``, as :func:`drive` does.

    A cancellation (``CancelledError``) met while a step is awaited is thrown into the
    generator like any failure, so it can clean up; it leaves this function unchanged.

    Args:
        steps: a generator that yields steps and receives their results.
        execute: carries out one step; its awaitable gives the result.

    Returns:
        What the generator returns.
    """
    try:
        step = next(steps)
        while True:
            try:
                result = await execute(step)
            except BaseException as exc:
                step = steps.throw(exc)
            else:
                step = steps.send(result)
    except StopIteration as stop:
        return cast(T, stop.value)
