"""The CLI where a newcomer meets it: typo paths, the printed undo, and messages in flag words."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import nowline
from nowline.surfaces.cli import app

from .conftest import UFO, invoke

MOVE = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo."


def _flat(text: str) -> str:
    """Return CLI output on one line, without the error box's frame and wrapping."""
    return " ".join(text.replace("│", " ").split())


def _events(path: Path) -> str:
    """Write a file of one GitHub rename delivery; return its path."""
    payload = {
        "action": "renamed",
        "changes": {"repository": {"name": {"from": "ufo"}}},
        "repository": {
            "full_name": "ufo-ai/ufo-core",
            "name": "ufo-core",
            "owner": {"login": "ufo-ai"},
            "html_url": "https://github.com/ufo-ai/ufo-core",
        },
    }
    line = {"event": "repository", "delivery": "d1", "payload": payload}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    return str(path)


def _writes(typo: str, tmp_path: Path) -> dict[str, list[str]]:
    """Return every command that writes, given the path ``typo`` (and what else it needs)."""
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"text": "metalcraftai/ufo — PR #1."}) + "\n", encoding="utf-8")
    return {
        "remember": ["remember", typo, "metalcraftai/ufo — PR #1705 passed review."],
        "correct": ["correct", typo, MOVE, "-d", "metalcraftai/ufo"],
        "import": ["import", typo, str(lines)],
        "import --dry-run": ["import", typo, str(lines), "--dry-run"],
        "events import": [
            "import",
            typo,
            _events(tmp_path / "ev.jsonl"),
            "--from",
            "github-events",
        ],
        "retract": ["retract", typo, "move"],
        "repair": ["repair", typo],
        "mcp": ["mcp", "--path", typo],
        "serve": ["serve", "--path", typo, "--api-token", "t"],
    }


CREATES = {"remember", "correct", "import", "import --dry-run", "events import", "mcp", "serve"}


@pytest.mark.parametrize(
    "command",
    [
        "remember",
        "correct",
        "import",
        "import --dry-run",
        "events import",
        "retract",
        "repair",
        "mcp",
        "serve",
    ],
)
def test_a_writing_command_refuses_a_mistyped_path(
    command: str, seeded: str, tmp_path: Path
) -> None:
    """A path that holds no store is a usage error that creates nothing and names --create."""
    typo = seeded + "-stroe"
    result = invoke(*_writes(typo, tmp_path)[command])
    message = _flat(result.stderr)
    assert result.exit_code == 2, result.output
    assert "There is no Chroma store at" in message and "Traceback" not in result.output
    assert ("--create" in message) == (command in CREATES)
    assert not Path(typo).exists()


def test_the_missing_store_message_says_each_thing_once(tmp_path: Path) -> None:
    """The refusal of a reading command names no Python keyword and repeats no sentence."""
    result = invoke("stats", str(tmp_path / "nope"))
    message = _flat(result.stderr)
    assert result.exit_code == 2 and "create=True" not in message
    sentences = [s.strip() for s in re.split(r"[.;]", message) if s.strip()]
    assert len(sentences) == len(set(sentences))
    assert message.count("PersistentClient") == 1


@pytest.mark.parametrize("command", ["remember", "correct"])
def test_create_makes_the_store_and_the_message_names_its_folder(
    command: str, tmp_path: Path
) -> None:
    """With --create a new store is made, and the message says where, and that it is new."""
    target = str(tmp_path / "new store")
    args = {
        "remember": ["remember", target, "metalcraftai/ufo — PR #1705 passed review."],
        "correct": ["correct", target, MOVE, "-d", "metalcraftai/ufo", "--allow-unreached"],
    }[command]
    result = invoke(*args, "--create")
    assert result.exit_code == 0, result.output
    out = _flat(result.stdout)
    assert f"of the store at {target!r}, created now" in out
    again = invoke(*args)  # a correction told again is answered with the stored one
    assert again.exit_code == 0, again.output
    assert f"of the store at {target!r}." in _flat(again.stdout)  # not new any more
    assert ("Already stored" in again.stdout) == (command == "correct")


