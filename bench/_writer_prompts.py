"""The writer study's prompts and schemas: what nowline told the model before, and candidates.

``bench/reader.py --writer-variant NAME`` asks the writer and act tasks with one of
:data:`VARIANTS`: a system-prompt section (appended to the agent's own, as
``nowline.surfaces.prompts.SYSTEM_PROMPT`` is) and the ``correct`` tool's descriptions. The
other tools keep the library's schemas. ``library`` is what the library ships now; ``before``
is what it shipped before the study (kept here, word for word, so before and after can be
measured on the same cases); the others are the candidates the study tried on dev cases.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from nowline.surfaces.prompts import SYSTEM_PROMPT, openai_tools

__all__ = ["VARIANTS", "variant"]

# --------------------------------------------------------------------- before the study

PROMPT_BEFORE = """\
## Long-term memory

You have a long-term memory with the tools remember, correct, recall, preview, check and \
retract.

Reading memory:
- Call recall before you act on names, places, accounts, repositories, URLs or people that \
you learned earlier.
- Before you run a command or call a tool with a repository, URL, channel or account that \
you remembered, call check with that exact text. If it names something outdated, use the \
current value from the correction it returns.
- A recalled memory may have lines beneath it that start with "now:". Each such line is the \
newest correction of that memory. Trust it over the memory above it: the memory above is \
history, kept so you can see what changed.

Storing memory:
- Store a new fact with remember. Name things exactly (full repository slugs, URLs, channel \
names, email addresses), so that a later correction can find the memory.
- When you learn that something you stored earlier is no longer true (a repository moved, a \
URL or channel changed, an account changed owner, an email address changed), store the \
change with correct, not with remember, and fill both fields:
  - body: one or two sentences that name the old and the new value, e.g. "Moved from \
metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
  - deprecates: the exact outdated strings, copied character for character as they appear \
in the old memories: repository slugs ("metalcraftai/ufo"), URLs, channel names \
("#ufo-dev"), email addresses, hostnames, account or ticket ids. Each must also appear in \
body.
- Every memory that contains a deprecated string is marked as outdated. So never put generic \
words in deprecates ("repo", "channel", "the project", "ufo", "v2"), and never the new value. \
A person's full name ("Maria Garcia") is specific enough. When unsure what a string would \
reach, call preview first and read which memories it lists.
- If correct answers that no memory names a deprecated string and names a near miss, nothing \
was stored: you probably misspelt the old value or gave the new value instead of the old \
one. Call correct again with the string the memories actually use (the one it names, if it \
is the old value). Set allow_unreached only when the strings are right and no memory names \
the old value yet.
- When the outdated value is a first name, a common word or a bare number (other memories \
use it too), also fill about: the subject it belongs to. Only memories that name a \
deprecated string and an about string are marked. Such a string is refused without about, \
and about must name the subject, not repeat the deprecated string. \
Example: Acme's CEO changed from Michelle to Dana. Call correct with body "Acme's CEO \
changed from Michelle to Dana.", deprecates ["Michelle"] and about ["Acme"]: memories about \
other people named Michelle stay as they are. Also fill about when the old value still \
exists and only stopped holding this role (a former CEO, champion or record holder, a team \
that no longer owns a service): for Amazon's CEO, deprecates ["Jeff Bezos"] and about \
["Amazon"] leaves his other memories alone. Leave about empty for specific strings that \
changed everywhere (repository slugs, URLs, email addresses).
- If a correction turns out to be wrong, call retract with its id. Do not store a \
correction of the correction.

