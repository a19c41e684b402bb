"""Coding agents' tool hooks: one hook event in, the agent's decision out (no I/O here).

Claude Code runs a command before and after each tool call and hands it the event as JSON on
stdin (``hook_event_name``, ``tool_name``, ``tool_input``, and after the call
``tool_response``); Codex's hooks speak the same JSON. ``nowline hook`` is that command: it
reads the event with :func:`parse_event`, checks the event's strings with
``Collection.check()``, and prints what :func:`decide` returns.

* ``PreToolUse``: when a string anywhere in ``tool_input`` names an outdated value, the call is
  denied (``permissionDecision: "deny"``) with a reason written for the model: what is outdated,
  the now-lines, and what to do, so that it can fix its own call. What the call removes is not
  checked (an edit's ``old_string``, the ``-`` lines of an ``apply_patch`` patch): an edit that
  takes an outdated string out of a file is the fix, not a stale action.
* ``PostToolUse``: when a string anywhere in ``tool_response`` (a Bash result is an object with
  ``stdout`` and ``stderr``) names one, the now-lines go back to the model as
  ``additionalContext``, beside the stale result.
* ``UserPromptSubmit``: the user's ``prompt`` is read before the model sees it. When it names
  an outdated value, the now-lines go to the model as ``additionalContext``; when it states
  a change that no correction holds yet (:func:`nowline.tools.message_note`), so does the
  ``correct`` call that stores it. A model told of a change tends to ``recall`` a few words
  of it, which are too few to read the change from; the whole message is not.
* Nothing outdated: no output at all.

>>> event = parse_event('{"hook_event_name": "PreToolUse", "tool_name": "Bash", '
...                     '"tool_input": {"command": "git clone acme/app"}}')
>>> event.strings
('command', 'git clone acme/app')
>>> decide(event, []) is None
True
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput
from ..models import stale_message, trip_lines
from ..render import format_lines

if TYPE_CHECKING:
    from ..models import Trip

__all__ = [
    "AGENTS",
    "EVENTS",
    "POST_TOOL_USE",
    "PRE_TOOL_USE",
    "USER_PROMPT_SUBMIT",
    "HookEvent",
    "context_text",
    "decide",
    "deny_reason",
    "hook_settings",
    "is_message_event",
    "json_strings",
    "merged_settings",
    "parse_event",
    "prompt_context",
]

PRE_TOOL_USE = "PreToolUse"
"""The event before a tool runs: its ``tool_input`` is checked, and a stale call is denied."""

POST_TOOL_USE = "PostToolUse"
"""The event after a tool ran: its ``tool_response`` is checked, and the now-lines added."""

USER_PROMPT_SUBMIT = "UserPromptSubmit"
"""The event when the user sends a message: its ``prompt`` is read before the model sees it."""

EVENTS = (PRE_TOOL_USE, POST_TOOL_USE, USER_PROMPT_SUBMIT)
"""The hook events nowline handles; register ``nowline hook`` under these only."""

_TOOL_EVENTS = (PRE_TOOL_USE, POST_TOOL_USE)
_PAYLOAD = {
    PRE_TOOL_USE: "tool_input",
    POST_TOOL_USE: "tool_response",
    USER_PROMPT_SUBMIT: "prompt",
}

# What a call removes is not checked: an edit that takes an outdated string out is the fix.
# Claude Code's Edit and MultiEdit name the replaced text old_string; Codex's apply_patch
# carries a patch whose removed lines start with "-".
_REMOVED_KEYS = frozenset({"old_string"})
_PATCH_TOOLS = frozenset({"apply_patch"})


@dataclass(frozen=True)
class HookEvent:
    """One hook event, as far as nowline reads it.

    Attributes:
        name: ``PreToolUse``, ``PostToolUse`` or ``UserPromptSubmit``.
        tool_name: the tool's name (``Bash``, ``Edit``, ``mcp__server__tool``, ...); "" for
            ``UserPromptSubmit``.
        strings: every string of the checked part (``tool_input`` before the call,
            ``tool_response`` after it), nested values included, in document order; the
            user's message alone for ``UserPromptSubmit``.
    """

    name: str
    tool_name: str
    strings: tuple[str, ...]

    @property
    def text(self) -> str:
        """Return the strings as one text to check, one per line."""
        return "\n".join(self.strings)


# A repository given in two arguments, as GitHub's MCP servers pass it (``owner`` and ``repo``
# for create_issue, push_files, fork_repository...): read as ``owner/repo`` too.
_OWNER_KEYS = ("owner", "org", "organization")
_REPO_KEYS = ("repo", "repository", "name")


def _repositories(item: Mapping[Any, Any]) -> list[str]:
    """Return ``owner/repo`` for each owner and repository an object gives as two strings."""
    owners = [v for k in _OWNER_KEYS if isinstance(v := item.get(k), str) and v.strip()]
    repos = [v for k in _REPO_KEYS if isinstance(v := item.get(k), str) and v.strip()]
    return [f"{o.strip()}/{r.strip()}" for o in owners for r in repos]


def json_strings(value: Any, *, skip: frozenset[str] = frozenset()) -> Iterator[str]:
    """Yield every string in parsed JSON, object keys included, in document order.

    JSON has no cycles, so every level is looked into (a tool's arguments can nest deeply).
    The values of object keys in ``skip`` are left out (the keys themselves are yielded). An
    object that names a repository in two strings (``owner`` and ``repo``, ``org`` and
    ``name``, ``owner`` and ``repository``) also yields ``owner/repo``, before its own strings.
    """
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, Mapping):
            for key, inner in reversed(list(item.items())):
                if key not in skip:
                    stack.append(inner)
                stack.append(key)
            yield from _repositories(item)
        elif isinstance(item, list):
            stack.extend(reversed(item))


def _without_removed_lines(patch: str) -> str:
    """Return a patch without the lines it removes (``-`` lines; ``---`` headers stay)."""
    return "\n".join(
        line for line in patch.split("\n") if not line.startswith("-") or line.startswith("---")
    )


def _without_lone_surrogates(text: str) -> str:
    r"""Return ``text`` with each lone surrogate (JSON can escape one: ``\ud800``) as ``?``."""
    return text.encode("utf-8", "replace").decode("utf-8")


def is_message_event(data: str | bytes) -> bool:
    """Return whether ``data`` is a JSON object whose ``hook_event_name`` is UserPromptSubmit.

    The hook decides with it how to fail: a tool call it cannot check is blocked, a message
    goes ahead. Anything unreadable is not a message event.
    """
    try:
        obj = json.loads(data)
    except ValueError:
        return False
    return isinstance(obj, dict) and obj.get("hook_event_name") == USER_PROMPT_SUBMIT


def parse_event(data: str | bytes) -> HookEvent:
    """Read one hook event (Claude Code's JSON, which Codex shares).

    Args:
        data: the JSON the agent wrote to the hook's stdin.

    Returns:
        The event's name, its tool, and the strings to check.

    Raises:
        InvalidInput: the data is not a JSON object, or not a ``PreToolUse``,
            ``PostToolUse`` or ``UserPromptSubmit`` event with the part nowline checks.
    """
    try:
        obj = json.loads(data)
    except ValueError as exc:  # JSONDecodeError, or bytes that are not UTF-8/16/32
        raise InvalidInput(
            f"the hook event on stdin is not JSON ({exc}); nowline hook reads one tool hook "
            "event, as the agent writes it."
        ) from None
    if not isinstance(obj, dict):
        raise InvalidInput(
            f"the hook event on stdin is a JSON {type(obj).__name__}, not an object; nowline "
            "hook reads one tool hook event, as the agent writes it."
        )
    name = obj.get("hook_event_name")
    if name not in EVENTS:
        raise InvalidInput(
            f"nowline hook handles the {', '.join(EVENTS)} events, not {name!r}: register "
            "it under those events only."
        )
    if name == USER_PROMPT_SUBMIT:
        prompt = obj.get("prompt")
        if not isinstance(prompt, str):
            raise InvalidInput(f"the {name} event has no prompt string.")
        text = _without_lone_surrogates(prompt)
        return HookEvent(name=name, tool_name="", strings=(text,) if text else ())
    tool = obj.get("tool_name")
    if not isinstance(tool, str):
        raise InvalidInput(f"the {name} event has no tool_name string.")
    key = _PAYLOAD[name]
    if key not in obj:
        raise InvalidInput(f"the {name} event has no {key}.")
    found = json_strings(obj[key], skip=_REMOVED_KEYS if name == PRE_TOOL_USE else frozenset())
    if name == PRE_TOOL_USE and tool in _PATCH_TOOLS:
        found = (_without_removed_lines(s) for s in found)
    strings = tuple(_without_lone_surrogates(s) for s in found if s)
    return HookEvent(name=name, tool_name=tool, strings=strings)


def _names(trips: Sequence[Trip]) -> str:
    """Return the outdated strings the trips name, quoted and sorted."""
    return ", ".join(repr(n) for n in sorted({o.phrase for t in trips for o in t.occurrences}))


def deny_reason(tool_name: str, trips: Sequence[Trip]) -> str:
    """Return why a tool call is denied, for the model: what is outdated, the lines, what to do.

    Args:
        tool_name: the tool the call was for.
        trips: what ``check()`` returned for the call's input (not empty).
    """
    return (
        f"nowline stopped this {tool_name} call: it names something outdated.\n"
        + stale_message(list(trips), override=None)
        + "\nRewrite this call with it and run it again. If the old value is really meant (for "
        "example to look at the old location on purpose), tell the user instead of retrying."
    )


def context_text(tool_name: str, trips: Sequence[Trip]) -> str:
    """Return the context added to a tool result that names outdated strings.

    Args:
        tool_name: the tool whose result it is.
        trips: what ``check()`` returned for the result (not empty).
    """
    return _named_outdated(
        f"this {tool_name} result",
        trips,
        "Treat those strings in the result as superseded and use the current values.",
    )


def _named_outdated(what: str, trips: Sequence[Trip], advice: str) -> str:
    """Return the context for a text that names outdated strings: which, the lines, advice."""
    return "\n".join(
        [
            f"nowline: {what} names outdated strings ({_names(trips)}). The corrections:",
            *format_lines(trip_lines(list(trips))),
            advice,
        ]
    )


def prompt_context(trips: Sequence[Trip], note: str = "") -> str:
    """Return the context added to a user's message: its outdated strings, then the note.

    Args:
        trips: what ``check()`` returned for the message.
        note: what :func:`nowline.tools.message_note` returned for it ("" for nothing).
    """
    parts = []
    if trips:
        parts.append(
            _named_outdated(
                "the user's message",
                trips,
                "Use the current values, unless the user means the old ones on purpose.",
            )
        )
    if note:
        parts.append(note)
    return "\n".join(parts)


def decide(event: HookEvent, trips: Sequence[Trip], note: str = "") -> dict[str, Any] | None:
    """Return the hook's output for an event and what its text trips, or None for no output.

    Args:
        event: the event, from :func:`parse_event`.
        trips: what ``check(event.text)`` returned.
        note: for ``UserPromptSubmit``, what :func:`nowline.tools.message_note` returned for
            the message ("" for nothing); ignored for the tool events.

    Returns:
        The JSON object to print (``hookSpecificOutput``), or None when there is nothing to
        say (nothing outdated and, for a message, no note).
    """
    if event.name == USER_PROMPT_SUBMIT:
        if not trips and not note:
            return None
        return {
            "hookSpecificOutput": {
                "hookEventName": USER_PROMPT_SUBMIT,
                "additionalContext": prompt_context(trips, note),
            }
        }
    if not trips:
        return None
    if event.name == PRE_TOOL_USE:
        return {
            "hookSpecificOutput": {
                "hookEventName": PRE_TOOL_USE,
                "permissionDecision": "deny",
                "permissionDecisionReason": deny_reason(event.tool_name, trips),
            }
        }
    return {
        "hookSpecificOutput": {
            "hookEventName": POST_TOOL_USE,
            "additionalContext": context_text(event.tool_name, trips),
        }
    }


# ------------------------------------------------------------------------ the agent's settings

AGENTS = {"claude-code": "*", "codex": "Bash|apply_patch|mcp__.*"}
"""The agents whose settings nowline writes, each with the matcher of tools it hooks."""

_TIMEOUT = 30  # seconds an agent waits for the hook


def hook_settings(agent: str, command: Sequence[str], *, messages: bool = False) -> dict[str, Any]:
    """Return the hook settings of ``agent`` that run ``command`` around each tool call.

    ``PreToolUse`` and ``PostToolUse`` carry the agent's matcher of tools. With ``messages``
    the hook also runs on each user message (``UserPromptSubmit``, which has no tool, so its
    entry has no matcher): opt-in, as its note proposes a ``correct`` call that a small model
    makes whether or not the message states a change (docs/tool-boundary.md).

    Args:
        agent: ``claude-code`` (``.claude/settings.json``) or ``codex`` (``.codex/hooks.json``).
        command: the hook's command line, absolute paths first (an agent runs it through a
            shell that may lack the virtualenv on its ``PATH``: a missing command exits 127,
            which the agent treats as a non-blocking error, and the stale call would run).
        messages: register the hook on ``UserPromptSubmit`` too.

    Raises:
        InvalidInput: an agent nowline does not know.
    """
    if agent not in AGENTS:
        raise InvalidInput(f"unknown agent {agent!r}: give one of {', '.join(AGENTS)}.")
    line = " ".join(shlex.quote(part) for part in command)
    hooks = [{"type": "command", "command": line, "timeout": _TIMEOUT}]
    out: dict[str, Any] = {
        event: [{"matcher": AGENTS[agent], "hooks": [dict(h) for h in hooks]}]
        for event in _TOOL_EVENTS
    }
    if messages:
        out[USER_PROMPT_SUBMIT] = [{"hooks": [dict(h) for h in hooks]}]
    return {"hooks": out}


def _is_nowline(entry: Any) -> bool:
    """Return whether a matcher entry of an agent's settings runs ``nowline hook``."""
    hooks = entry.get("hooks") if isinstance(entry, dict) else None
    return isinstance(hooks, list) and any(
        isinstance(h, dict)
        and isinstance(h.get("command"), str)
        and "nowline" in h["command"]
        and " hook" in h["command"]
        for h in hooks
    )


def merged_settings(existing: Any, new: Mapping[str, Any]) -> dict[str, Any]:
    """Return an agent's settings with nowline's hooks of ``new`` in place of any earlier ones.

    Every other setting and hook is kept as it is; an earlier ``nowline hook`` entry of
    nowline's events is replaced by ``new``'s (so a changed path never leaves two hooks), or
    removed where ``new`` has none for that event (settings written again without
    ``--messages`` no longer run it on each message).

    Raises:
        InvalidInput: the settings are not a JSON object, or their ``hooks`` is not one.
    """
    if not isinstance(existing, dict):
        raise InvalidInput("the settings file does not hold a JSON object; fix or move it first.")
    out = dict(existing)
    hooks = out.get("hooks", {})
    if not isinstance(hooks, dict):
        raise InvalidInput('the settings file\'s "hooks" is not a JSON object; fix it first.')
    hooks = dict(hooks)
    for event in EVENTS:
        if event not in hooks and event not in new["hooks"]:
            continue
        kept = hooks.get(event, [])
        if not isinstance(kept, list):
            raise InvalidInput(f'the settings file\'s "hooks.{event}" is not a list; fix it first.')
        others = [e for e in kept if not _is_nowline(e)]
        if event in new["hooks"]:
            hooks[event] = others + list(new["hooks"][event])
        elif others or not kept:
            hooks[event] = others
        else:
            del hooks[event]  # nowline's entries were all there was
    out["hooks"] = hooks
    return out
