"""The guards of DESIGN §6 on every surface: the same refusal, nothing stored, the caller's words.

Each case is written through the library, the command line, the memory tools, the MCP server,
a JSON Lines import and the receiver's ``/corrections`` endpoint (a real uvicorn server on a
loopback port), each on a real store. A refusal stores nothing, names the way forward, and
speaks the surface's own words: flags on the command line, fields to a model or in a JSON body,
never a Python keyword where Python is not spoken.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import Client

import nowline
from nowline.surfaces.mcp_server import build_server
from nowline.surfaces.tools import run_tool
from tests.cli.conftest import invoke
from tests.conftest import snapshot
from tests.serve.conftest import post_correction, serve


@dataclass(frozen=True)
class Outcome:
    """What a surface answered: stored or not, and its message."""

    stored: bool
    message: str


Write = Callable[..., Outcome]

# Python's spelling of an override or a field, which no other surface may show.
PYTHON_WORDS = re.compile(r"\ballow_\w+=True|\babout=\[|\bdeprecates=\[|\bmax_reach\b|\(\)")


def _library(col: nowline.Collection, store_path: str, tmp: Path, **call: Any) -> Outcome:
    text = call.pop("text")
    try:
        report = col.correct(text, **call)
    except nowline.InvalidCorrection as exc:
        return Outcome(False, str(exc))
    return Outcome(True, " ".join(report.notes))


def _cli(col: nowline.Collection, store_path: str, tmp: Path, **call: Any) -> Outcome:
    args = ["correct", store_path, call["text"]]
    for flag, key in (("-d", "deprecates"), ("-a", "about"), ("-r", "replaced_by")):
        for value in call.get(key) or ():
            args += [flag, value]
    result = invoke(*args)
    assert result.exit_code in (0, 1), result.output
    return Outcome(result.exit_code == 0, result.output)


def _tool_args(call: dict[str, Any]) -> dict[str, Any]:
    args = {"body": call["text"], "deprecates": call["deprecates"]}
    for key in ("about", "replaced_by"):
        if call.get(key) is not None:
            args[key] = call[key]
    return args


def _tools(col: nowline.Collection, store_path: str, tmp: Path, **call: Any) -> Outcome:
    result = run_tool(col, "correct", _tool_args(call))
    return Outcome(not result.is_error, result.text)


def _mcp(col: nowline.Collection, store_path: str, tmp: Path, **call: Any) -> Outcome:
    seen: dict[str, types.CallToolResult] = {}

    async def main() -> None:
        async with Client(build_server(col)) as client:
            seen["result"] = await client.call_tool("correct", _tool_args(call))

    anyio.run(main)
    result = seen["result"]
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return Outcome(not result.is_error, block.text)


def _jsonl(col: nowline.Collection, store_path: str, tmp: Path, **call: Any) -> Outcome:
    line = {k: v for k, v in call.items() if v is not None}
    source = tmp / "lines.jsonl"
    source.write_text(json.dumps(line) + "\n", encoding="utf-8")
    result = invoke("import", store_path, str(source))
    assert result.exit_code in (0, 1), result.output
    return Outcome(result.exit_code == 0, result.output)


def _http(col: nowline.Collection, store_path: str, tmp: Path, **call: Any) -> Outcome:
    body = {"body": call["text"], "deprecates": call["deprecates"]}
    for key in ("about", "replaced_by"):
        if call.get(key) is not None:
            body[key] = call[key]
    with serve(col) as http:
        response = post_correction(http, body)
    assert response.status_code in (200, 201, 422), response.text
    if response.status_code == 422:
        return Outcome(False, response.json()["error"])
    return Outcome(True, response.text)  # 200: already stored, the stored id in the body


SURFACES: dict[str, Write] = {
    "library": _library,
    "cli": _cli,
    "tools": _tools,
    "mcp": _mcp,
    "jsonl": _jsonl,
    "http": _http,
}


# How each surface spells the anchor a refusal suggests, and the person switch (None: not
# offered there, so never named).
def _given(field: str, *values: str) -> dict[str, str]:
    """How each surface writes ``field`` with ``values``, as a refusal must show it to retry.

    Python's keyword (``about=['billing']``), the command line's repeated flag, quoted for the
    shell (``--deprecates '#ufo-dev'``), the tools' field with a JSON list (``about
    ["billing"]``), and a JSON line's or body's member (``"about": ["billing"]``).
    """
    python = ", ".join(repr(v) for v in values)
    listed = ", ".join(json.dumps(v) for v in values)
    flag = "--" + field.replace("_", "-")
    return {
        "library": f"{field}=[{python}]",
        "cli": " ".join(f"{flag} {shlex.quote(v)}" for v in values),
        "tools": f"{field} [{listed}]",
        "mcp": f"{field} [{listed}]",
        "jsonl": f'"{field}": [{listed}]',
        "http": f'"{field}": [{listed}]',
    }


ABOUT = _given("about", "billing")
PERSON_SWITCH = {
    "library": "allow_person=True",
    "cli": "--allow-person",
    "tools": None,
    "mcp": None,
    "jsonl": "--allow-person",
    "http": None,
}


@pytest.fixture(params=list(SURFACES))
def surface(request: pytest.FixtureRequest) -> str:
    """Return the name of a surface."""
    return str(request.param)


@pytest.fixture
def write(
    surface: str, memory: nowline.Collection, store_path: str, tmp_path: Path
) -> Iterator[Callable[..., Outcome]]:
    """Return the surface's correct, bound to the test's store."""

    def call(**kwargs: Any) -> Outcome:
        return SURFACES[surface](memory, store_path, tmp_path, **kwargs)

    yield call


@pytest.fixture
def ufo(memory: nowline.Collection) -> nowline.Collection:
    """Return a store of the published case: the old repository, the new, a channel, people."""
    memory.remember("Clone github.com/metalcraftai/ufo to work on UFO core.", id="old")
    memory.remember("CI for UFO core runs in ufo-ai/ufo.", id="new")
    memory.remember("UFO core talk happens in #ufo-dev.", id="chan")
    memory.remember("Michelle Rivera is the billing owner; invoices go to her.", id="billing")
    memory.remember("Michelle Rivera wrote the onboarding guide.", id="guide")
    return memory


def _refused(outcome: Outcome, surface: str, before: dict[str, Any], col: Any) -> str:
    """Check a refusal stored nothing and speaks the surface's words; return its message."""
    assert not outcome.stored, outcome.message
    assert snapshot(col) == before
    if surface != "library":
        assert not PYTHON_WORDS.search(outcome.message), outcome.message
    return " ".join(outcome.message.split())