Example: you stored "Deploy alerts go to #ops-deploys." and the user says the channel is now \
#deploys. Call correct with body "The Slack channel #ops-deploys was renamed to #deploys; \
post deploy alerts in #deploys." and deprecates ["#ops-deploys"].
"""

_DEPRECATES_BEFORE = (
    "The exact outdated strings, copied character for character as they appear in the old "
    "memories: repository slugs ('metalcraftai/ufo'), URLs, channel names ('#ufo-dev'), "
    "email addresses, hostnames, account or ticket ids, a person's full name ('Maria "
    "Garcia'). Every stored memory that contains one of them is marked as outdated, so never "
    "use generic words ('repo', 'channel', 'the project', 'v2') and never the new value. Each "
    "string must also appear in body."
)
_ABOUT_BEFORE = (
    "Anchors: the subject the outdated strings belong to. Needed when a deprecated string is "
    "a common word, a first name or a bare number, which other memories also use: without "
    "about such a string is refused. Example: Acme's CEO changed from Michelle to Dana, so "
    "deprecates ['Michelle'] with about ['Acme']: only memories that name Michelle AND Acme "
    "are marked, not every Michelle. Fill it too when the old value still exists but stopped "
    "holding this role (a former CEO or champion). Leave it empty for specific strings that "
    "changed everywhere (slugs, URLs, email addresses). An anchor is another string than "
    "the deprecated one (never the same string or a part of it), and a specific one when "
    "the deprecated string is generic. Anchors match like deprecates (exact string, "
    "case-insensitive, whole words)."
)
_REPLACED_BY_BEFORE = (
    "The new values, what is true now (e.g. ['ufo-ai/ufo']). Optional: nowline reads them "
    "from body when it says 'from OLD to NEW'. A new value is never put in deprecates."
)
_CORRECT_BEFORE = (
    "Store a correction: something you stored earlier is no longer true (a repository, "
    "URL, channel, email address, account or name changed). Nothing is deleted: every "
    "memory that contains one of the deprecates strings is recalled with this correction "
    "directly beneath it. Fill deprecates with the exact outdated strings as they appear "
    "in the old memories (repo slugs, URLs, channel names, emails), never generic words; "
    "each must also appear in body. A common word, first name or bare number is refused "
    "unless about names its subject (deprecates ['Michelle'], about ['Acme']); a person's "
    "full name is specific. If no memory names a deprecates string but the memories name "
    "a near miss (a typo's original, or the old value where you gave the new one), "
    "nothing is stored and the error names it. If unsure what a string would reach, "
    "call preview first."
)
_BODY_BEFORE = (
    "What changed, in one or two sentences that name both the old and the new "
    "value, e.g. 'Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in "
    "ufo-ai/ufo.' This text is shown beneath every outdated memory."
)
SCHEMA_BEFORE = {
    "description": _CORRECT_BEFORE,
    "order": ["body", "deprecates", "about", "replaced_by", "allow_unreached"],
    "body": _BODY_BEFORE,
    "deprecates": _DEPRECATES_BEFORE,
    "about": _ABOUT_BEFORE,
    "replaced_by": _REPLACED_BY_BEFORE,
}

# ------------------------------------------------------------------------- candidates

_READING = """\
## Long-term memory

You have a long-term memory with the tools remember, correct, recall, preview, check and \
retract.

Reading memory:
- Call recall before you act on names, places, accounts, repositories, URLs or people that \
you learned earlier.
- Before you run a command or call a tool with a repository, URL, channel or account that \
you remembered, call check with that exact text. If it names something outdated, use the \
current value from the correction it returns.
- A recalled memory may have lines beneath it that start with "now:". Each such line is the \
newest correction of that memory. Trust it over the memory above it: the memory above is \
history, kept so you can see what changed.
"""

# the prompt before, without the sentences the study questioned: a person's full name is
# specific enough (no longer true: a person needs an anchor), and the copied examples
# (#ops-deploys, Acme, Amazon)
PROMPT_TRIM = (
    _READING
    + """
Storing memory:
- Store a new fact with remember. Name things exactly (full repository slugs, URLs, channel \
names, email addresses), so that a later correction can find the memory.
- When you learn that something you stored earlier is no longer true (a repository moved, a \
URL or channel changed, an account changed owner, an email address changed), store the \
change with correct, not with remember, and fill both fields:
  - body: one or two sentences that name the old and the new value.
  - deprecates: the exact outdated strings, copied character for character as they appear \
