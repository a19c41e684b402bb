"""Terms (``nowline.terms``): every refusal names the way forward in the caller's words."""

from __future__ import annotations

import asyncio
import threading

from nowline.terms import CLI_TERMS, HTTP_TERMS, PYTHON_TERMS, TOOL_TERMS, active, using


def test_each_surface_spells_an_allowance_its_own_way() -> None:
    """Python takes keywords, the CLI flags; the tools and HTTP offer no such override."""
    assert PYTHON_TERMS.say("allow_absent") == "allow_absent=True"
    assert CLI_TERMS.say("allow_absent") == "--allow-absent"
    assert TOOL_TERMS.say("allow_absent") is None and HTTP_TERMS.say("allow_absent") is None
    assert TOOL_TERMS.say("allow_unreached") is None  # the tools offer no switch at all
    assert CLI_TERMS.or_switch("allow_generic") == "; --allow-generic accepts it anyway"
    assert TOOL_TERMS.or_switch("allow_generic") == ""


def test_fields_and_scopes_take_their_example() -> None:
    """A field is spelled with its example value, a scope with its key."""
    assert PYTHON_TERMS.say("about", value="'Acme'") == "about=['Acme']"
    assert CLI_TERMS.say("about", value="'Acme'") == "--about 'Acme'"
    assert TOOL_TERMS.say("about", value="'Acme'") == "about ['Acme']"
    assert HTTP_TERMS.say("about", value='"Acme"') == '"about": ["Acme"]'
    assert PYTHON_TERMS.give("about", ["Acme", "it's"]) == "about=['Acme', \"it's\"]"
    assert CLI_TERMS.give("deprecates", ["a/b", "#c d"]) == "--deprecates a/b --deprecates '#c d'"
    assert TOOL_TERMS.give("about", ['say "x"']) == 'about ["say \\"x\\""]'
    assert HTTP_TERMS.give("replaced_by", ["x"]) == '"replaced_by": ["x"]'
    assert TOOL_TERMS.give("allow_generic", ["x"]) is None
    assert PYTHON_TERMS.say("scope", key="user_id") == "metadata={'user_id': <value>}"
    assert CLI_TERMS.say("scope", key="user_id") == "--scope VALUE"


def test_the_library_speaks_python_unless_a_surface_says_otherwise() -> None:
    """Outside a ``using`` block the words are Python's; inside, the surface's; after, Python's."""
    assert active() is PYTHON_TERMS
    with using(CLI_TERMS):
        assert active() is CLI_TERMS
        with using(TOOL_TERMS):
            assert active() is TOOL_TERMS
        assert active() is CLI_TERMS
    assert active() is PYTHON_TERMS


def test_threads_and_tasks_keep_their_own_words() -> None:
    """A thread started elsewhere speaks Python; a worker thread of a task keeps the task's."""
    seen: list[str] = []
    with using(CLI_TERMS):
        thread = threading.Thread(target=lambda: seen.append(active().name))
        thread.start()
        thread.join()

    async def task() -> str:
        with using(TOOL_TERMS):
            return await asyncio.to_thread(lambda: active().name)

    assert seen == ["python"]
    assert asyncio.run(task()) == "tools"
