"""Prompt guidance and function-calling schemas that make a model use ``deprecates`` well.

nowline only helps if the model stores a correction with the exact outdated strings in
``deprecates``. Where the model is told how to do that matters. The published incident report
nowline was built against (it reached the project without a link; see the docs' home page, "The
incident") reports, for a production model it does not name, that the model filled
``deprecates`` correctly

- 27 of 30 times with the guidance in its **system prompt** (this module's
  :data:`SYSTEM_PROMPT`),
- 19 of 30 times with the guidance only in the **tool description**, and
- 5 of 18 times with the **bare field** and no guidance.

These are the report's figures, not ours. What we measured ourselves, with a small local model
(far weaker than a production one) given this prompt and these tools, is in
``bench/results/reader.test.writer.md`` and ``bench/reader.md`` (the writer and act tasks):
each sentence of :data:`SYSTEM_PROMPT` and of the ``correct`` schema is there because that
benchmark kept it.

So put :data:`SYSTEM_PROMPT` into the system prompt of any agent that has nowline-backed
memory tools, and offer the tools with the schemas from :func:`openai_tools` or
:func:`anthropic_tools`. The schemas come from the same pydantic models
(:mod:`nowline.tools`) as the MCP server's tools, and their descriptions repeat the guidance.

This module imports only pydantic and nowline.

>>> from nowline.prompts import SYSTEM_PROMPT, anthropic_tools  # doctest: +SKIP
>>> client.messages.create(system=BASE_PROMPT + SYSTEM_PROMPT, tools=anthropic_tools(), ...)
"""

from __future__ import annotations

from typing import Any

from nowline.surfaces.tools import TOOLS, input_schema

__all__ = ["SYSTEM_PROMPT", "anthropic_tools", "openai_tools"]

SYSTEM_PROMPT = """\
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
"""The system-prompt section that teaches a model to store corrections with ``deprecates``.

Append it to the agent's own system prompt. It names the tools of :mod:`nowline.tools`.
"""


def openai_tools() -> list[dict[str, Any]]:
    """Return the memory tools in OpenAI's function-calling format.

    Each entry is ``{"type": "function", "function": {"name", "description",
    "parameters"}}``, as the Chat Completions API takes in ``tools``. ``parameters`` is the
    JSON schema of the tool's pydantic input model, the same schema the MCP server offers.
    A fresh list is built on every call, so callers may change it.

    Returns:
        One dict per tool, in the order of :data:`nowline.tools.TOOLS`.
    """
    return [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": input_schema(spec.input_model),
            },
        }
        for spec in TOOLS
    ]


def anthropic_tools() -> list[dict[str, Any]]:
    """Return the memory tools in Anthropic's tool-use format.

    Each entry is ``{"name", "description", "input_schema"}``, as the Messages API takes in
    ``tools``. ``input_schema`` is the JSON schema of the tool's pydantic input model, the
    same schema the MCP server offers. A fresh list is built on every call.

    Returns:
        One dict per tool, in the order of :data:`nowline.tools.TOOLS`.
    """
    return [
        {
            "name": spec.name,
            "description": spec.description,
            "input_schema": input_schema(spec.input_model),
        }
        for spec in TOOLS
    ]