in the old memories: repository slugs, URLs, channel names, email addresses, hostnames, \
account or ticket ids. Each must also appear in body.
- Every memory that contains a deprecated string is marked as outdated. So never put generic \
words in deprecates, and never the new value. When unsure what a string would reach, call \
preview first and read which memories it lists.
- If correct refuses, nothing was stored: call correct again with the strings its message \
names.
- When the outdated value is a person's name, a first name, a common word or a bare number, \
also fill about: the role or subject that changed. Only memories that name a deprecated \
string and an about string are marked. Leave about empty for specific strings that changed \
everywhere (repository slugs, URLs, email addresses).
- If a correction turns out to be wrong, call retract with its id. Do not store a \
correction of the correction.
"""
)

_STORE_SHORT = """
Storing memory:
- Store a new fact with remember. Name things exactly (full repository slugs, URLs, channel \
names, email addresses).
- When the user says something changed (moved, renamed, replaced, a new owner or value), \
call correct, not remember or recall:
  - body: the change in the user's words, naming the old and the new value.
  - deprecates: the old values, copied exactly from the user's words. Never the new value.
  - replaced_by: the new values.
  - about: leave it empty, unless an old value is a person's name, a first name, a common \
word or a number: then the role or subject that changed, copied from the user's words.
- If correct refuses, nothing was stored: call correct again with what its message suggests.
- If a correction turns out to be wrong, call retract with its id.
"""
PROMPT_SHORT = _READING + _STORE_SHORT

SCHEMA_SHORT = {
    "description": "Store a change: something stored earlier is no longer true (moved, "
    "renamed, replaced, a new owner or value). Nothing is deleted: every memory that contains "
    "a deprecates string is shown with this correction beneath it. If it refuses, nothing was "
    "stored; its message says what to send instead.",
    "order": ["body", "deprecates", "replaced_by", "about", "allow_unreached"],
    "body": "The change in one or two sentences that name the old and the new value (the "
    "user's own words are best). Shown beneath every outdated memory.",
    "deprecates": "The old values, copied exactly (a repository, URL, channel, email "
    "address, host, name or number). Never the new value. Each must appear in body.",
    "replaced_by": "The new values: what is true now.",
    "about": "Usually empty. Only when an old value is a person's name, a first name, a common "
    "word or a number: the role or subject that changed, copied from body. Never a part of "
    "an old value.",
}


# the library's prompt with the change instruction first and firmer: the small model answered
# 5 of 30 fresh changes with recall, remember or retract instead of correct
_CHANGE_LINE = (
    "- When the user says something changed (moved, renamed, replaced, a new owner or value), "
    "call correct, not remember or recall:\n"
)
_CHANGE_FIRST = (
    "- When the user tells you that something changed (it moved, was renamed, replaced, "
    "handed over or switched off, or has a new address, owner or value), your first call is "
    "correct, at once: do not recall, remember or retract first.\n"
    "- Fill correct's fields so:\n"
)
PROMPT_FIRST = SYSTEM_PROMPT.replace(_CHANGE_LINE, _CHANGE_FIRST)
assert PROMPT_FIRST != SYSTEM_PROMPT

_RECALL_NOT_STORE = (
    " Not for a change the user tells you (something moved, was renamed or has a new value): "
    "store that with correct."
)


# the library's prompt with one sentence after recall's: the first calls of blind3 to blind5
# were recall 10, 10 and 13 times in 30 (dev's, where `first` was chosen against: 2 in 34)
_RECALL_LINE = (
    "- Call recall before you act on names, places, accounts, repositories, URLs or people that "
    "you learned earlier.\n"
)
_RECALL_SCOPED = _RECALL_LINE + (
    "- When the user tells you that something changed, do not recall first: call correct.\n"
)
PROMPT_SCOPE = SYSTEM_PROMPT.replace(_RECALL_LINE, _RECALL_SCOPED)
assert PROMPT_SCOPE != SYSTEM_PROMPT


def _tools(
    schema: dict[str, Any] | None,
    *,
    append: dict[str, str] | None = None,
    first: str | None = None,
) -> list[dict[str, Any]]:
    """Return the library's tools with the ``correct`` tool's texts and field order replaced.

    ``append`` adds a sentence to other tools' descriptions (by name); ``first`` offers that
    tool first.
    """
    tools = openai_tools()
    for tool in tools:
        fn = tool["function"]
        if append and fn["name"] in append:
            fn["description"] = fn["description"] + append[fn["name"]]
    if first is not None:
        tools.sort(key=lambda t: t["function"]["name"] != first)
    if schema is None:
        return tools
    for tool in tools:
        fn = tool["function"]
        if fn["name"] != "correct":
            continue
        fn["description"] = schema["description"]
        props = fn["parameters"]["properties"]
        for key in ("body", "deprecates", "about", "replaced_by"):
            props[key] = dict(props[key], description=schema[key])
        fn["parameters"]["properties"] = {k: props[k] for k in schema["order"] if k in props}
    return copy.deepcopy(tools)


# the library's about line and field, asking for a word the old memories use: a small model's
# anchors were descriptions of the subject ("Harbor API rate limit", "Node version") that no
# memory names
_ABOUT_LINE = (
    "  - about: leave it empty, unless an old value is a person's name, a first name, a common "
    "word or a number: then the role or subject that changed, copied from the user's words.\n"
)
_ABOUT_WORDS = (
    "  - about: leave it empty, unless an old value is a person's name, a first name, a common "
    "word or a number: then one or two words of the user's message that name what it belongs "
    "to (the product, team, company or role), as the old memories would write them.\n"
)
PROMPT_ABOUT_WORDS = SYSTEM_PROMPT.replace(_ABOUT_LINE, _ABOUT_WORDS)
assert PROMPT_ABOUT_WORDS != SYSTEM_PROMPT
_ABOUT_WORDS_FIELD = (
    "Usually empty. Only when an old value is a person's name, a first name, a common word or "
    "a number: one or two words of body naming what it belongs to (the product, team, company "
    "or role), as the old memories would write them. Never a part of an old value."
)


def _described(tool: str, field: str, description: str) -> list[dict[str, Any]]:
    """Return the library's tools with one field of one tool described otherwise."""
    tools = openai_tools()
    for spec in tools:
        fn = spec["function"]
        if fn["name"] == tool:
            props = fn["parameters"]["properties"]
            props[field] = dict(props[field], description=description)
    return tools


