"""The writer benchmark's case types: what every split module builds its cases from.

``Prior`` (a correction stored before the model's call), ``WriterCase`` (a stated change, its
memories, and which are stale) and ``writer_case`` (a case whose memories a and b are stale and
c must stay). They live apart from ``_writer.py``, which gathers the splits, so that a split's
module imports them without importing the module that imports it (the blind splits' writers
read these definitions when they were in ``_writer.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Prior", "WriterCase", "writer_case"]


@dataclass(frozen=True)
class Prior:
    """A correction stored before the model's call (the change that a change back undoes)."""

    text: str
    deprecates: tuple[str, ...]
    replaced_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class WriterCase:
    """A change the user states, the memories already stored, and which of them are stale."""

    key: str
    message: str
    memories: tuple[tuple[str, str], ...]
    stale: frozenset[str]
    new: tuple[str, ...]  # the new value(s): never to be deprecated
    kind: str = ""
    prior: tuple[Prior, ...] = ()
    gold: dict[str, Any] = field(default_factory=dict)  # a right call's arguments (no body)


def writer_case(
    key: str,
    kind: str,
    message: str,
    a: str,
    b: str,
    c: str,
    new: tuple[str, ...],
    deprecates: tuple[str, ...],
    about: tuple[str, ...] = (),
    prior: tuple[Prior, ...] = (),
    *,
    gold_names_new: bool = False,
) -> WriterCase:
    """Return a case whose memories a and b are stale and c must stay as it is.

    ``gold_names_new``: the gold call gives the new values ``new`` as ``replaced_by``.
    """
    gold: dict[str, Any] = {"deprecates": list(deprecates)}
    if gold_names_new:
        gold["replaced_by"] = list(new)
    if about:
        gold["about"] = list(about)
    return WriterCase(
        key, message, (("a", a), ("b", b), ("c", c)), frozenset("ab"), new, kind, prior, gold
    )
