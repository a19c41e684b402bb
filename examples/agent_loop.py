"""An agent loop with nowline-backed memory tools, driven by a FAKE model (no network, no LLM).

The loop is what you would write around a real chat model: it sends nowline's system-prompt section
(`nowline.surfaces.prompts.SYSTEM_PROMPT`) and the tool schemas
(`nowline.surfaces.prompts.openai_tools()`, OpenAI chat-completions format), and dispatches each
tool call to a nowline collection with `nowline.surfaces.tools.run_tool`. `FakeModel` stands in for
the LLM: it follows a fixed script and makes the tool calls a model makes when it follows the
prompt. To use a real model, replace
`FakeModel.complete` with a call to your provider and keep the rest.

Run it: python examples/agent_loop.py
"""

from __future__ import annotations

import json
import tempfile
from typing import Any, NamedTuple

import chromadb

import nowline
from nowline.surfaces.prompts import SYSTEM_PROMPT, openai_tools
from nowline.surfaces.tools import run_tool

Message = dict[str, Any]

USER_TURNS = [
    "Remember: UFO core lives at metalcraftai/ufo, and PR #1705 passed review there.",
    "Also remember that release notes are drafted in the metalcraftai/ufo wiki.",
    "Heads up: UFO core moved. It is ufo-ai/ufo now.",
    "Where do I open the release PR for UFO core?",
]


class ToolCall(NamedTuple):
    """A tool call as a chat model returns it (arguments are JSON text)."""

    id: str
    name: str
    arguments: str


class Reply(NamedTuple):
    """A chat model's reply: text, or tool calls to run first."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()


class FakeModel:
    """A STAND-IN FOR AN LLM: a scripted model, so this example runs offline.

    It reads the last message and replies as a model that follows nowline's system prompt
    would: `remember` for new facts, `preview` then `correct` (with the exact outdated string
    in `deprecates`) for a change, and `recall` before answering a question, trusting a
    `now:` line over the memory above it.
    """

    def __init__(self) -> None:
        """Start with no calls made."""
        self._calls = 0

    def complete(self, messages: list[Message], tools: list[dict[str, Any]]) -> Reply:
        """Return the next reply for this conversation."""
        assert messages[0]["role"] == "system" and SYSTEM_PROMPT in messages[0]["content"]
        assert {t["function"]["name"] for t in tools} >= {"remember", "correct", "recall"}
        last = messages[-1]
        if last["role"] == "tool":
            return self._after_tool(messages, last)
        text = last["content"]
        if text.startswith(("Remember:", "Also remember")):
            fact = text.removeprefix("Remember:").removeprefix("Also remember that").strip()
            return self._call("remember", body=fact[0].upper() + fact[1:])
        if "moved" in text:
            return self._call("preview", deprecates=["metalcraftai/ufo"])
        return self._call("recall", query="UFO core repository release PR", k=3)

    def _after_tool(self, messages: list[Message], last: Message) -> Reply:
        """Reply once a tool result is in."""
        name = next(
            call["function"]["name"]
            for m in reversed(messages)
            for call in m.get("tool_calls") or []
            if call["id"] == last["tool_call_id"]
        )
        if name == "preview":
            return self._call(
                "correct",
                body="UFO core moved from metalcraftai/ufo to ufo-ai/ufo; "
                "do GitHub work in ufo-ai/ufo.",
                deprecates=["metalcraftai/ufo"],
            )
        if name == "recall":
            now = [ln for ln in last["content"].splitlines() if ln.strip().startswith("now:")]
            if now:
                newest = now[0].strip().removeprefix("now:").strip()
                return Reply(f"Open it in ufo-ai/ufo. (Memory, newest correction: {newest})")
            return Reply("Open it in metalcraftai/ufo.")
        return Reply("Noted.")

    def _call(self, name: str, **arguments: Any) -> Reply:
        """Return a reply with one tool call."""
        self._calls += 1
        return Reply(tool_calls=(ToolCall(f"call_{self._calls}", name, json.dumps(arguments)),))


def run_turn(
    model: FakeModel, memory: nowline.Collection, messages: list[Message], user: str
) -> str:
    """Run one user turn: call the model, run its tool calls, repeat until it answers."""
    messages.append({"role": "user", "content": user})
    print(f"user>  {user}")
    tools = openai_tools()
    for _ in range(8):  # a bound on tool rounds per turn
        reply = model.complete(messages, tools)
        if not reply.tool_calls:
            messages.append({"role": "assistant", "content": reply.content})
            print(f"model> {reply.content}\n")
            return reply.content or ""
        messages.append(
            {
                "role": "assistant",
                "content": reply.content,
                "tool_calls": [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": c.arguments},
                    }
                    for c in reply.tool_calls
                ],
            }
        )
        for call in reply.tool_calls:
            print(f"  tool call   {call.name}({call.arguments})")
            result = run_tool(memory, call.name, json.loads(call.arguments))
            print("  tool result " + result.text.replace("\n", "\n              "))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result.text})
    raise RuntimeError("The model kept calling tools; stopping this turn.")


def run_agent(memory: nowline.Collection) -> list[str]:
    """Play the scripted conversation against ``memory``; return the model's answers."""
    model = FakeModel()
    messages: list[Message] = [
        {"role": "system", "content": "You are a coding agent.\n\n" + SYSTEM_PROMPT}
    ]
    return [run_turn(model, memory, messages, turn) for turn in USER_TURNS]


def main() -> None:
    """Run the agent on a fresh store in a temporary folder (nowline's offline model)."""
    with tempfile.TemporaryDirectory() as path:
        memory = nowline.wrap(chromadb.PersistentClient(path=path)).create_collection("agent")
        answers = run_agent(memory)
        assert answers[-1].startswith("Open it in ufo-ai/ufo"), answers[-1]


if __name__ == "__main__":
    main()