def test_create_on_an_empty_store_names_the_option(tmp_path: Path) -> None:
    """An empty store: a writing command names --create, a reading one says how to fill it."""
    import chromadb

    path = str(tmp_path / "empty")
    chromadb.PersistentClient(path=path)  # a store with no collections
    written = invoke("remember", path, "a memory")
    assert written.exit_code == 2 and "--create" in _flat(written.stderr)
    read = invoke("stats", path)
    assert read.exit_code == 2 and "nowline remember --create" in _flat(read.stderr)
    assert invoke("remember", path, "a memory", "--create").exit_code == 0


def test_the_import_names_the_store(seeded: str, tmp_path: Path) -> None:
    """An import's success message names the store's folder."""
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"text": "ufo-ai/ufo — release 1.0."}) + "\n", encoding="utf-8")
    result = invoke("import", seeded, str(lines))
    assert result.exit_code == 0, result.output
    assert f"of the store at {seeded!r}" in _flat(result.stdout)


# ------------------------------------------------------------------------------- undo


def _undo(stdout: str) -> str:
    """Return the command of the ``Undo:`` line that ``nowline correct`` printed."""
    lines = [line for line in stdout.splitlines() if line.startswith("Undo: ")]
    assert len(lines) == 1, stdout
    return lines[0].removeprefix("Undo: ")


MAKE_STORE = """
import sys
import chromadb, nowline
from tests.conftest import FakeEmbedding
client = nowline.wrap(chromadb.PersistentClient(path=sys.argv[1]))
notes = client.create_collection("notes", embedding_function=FakeEmbedding())
client.create_collection("other", embedding_function=FakeEmbedding())
notes.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
"""
LAUNCH = "import tests.conftest; from nowline.surfaces.cli import main; main()"


def test_the_undo_hint_runs_as_printed_in_a_shell(tmp_path: Path) -> None:
    """The printed retract command, run by bash as printed, retracts the correction.

    The store's folder has a space and a quote, and the store holds two collections (so
    --collection is needed): the command quotes the path for the shell and names the
    collection. Each step is its own process, as at a terminal (a process that wrote holds
    the store's writer lock until it exits).
    """
    folder = tmp_path / "it's a store"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200", "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, "-c", MAKE_STORE, str(folder)], env=env, check=True)
    # nowline as a shell runs it (with the tests' embedding function registered).
    script = f'nowline() {{ {shlex.quote(sys.executable)} -c {shlex.quote(LAUNCH)} "$@"; }}\n'
    script += (
        f"out=$(nowline correct {shlex.quote(str(folder))} {shlex.quote(UFO)} "
        "-d metalcraftai/ufo -c notes) || exit 9\n"
        'printf "%s\\n" "$out"\n'
        "eval \"$(printf '%s\\n' \"$out\" | sed -n 's/^Undo: //p')\"\n"
    )
    done = subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    undo = _undo(done.stdout)
    assert undo.startswith("nowline retract ") and "--collection notes" in undo
    assert "Retracted correction" in done.stdout
    import chromadb

    from ..conftest import FakeEmbedding

    notes = nowline.wrap(chromadb.PersistentClient(path=str(folder))).get_collection(
        "notes", embedding_function=FakeEmbedding()
    )
    assert [c.status for c in notes.corrections()] == ["retracted"]


def test_the_undo_hint_names_the_server(memory: nowline.Collection, seeded: str) -> None:
    """--json carries the same undo command; for a local store it is the folder, shell-quoted."""
    moved = "UFO core — Moved from metalcraftai/ufo to ufo-labs/ufo."  # the seeded "move" differs
    result = invoke("correct", seeded, moved, "-d", "metalcraftai/ufo", "--id", "-odd", "--json")
    assert result.exit_code == 0, result.output
    undo = json.loads(result.stdout)["undo"]
    words = shlex.split(undo)
    assert words[:2] == ["nowline", "retract"] and words[-3:] == ["--", seeded, "-odd"]
    retracted = invoke(*words[1:])
    assert retracted.exit_code == 0, retracted.output


# --------------------------------------------------------------- messages in flag words

PYTHON = re.compile(
    r"\w=(True|False|None|\[)|\b(allow|max|scope|text|replaced|observed)_\w+|\bcreate=|\['"
)
"""Python keyword syntax that no CLI message may show (a flag is --allow-absent, not this)."""


