"""Terms (``nowline._rules.terms``): every refusal names the way forward in the caller's words."""

from __future__ import annotations

import asyncio
import threading

from nowline._rules.terms import CLI, HTTP, PYTHON, TOOLS, active, using


def test_each_surface_spells_an_allowance_its_own_way() -> None:
    """Python takes keywords, the CLI flags; the tools and HTTP offer no such override."""
    assert PYTHON.say("allow_absent") == "allow_absent=True"
    assert CLI.say("allow_absent") == "--allow-absent"
    assert TOOLS.say("allow_absent") is None and HTTP.say("allow_absent") is None
    assert TOOLS.say("allow_unreached") == "allow_unreached true"
    assert CLI.or_switch("allow_generic") == "; --allow-generic accepts it anyway"
    assert TOOLS.or_switch("allow_generic") == ""


def test_fields_and_scopes_take_their_example() -> None:
    """A field is spelled with its example value, a scope with its key."""
    assert PYTHON.say("about", value="'Acme'") == "about=['Acme']"
    assert CLI.say("about", value="'Acme'") == "--about 'Acme'"
    assert TOOLS.say("about", value="'Acme'") == "about ['Acme']"
    assert HTTP.say("about", value='"Acme"') == '"about": ["Acme"]'
    assert PYTHON.say("scope", key="user_id") == "metadata={'user_id': <value>}"
    assert CLI.say("scope", key="user_id") == "--scope VALUE"


def test_the_library_speaks_python_unless_a_surface_says_otherwise() -> None:
    """Outside a ``using`` block the words are Python's; inside, the surface's; after, Python's."""
    assert active() is PYTHON
    with using(CLI):
        assert active() is CLI
        with using(TOOLS):
            assert active() is TOOLS
        assert active() is CLI
    assert active() is PYTHON


def test_threads_and_tasks_keep_their_own_words() -> None:
    """A thread started elsewhere speaks Python; a worker thread of a task keeps the task's."""
    seen: list[str] = []
    with using(CLI):
        thread = threading.Thread(target=lambda: seen.append(active().name))
        thread.start()
        thread.join()

    async def task() -> str:
        with using(TOOLS):
            return await asyncio.to_thread(lambda: active().name)

    assert seen == ["python"]
    assert asyncio.run(task()) == "tools"