def _about_words() -> tuple[str, list[dict[str, Any]]]:
    return PROMPT_ABOUT_WORDS, _described("correct", "about", _ABOUT_WORDS_FIELD)


# recall's query as it was before the library took "the user's own words" (measured: fresh
# writer cases 15 and 16 right with it, 17 and 20 without; dev 20 and 23 either way)
_RECALL_QUERY_FEW = "What to recall, in a few words or a question."


def _recall_few() -> tuple[str, list[dict[str, Any]]]:
    return SYSTEM_PROMPT, _described("recall", "query", _RECALL_QUERY_FEW)


VARIANTS: dict[str, Callable[[], tuple[str, list[dict[str, Any]]]]] = {
    "library": lambda: (SYSTEM_PROMPT, openai_tools()),
    "before": lambda: (PROMPT_BEFORE, _tools(SCHEMA_BEFORE)),
    "trim": lambda: (PROMPT_TRIM, _tools(SCHEMA_BEFORE)),
    "short": lambda: (PROMPT_SHORT, _tools(SCHEMA_BEFORE)),
    "before+schema": lambda: (PROMPT_BEFORE, _tools(SCHEMA_SHORT)),
    "short+schema": lambda: (PROMPT_SHORT, _tools(SCHEMA_SHORT)),
    "first": lambda: (PROMPT_FIRST, _tools(None, append={"recall": _RECALL_NOT_STORE})),
    "first+order": lambda: (
        PROMPT_FIRST,
        _tools(None, append={"recall": _RECALL_NOT_STORE}, first="correct"),
    ),
    "about-words": _about_words,
    "scope": lambda: (PROMPT_SCOPE, openai_tools()),
    "recall-few": _recall_few,
}
"""Each variant's system-prompt section and tools (OpenAI's format)."""


def variant(name: str) -> tuple[str, list[dict[str, Any]]]:
    """Return a variant's system-prompt section and tools."""
    if name not in VARIANTS:
        raise SystemExit(f"unknown writer variant {name!r}; choose from {list(VARIANTS)}")
    return VARIANTS[name]()