def _refusals(seeded: str, tmp_path: Path) -> dict[str, list[str]]:
    """Return CLI invocations, each driven into a refusal on the seeded store."""
    lines = tmp_path / "bad.jsonl"
    lines.write_text(
        "\n".join(
            json.dumps(row)
            for row in (
                {"text": "The price changed from 10 to 12.", "deprecates": ["10"]},
                {"text": "Moved.", "deprecates": ["metalcraftai/ufo"]},
                {"text": "x", "deprecates": [""]},
                {"text": "x", "id": ""},
            )
        )
        + "\n",
        encoding="utf-8",
    )
    moved = "Moved from metalcraftai/ufo to ufo-ai/ufo."
    broad = tmp_path / "broad.jsonl"
    other = "Moved from metalcraftai/ufo to ufo-labs/ufo."  # not the seeded change: no repeat
    broad.write_text(json.dumps({"text": other, "deprecates": ["metalcraftai/ufo"]}) + "\n")
    return {
        "no store": ["stats", str(tmp_path / "nope")],
        "no store, writing": ["remember", str(tmp_path / "nope"), "x"],
        "absent": ["correct", seeded, "We moved.", "-d", "metalcraftai/ufo-old"],
        "generic": ["correct", seeded, "The price changed from 10 to 12.", "-d", "10"],
        "person": [
            "correct",
            seeded,
            "Michelle Obama left; Dana Smith leads.",
            "-d",
            "Michelle Obama",
        ],
        "near miss": [
            "correct",
            seeded,
            "Moved from metalcraftai/uof to x/y.",
            "-d",
            "metalcraftai/uof",
        ],
        "new value": ["correct", seeded, moved, "-d", "ufo-ai/ufo"],
        "own new value": [
            "correct",
            seeded,
            "See metalcraftai/ufo.",
            "-d",
            "metalcraftai/ufo",
            "-r",
            "metalcraftai/ufo",
        ],
        "string as its own anchor": [
            "correct",
            seeded,
            "billing changed.",
            "-d",
            "billing",
            "-a",
            "billing",
        ],
        "function word anchor": [
            "correct",
            seeded,
            "The price changed from 10 to 12.",
            "-d",
            "10",
            "-a",
            "the",
        ],
        "empty string": ["correct", seeded, moved, "-d", " "],
        "empty id": ["remember", seeded, "x", "--id", ""],
        "bad time": ["remember", seeded, "x", "--observed-at", "soon"],
        "bad as-of": ["recall", seeded, "x", "--as-of", "soon"],
        "reserved scope key": ["stats", seeded, "--scope-key", "nowline_x"],
        "reserved metadata": ["remember", seeded, "x", "--metadata", '{"nowline_role": 1}'],
        "scope without key": ["remember", seeded, "x", "--scope", "4"],
        "bad max reach": ["import", seeded, str(lines), "--max-reach", "2.5"],
        "too broad": ["import", seeded, str(broad), "--max-reach", "0"],
        "bad lines": ["import", seeded, str(lines)],
        "bad collection": ["remember", seeded, "x", "--collection", "a", "--create"],
        "no collection": ["remember", seeded, "x", "--collection", "nope"],
    }


def test_no_cli_refusal_speaks_python(seeded: str, tmp_path: Path) -> None:
    """Every refusal the CLI prints names flags and values, never Python keyword syntax."""
    from typer.testing import CliRunner

    seen = {}
    for name, args in _refusals(seeded, tmp_path).items():
        result = CliRunner().invoke(app, args, terminal_width=10_000)
        assert result.exit_code != 0, (name, result.output)
        seen[name] = _flat(result.output)
    spoken = {name: [m.group(0) for m in PYTHON.finditer(text)] for name, text in seen.items()}
    assert {name: found for name, found in spoken.items() if found} == {}, seen


def test_the_busy_message_names_every_writer_and_the_remedy(
    seeded: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When another process writes the store, the message lists nowline serve and --url."""
    import nowline.stores
    from nowline.errors import StoreBusy

    def busy(*args: object, **kwargs: object) -> None:
        raise StoreBusy("another process writes here")

    monkeypatch.setattr(nowline.stores, "open_collection", busy)
    result = invoke("remember", seeded, "x")
    message = _flat(result.stderr)
    assert result.exit_code == 1
    assert "nowline serve" in message and "nowline mcp" in message and "--url" in message