MOVED = "UFO core moved from metalcraftai/ufo to ufo-ai/ufo."


def test_the_own_new_value_is_refused_naming_the_old(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """``deprecates`` the new value of its own text: refused, the old value suggested."""
    before = snapshot(ufo)
    message = _refused(write(text=MOVED, deprecates=["ufo-ai/ufo"]), surface, before, ufo)
    assert "'ufo-ai/ufo' is the new value" in message
    assert "metalcraftai/ufo" in message


def test_a_given_new_value_beside_the_old_is_dropped(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """``replaced_by`` names the new value: listed in ``deprecates`` too, it is dropped there.

    The writer's most common mistake (a small model's, in a third of its calls): the new value
    stays current, the old one is corrected.
    """
    outcome = write(
        text="Work on UFO core in ufo-ai/ufo, not metalcraftai/ufo.",
        deprecates=["metalcraftai/ufo", "ufo-ai/ufo"],
        replaced_by=["ufo-ai/ufo"],
    )
    assert outcome.stored, outcome.message
    (stored,) = ufo.corrections()
    assert stored.deprecates == ["metalcraftai/ufo"]
    assert {h.id: h.role for h in ufo.hits(["old", "new"])} == {
        "old": "historical",
        "new": "current",
    }
    assert ufo.check("git clone https://github.com/ufo-ai/ufo.git") == []


def test_a_string_given_as_old_and_new_alone_is_refused(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """Every deprecated string is also given as new: nothing tells which is old, so refused."""
    before = snapshot(ufo)
    outcome = write(
        text="ufo-ai/ufo is the repository.", deprecates=["ufo-ai/ufo"], replaced_by=["ufo-ai/ufo"]
    )
    message = _refused(outcome, surface, before, ufo)
    assert "'ufo-ai/ufo' is given both as an old value" in message


def test_a_value_held_as_current_is_refused_and_a_chain_step_is_not(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """After the right correction, the published wrong one is refused; moving on is stored."""
    first = ufo.correct(MOVED, deprecates=["metalcraftai/ufo"], id="first")
    before = snapshot(ufo)
    wrong = write(
        text="UFO core moved from metalcraftai/ufo; do GitHub work in ufo-ai/ufo.",
        deprecates=["ufo-ai/ufo"],
    )
    message = _refused(wrong, surface, before, ufo)
    assert "'ufo-ai/ufo' is current" in message and repr(first.id) in message
    assert ufo.check("git clone https://github.com/ufo-ai/ufo.git") == []
    step = write(text="UFO core moved from ufo-ai/ufo to ufo-org/ufo.", deprecates=["ufo-ai/ufo"])
    assert step.stored, step.message
    assert ufo.check("git clone https://github.com/ufo-ai/ufo.git") != []


def test_a_person_needs_a_role_anchor(ufo: nowline.Collection, surface: str, write: Write) -> None:
    """A full name alone is refused, suggesting the role in the surface's own spelling."""
    text = "The billing owner changed from Michelle Rivera to Dana Wu."
    before = snapshot(ufo)
    message = _refused(write(text=text, deprecates=["Michelle Rivera"]), surface, before, ufo)
    assert ABOUT[surface] in message, message
    switch = PERSON_SWITCH[surface]
    if switch is None:
        assert "allow" not in message.replace("allowed", "")
    else:
        assert switch in message
    stored = write(text=text, deprecates=["Michelle Rivera"], about=["billing"])
    assert stored.stored, stored.message
    roles = {h.id: h.role for h in ufo.hits(["billing", "guide"])}
    assert roles == {"billing": "historical", "guide": "current"}


PLAN = _given("about", "plan")


def test_a_bare_number_is_refused_with_an_anchor_the_memories_name(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """A generic string's refusal suggests, counted, a word of the text its memories name.

    Before, the message offered a placeholder (``about=['<the subject>']``), which a small
    model sent back verbatim on the writer benchmark.
    """
    ufo.remember("The Pro plan costs $39 a month per seat.", id="price")
    ufo.remember("Room 39 is booked for the offsite.", id="room")
    before = snapshot(ufo)
    text = "The Pro plan now costs $49 a month; it was $39."
    message = _refused(write(text=text, deprecates=["39"]), surface, before, ufo)
    assert "<the subject>" not in message and PLAN[surface] in message, message
    if surface != "jsonl":  # an import checks every line before it reads the store
        assert "Of the 2 records it would reach, these also name: 'plan' 1, 'costs' 1" in message
    # ("Pro" is a function word in a language the anchor rule knows: never suggested)
    assert "'Pro'" not in message
    stored = write(text=text, deprecates=["39"], about=["plan"])
    assert stored.stored, stored.message
    assert {h.id: h.role for h in ufo.hits(["price", "room"])} == {
        "price": "historical",
        "room": "current",
    }


FAIRLOP = _given("about", "Fairlop")


def test_a_bare_number_whose_text_names_no_subject_gets_what_its_memories_share(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """Where the text names no subject, the refusal suggests the word its memories share.

    A body of the two values alone ("Changed from €4.90 to €6.90.", what the tools write for
    a model that copied the field's description) left the message with no example, and the
    model sent the number as its own anchor on the writer benchmark.
    """
    ufo.remember("Standard shipping on Fairlop orders costs €4.90.", id="std")
    ufo.remember("Tell Fairlop customers that standard delivery is €4.90.", id="tell")
    before = snapshot(ufo)
    text = "Changed from €4.90 to €6.90."
    message = _refused(write(text=text, deprecates=["€4.90"]), surface, before, ufo)
    if surface != "jsonl":  # an import checks every line before it reads the store
        assert "Of the 2 records it would reach, these also name: 'Fairlop' 2" in message
        assert FAIRLOP[surface] in message, message
    stored = write(text=text, deprecates=["€4.90"], about=["Fairlop"])
    assert stored.stored, stored.message
    assert {h.id: h.role for h in ufo.hits(["std", "tell"])} == {
        "std": "historical",
        "tell": "historical",
    }


def test_an_anchor_that_narrows_nothing_is_refused(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """A function word as the anchor: refused by name."""
    before = snapshot(ufo)
    outcome = write(
        text="The billing owner changed from Michelle Rivera to Dana Wu.",
        deprecates=["Michelle Rivera"],
        about=["the"],
    )
    assert "'the'" in _refused(outcome, surface, before, ufo)


def test_one_string_of_several_that_reaches_nothing_is_named(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """Two strings, one a typo of what the store names: refused, naming the near miss."""
    before = snapshot(ufo)
    outcome = write(
        text="UFO core moved from metalcraftai/ufo and #ufo-devs to ufo-ai/ufo and #ufo.",
        deprecates=["metalcraftai/ufo", "#ufo-devs"],
    )
    message = _refused(outcome, surface, before, ufo)
    assert "'#ufo-devs'" in message and "#ufo-dev" in message


def test_an_anchor_the_memories_do_not_name_beside_a_person_is_refused(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """``about`` a word the person's memories do not name would make the reach zero."""
    before = snapshot(ufo)
    outcome = write(
        text="The billing owner changed from Michelle Rivera to Dana Wu.",
        deprecates=["Michelle Rivera"],
        about=["Slack"],
    )
    assert "'Slack'" in _refused(outcome, surface, before, ufo)


def test_an_anchor_the_memories_do_not_name_beside_an_identifier_is_dropped(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """An identifier changed wherever it is written: an anchor that reaches nothing is dropped."""
    outcome = write(
        text="#ufo-dev was renamed to #ufo-core.", deprecates=["#ufo-dev"], about=["Slack"]
    )
    assert outcome.stored, outcome.message
    (stored,) = ufo.corrections()
    assert stored.about == []
    assert ufo.hits(["chan"])[0].role == "historical"


def test_a_change_back_revives_the_old_value(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """acme/app → acme/app2 → acme/app: the first name is current again; undone by retract."""
    ufo.remember("Clone github.com/acme/app for the mobile client.", id="app")
    ufo.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="there")
    back = write(text="acme/app2 was renamed back to acme/app.", deprecates=["acme/app2"])
    assert back.stored, back.message
    assert ufo.check("git clone https://github.com/acme/app") == []
    assert ufo.check("git clone https://github.com/acme/app2") != []
    assert ufo.hits(["app"])[0].role == "current"
    (newest,) = [c for c in ufo.corrections() if c.deprecates == ["acme/app2"]]
    ufo.retract(newest.id)
    assert ufo.hits(["app"])[0].role == "historical"
    assert ufo.check("git clone https://github.com/acme/app") != []


def test_a_repeat_is_stored_once_and_answered_with_the_standing_correction(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """The same change told again: nothing written, the standing id named, one retract undoes it."""
    source = {"source": "api"} if surface == "http" else None  # the receiver's token's
    ufo.correct(MOVED, deprecates=["metalcraftai/ufo"], id="first", metadata=source)
    before = snapshot(ufo)
    told = "UFO core moved from  metalcraftai/UFO to ufo-ai/ufo"  # the same, spaces and case aside
    outcome = write(text=told, deprecates=["metalcraftai/ufo"])
    assert outcome.stored, outcome.message  # not refused: the change is stored, once
    assert "first" in outcome.message
    if surface == "jsonl":  # the headline counts what was written
        assert "0 records of 1 record" in " ".join(outcome.message.split()), outcome.message
    assert snapshot(ufo) == before
    if surface != "library":
        assert not PYTHON_WORDS.search(outcome.message), outcome.message
    ufo.retract("first")
    assert ufo.hits(["old"])[0].role == "current"


def test_suggestions_name_what_to_deprecate(
    ufo: nowline.Collection, surface: str, write: Write
) -> None:
    """The refusal lists the strings the text states as old, with how many records name them."""
    before = snapshot(ufo)
    outcome = write(
        text="UFO core moved from metalcraftai/ufo to ufo-ai/ufo; chat moved from #ufo-dev.",
        deprecates=["ufo-ai/ufo"],
    )
    message = _refused(outcome, surface, before, ufo)
    if surface != "jsonl":  # an import checks its lines before it reads the store
        assert "'metalcraftai/ufo' (1 record)" in message and "'#ufo-dev' (1 record)" in message
    assert OLD_VALUES[surface] in message, message


OLD_VALUES = _given("deprecates", "metalcraftai/ufo", "#ufo-dev")


def test_a_body_that_turns_the_change_round_is_refused_with_the_body_to_send(
    memory: nowline.Collection, surface: str, write: Write
) -> None:
    """The fields say the change right, the body backwards: the store sides with the fields.

    Blind act benchmark, case 4018: the model's body said "harrier-project/harrier is now
    pixelmint/harrier" for "it's harrier-project/harrier now (was pixelmint/harrier)" with
    the fields right; the refusal told it to swap the fields to match, and its retry was
    the wrong correction (refused then only for reaching nothing). Now the refusal says the
    memories name the deprecated string and not the new one, and gives the body to send.
    """
    memory.remember("The Harrier repository is pixelmint/harrier.", id="a")
    memory.remember("CI for Harrier runs on every PR to pixelmint/harrier.", id="b")
    before = snapshot(memory)
    text = "The project harrier-project/harrier is now pixelmint/harrier."
    call = {"deprecates": ["pixelmint/harrier"], "replaced_by": ["harrier-project/harrier"]}
    message = _refused(write(text=text, **call), surface, before, memory)
    if surface != "jsonl":  # an import checks every line before it reads the store
        assert "The memories side with the fields: 2 still name 'pixelmint/harrier'" in message
        assert "'Changed from pixelmint/harrier to harrier-project/harrier.'" in message
    stored = write(text="Changed from pixelmint/harrier to harrier-project/harrier.", **call)
    assert stored.stored, stored.message
    assert {h.id: h.role for h in memory.hits(["a", "b"])} == {
        "a": "historical",
        "b": "historical",
    }


def test_a_change_back_told_with_the_fields_swapped_keeps_the_plain_refusal(
    memory: nowline.Collection, surface: str, write: Write
) -> None:
    """Where the deprecated string's memories are already historical, the text is trusted."""
    memory.remember("pip installs from pypi.ostrava-lab.cz.", id="a")
    memory.remember("mirror.ostrava-lab.cz serves the wheels.", id="b")
    memory.correct(
        "The package mirror moved from pypi.ostrava-lab.cz to mirror.ostrava-lab.cz.",
        deprecates=["pypi.ostrava-lab.cz"],
    )
    before = snapshot(memory)
    text = (
        "The package mirror is pypi.ostrava-lab.cz again; the switch to mirror.ostrava-lab.cz "
        "was rolled back."
    )
    call = {"deprecates": ["pypi.ostrava-lab.cz"], "replaced_by": ["mirror.ostrava-lab.cz"]}
    message = _refused(write(text=text, **call), surface, before, memory)
    assert "'pypi.ostrava-lab.cz' is the new value" in message, message
    assert "side with the fields" not in message


TOLLGATE = _given("about", "Tollgate")


def test_a_number_is_anchored_first_to_the_name_the_text_gives(
    memory: nowline.Collection, surface: str, write: Write
) -> None:
    """A proper noun of the text that the memories name comes before a word that narrows.

    Second blind writer set, h29: "free" (named by one of the two stale memories) was the
    example, and the retry with it left the other unmarked.
    """
    memory.remember("Tollgate's free trial lasts 21 days.", id="a")
    memory.remember("Remind Tollgate trial users to upgrade before their 21 days run out.", id="b")
    memory.remember("Tollgate's refund window is 45 days.", id="c")
    before = snapshot(memory)
    text = "The Tollgate free trial is 45 days long now, up from 21 days."
    message = _refused(write(text=text, deprecates=["21 days"]), surface, before, memory)
    if surface != "jsonl":  # an import checks every line before it reads the store
        assert "these also name: 'Tollgate' 2, 'free' 1" in message, message
        assert TOLLGATE[surface] in message, message
    stored = write(text=text, deprecates=["21 days"], about=["Tollgate"])
    assert stored.stored, stored.message
    roles = {h.id: h.role for h in memory.hits(["a", "b", "c"])}
    assert roles == {"a": "historical", "b": "historical", "c": "current"}


IDENTS = _given("deprecates", "tallpine/onyx")


def test_an_anchor_miss_beside_an_identifier_names_the_identifier_alone(
    memory: nowline.Collection, surface: str, write: Write
) -> None:
    """A word deprecated beside an identifier keeps the anchor, which then reaches nothing.

    Second blind act set, case 5021: ``deprecates=["tallpine/onyx", "onyx"],
    about=["team"]``. The refusal now says the identifier alone needs no anchor, and how
    many records it reaches.
    """
    memory.remember("Onyx lives in tallpine/onyx; PRs go there.", id="a")
    memory.remember("CI for Onyx runs on every PR to tallpine/onyx.", id="b")
    memory.remember("The Onyx docs site is built from tallpine/onyx-docs.", id="c")
    before = snapshot(memory)
    text = "tallpine/onyx is archived and read-only, the Onyx team works in onyx-labs/onyx now."
    call = {"deprecates": ["tallpine/onyx", "onyx"], "about": ["team"]}
    message = _refused(write(text=text, **call), surface, before, memory)
    if surface != "jsonl":  # an import checks every line before it reads the store
        assert f"{IDENTS[surface]} alone, without " in message, message
        assert "would reach 2 records" in message


def test_a_string_the_text_states_as_old_is_counted_without_the_anchor_of_a_word(
    memory: nowline.Collection, surface: str, write: Write
) -> None:
    """An identifier suggested after an anchor miss is counted without the anchor it drops.

    Second blind act set, case 5009: ``deprecates=["sable"], about=["repo"]`` for "The Sable
    repo was moved to sablehq/sable (formerly tallpine/sable)"; 'tallpine/sable' was counted
    with the anchor 'repo' (no memory writes "repo"), so it was not suggested.
    """
    memory.remember("The Sable repository is tallpine/sable.", id="a")
    memory.remember("Clone Sable with git clone https://github.com/tallpine/sable.git", id="b")
    before = snapshot(memory)
    text = "The Sable repo was moved to sablehq/sable (formerly tallpine/sable)."
    message = _refused(
        write(text=text, deprecates=["sable"], about=["repo"]), surface, before, memory
    )
    if surface != "jsonl":  # an import checks every line before it reads the store
        assert "'tallpine/sable' (2 records)" in message, message
