"""Terms: how each surface spells nowline's options, so every message uses the caller's words.

A refusal says what to send instead: ``allow_absent=True`` to a Python caller,
``--allow-absent`` on the command line, a field of the tool call to a model. The rules raise
their errors deep inside a call, far from the surface that made it, so the surface says which
words it speaks (:func:`using`), and a rule that words a message asks :func:`active` how to
spell an option. An option a surface does not offer is left out of the message altogether
(a model cannot pass ``allow_generic``; telling it to would only send it astray).

The words of a surface live in one :class:`Terms` value each (:data:`PYTHON_TERMS`,
:data:`CLI_TERMS`, :data:`TOOL_TERMS`, :data:`HTTP_TERMS`, :data:`JSONL_TERMS`); the active one
is a context variable, so threads and tasks that serve different surfaces at once never mix
them, and a worker thread started with ``asyncio.to_thread`` keeps its caller's.
"""

from __future__ import annotations

import contextvars
import json
import shlex
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = [
    "CLI_TERMS",
    "HTTP_TERMS",
    "JSONL_TERMS",
    "PYTHON_TERMS",
    "TOOL_TERMS",
    "Terms",
    "active",
    "using",
]


@dataclass(frozen=True)
class Terms:
    """How one surface spells nowline's options, fields and verbs in its messages.

    Attributes:
        name: the surface (``python``, ``cli``, ``tools``, ``http``).
        words: a term -> how the caller says it there, with ``{value}`` (an example value) or
            ``{key}`` (a scope key) where they go. The terms: the allowances
            (``allow_absent``, ``allow_generic``, ``allow_unreached``, ``allow_stale``,
            ``max_reach``, ``create``), a correction's fields (``deprecates``, ``about``,
            ``replaced_by``), the scope (``scope``, ``scope_key``), where a framework keeps
            a record's text (``text_key``, with ``{key}``) and nowline's verbs
            (``preview``, ``retract`` with ``{id}``). A term a surface does not offer is
            missing.
        fields: a parameter -> how the caller names it (``--observed-at`` on the command
            line, ``"id"`` in a JSON line); a parameter not listed keeps its own name.
    """

    name: str
    words: Mapping[str, str] = field(default_factory=dict)
    fields: Mapping[str, str] = field(default_factory=dict)

    def name_of(self, parameter: str) -> str:
        """Return how the caller names ``parameter`` (an option or a field) in a message."""
        return self.fields.get(parameter, parameter)

    def listed(self, values: Iterable[str]) -> str:
        """Return values as the caller writes several.

        A Python list (``['a', 'b']``), shell-quoted words on the command line (``a, '#b'``),
        a JSON array for tool calls and JSON (``["a", "#b"]``).
        """
        items = list(values)
        if self.name == "cli":
            return ", ".join(shlex.quote(v) for v in items)
        return repr(items) if self.name == "python" else json.dumps(items, ensure_ascii=False)

    def say(self, term: str, **values: str) -> str | None:
        """Return how the caller says ``term`` (formatted with ``values``), or None."""
        spelled = self.words.get(term)
        return None if spelled is None else spelled.format(**values)

    def give(self, term: str, values: Iterable[str]) -> str | None:
        """Return how the caller gives ``term`` the ``values``, ready to copy, or None.

        Python and its reprs (``deprecates=['a', 'b']``); the command line repeats the flag,
        each value quoted for the shell (``--deprecates a --deprecates '#b'``); tool calls
        and JSON bodies take a JSON list (``"deprecates": ["a", "#b"]``).
        """
        spelled = self.words.get(term)
        if spelled is None:
            return None
        listed = list(values)
        if self.name == "cli":
            return " ".join(spelled.format(value=shlex.quote(v)) for v in listed)
        quote = repr if self.name == "python" else json.dumps
        return spelled.format(value=", ".join(quote(v) for v in listed))

    def or_switch(self, option: str, effect: str = "accepts it anyway") -> str:
        """Return "; <how to turn option on> <effect>" where it is offered, else ""."""
        spelled = self.say(option)
        return f"; {spelled} {effect}" if spelled else ""


_SWITCHES = ("allow_absent", "allow_generic", "allow_person", "allow_unreached")
_OPTIONS = (
    "about",
    "as_of",
    "deprecates",
    "id",
    "max_reach",
    "metadata",
    "observed_at",
    "replaced_by",
    "scope",
    "scope_key",
)  # the parameters that are options of the same name on the command line

PYTHON_TERMS = Terms(
    "python",
    {
        **{o: f"{o}=True" for o in (*_SWITCHES, "allow_stale", "create")},
        "max_reach": "a larger max_reach",
        "text": "text",
        "about": "about=[{value}]",
        "deprecates": "deprecates=[{value}]",
        "replaced_by": "replaced_by=[{value}]",
        "scope": "metadata={{{key!r}: <value>}}",
        "scope_key": "scope_key={key!r}",
        "text_key": "nowline.wrap(..., text_key={key!r})",
        "preview": "preview()",
        "retract": "retract({id!r})",
    },
)
"""The library's words: keyword arguments (``allow_absent=True``, ``about=['Acme']``)."""

CLI_TERMS = Terms(
    "cli",
    {
        **{o: "--" + o.replace("_", "-") for o in (*_SWITCHES, "create")},
        "max_reach": "a larger --max-reach",
        "text": "TEXT",
        "about": "--about {value}",
        "deprecates": "--deprecates {value}",
        "replaced_by": "--replaced-by {value}",
        "scope": "--scope VALUE",
        "scope_key": "--scope-key {key}",
        "preview": "nowline preview",
        "retract": "nowline retract PATH {id}",
    },
    {
        **{p: "--" + p.replace("_", "-") for p in _OPTIONS},
        "text": "TEXT",
        "n_results": "-k",
    },
)
"""The command line's words: flags (``--allow-absent``, ``--about 'Acme'``)."""

TOOL_TERMS = Terms(
    "tools",
    {
        "text": "body",
        "about": "about [{value}]",
        "deprecates": "deprecates [{value}]",
        "replaced_by": "replaced_by [{value}]",
        "preview": "the preview tool",
        "retract": "the retract tool with id {id}",
    },
)
"""A model's words: the memory tools' fields (``about ['Acme']``); no Python override."""

HTTP_TERMS = Terms(
    "http",
    {
        "text": "body",
        "about": '"about": [{value}]',
        "deprecates": '"deprecates": [{value}]',
        "replaced_by": '"replaced_by": [{value}]',
        "scope": '"{key}": <value>',
    },
)
"""A JSON body's words: its fields (``"about": ["Acme"]``); no override is offered there."""

JSONL_TERMS = Terms(
    "jsonl",
    {
        **{k: v for k, v in CLI_TERMS.words.items() if k.startswith("allow_") or k == "max_reach"},
        **HTTP_TERMS.words,
        "text": '"text"',
        "preview": CLI_TERMS.words["preview"],
        "retract": CLI_TERMS.words["retract"],
    },
    {k: CLI_TERMS.name_of(k) for k in ("max_reach", "scope_key")},
)
"""``nowline import``'s words: a line's fields (``"about": ["Acme"]``), the command's flags."""

_active: contextvars.ContextVar[Terms] = contextvars.ContextVar("terms", default=PYTHON_TERMS)


def active() -> Terms:
    """Return the words of the surface being served (the library's, unless one said otherwise)."""
    return _active.get()


@contextmanager
def using(terms: Terms) -> Iterator[Terms]:
    """Word every message raised inside the block in ``terms`` (a surface's own words)."""
    token = _active.set(terms)
    try:
        yield terms
    finally:
        _active.reset(token)
