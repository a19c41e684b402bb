"""``nowline hook``: a coding agent's tool hook that denies a stale call and annotates a result."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import chromadb
import pytest

import nowline
from nowline.surfaces import hook
from tests.boundary.conftest import CHANNEL, CLONE, ROOT, UFO, cli_env, make_store, run_cli
from tests.conftest import FakeEmbedding, ServerDatabase


def pre(tool_input: object, tool: str = "Bash") -> str:
    """Return a PreToolUse event as Claude Code writes it."""
    return json.dumps(
        {
            "session_id": "s1",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": "/work",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": "toolu_1",
        }
    )


def post(tool_response: object, tool: str = "Bash") -> str:
    """Return a PostToolUse event as Claude Code writes it."""
    return json.dumps(
        {
            "session_id": "s1",
            "hook_event_name": "PostToolUse",
            "tool_name": tool,
            "tool_input": {"command": "cat notes.md"},
            "tool_response": tool_response,
            "tool_use_id": "toolu_2",
        }
    )


def prompt(text: object) -> str:
    """Return a UserPromptSubmit event as Claude Code writes it."""
    return json.dumps(
        {
            "session_id": "s1",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": "/work",
            "permission_mode": "default",
            "hook_event_name": "UserPromptSubmit",
            "prompt": text,
        }
    )


# ----------------------------------------------------------------- the decision (no I/O)


def test_every_nested_string_is_read_in_document_order() -> None:
    """Strings at any depth of tool_input are read, keys included, in document order."""
    event = hook.parse_event(
        pre({"edits": [{"path": "a", "new_string": {"deep": [["x", {"k": "v"}]]}}]}, "Edit")
    )
    assert event.strings == ("edits", "path", "a", "new_string", "deep", "x", "k", "v")
    assert event.tool_name == "Edit" and event.name == hook.PRE_TOOL_USE


def test_post_tool_use_reads_the_response_not_the_input() -> None:
    """After the call the tool_response is what is checked (a Bash result is an object)."""
    event = hook.parse_event(post({"stdout": "out", "stderr": "err", "interrupted": False}))
    assert event.strings == ("stdout", "out", "stderr", "err", "interrupted")
    assert "cat notes.md" not in event.text


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b"\xff\xfe\xfa",
        b"[1, 2]",
        b'{"hook_event_name": "Stop"}',
        b'{"hook_event_name": "PreToolUse", "tool_input": {}}',
        b'{"hook_event_name": "PreToolUse", "tool_name": "Bash"}',
        b'{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {}}',
    ],
)
def test_an_unreadable_event_is_invalid_input(data: bytes) -> None:
    """Bad JSON, another event, or an event without its checked part raises InvalidInput."""
    with pytest.raises(nowline.InvalidInput):
        hook.parse_event(data)


def test_a_lone_surrogate_cannot_break_the_check(memory: nowline.Collection) -> None:
    """A JSON-escaped lone surrogate is replaced, so check() still reads the text."""
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    event = hook.parse_event(pre({"command": "\\ud800 " + CLONE}).replace("\\\\ud800", "\\ud800"))
    assert event.strings[1].startswith("? git clone")
    assert [t.correction.id for t in memory.check(event.text)] == ["move"]


def test_decide_denies_with_the_now_line_and_the_outdated_string(
    memory: nowline.Collection,
) -> None:
    """A tripping PreToolUse gets a deny whose reason names the string, the now-line, the fix."""
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    event = hook.parse_event(pre({"command": CLONE, "description": "clone it"}))
    out = hook.decide(event, memory.check(event.text))
    assert out is not None
    assert set(out) == {"hookSpecificOutput"}
    decision = out["hookSpecificOutput"]
    assert decision["hookEventName"] == "PreToolUse"
    assert decision["permissionDecision"] == "deny"
    reason = decision["permissionDecisionReason"]
    assert "Bash call" in reason and "'metalcraftai/ufo'" in reason
    assert f"    now: {UFO}" in reason and "Rewrite this call" in reason


def test_decide_adds_superseded_and_now_lines_to_a_stale_result(
    memory: nowline.Collection,
) -> None:
    """A result that trips a superseded correction shows it, then the newest, as context."""
    memory.correct(CHANNEL, deprecates=["#ufo-dev"], id="chan")
    newer = "The Slack channel #ufo-core moved to #ufo-eng."
    memory.correct(newer, deprecates=["#ufo-core"], id="chan2")
    event = hook.parse_event(post({"stdout": "ask in #ufo-dev", "stderr": ""}))
    out = hook.decide(event, memory.check(event.text))
    assert out is not None
    context = out["hookSpecificOutput"]["additionalContext"]
    assert out["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert context.index(f"    superseded correction: {CHANNEL}") < context.index(
        f"    now: {newer}"
    )


def test_an_edit_that_removes_an_outdated_string_is_not_denied(
    memory: nowline.Collection,
) -> None:
    """What an edit replaces (old_string, a patch's - lines) is not checked; what it writes is."""
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    fix = {
        "file_path": "/r/README.md",
        "old_string": "metalcraftai/ufo",
        "new_string": "ufo-ai/ufo",
    }
    multi = {"file_path": "/r/a.md", "edits": [fix, {**fix, "old_string": "x metalcraftai/ufo"}]}
    patch = "*** Begin Patch\n*** Update File: a.md\n@@\n-metalcraftai/ufo\n+ufo-ai/ufo\n"
    allowed = [
        pre(fix, "Edit"),
        pre(multi, "MultiEdit"),
        pre({"command": patch + "*** End Patch"}, "apply_patch"),
    ]
    for raw in allowed:
        event = hook.parse_event(raw)
        assert hook.decide(event, memory.check(event.text)) is None, raw
    stale = [
        pre({**fix, "new_string": "see metalcraftai/ufo"}, "Edit"),
        pre({"command": patch + "+metalcraftai/ufo\n*** End Patch"}, "apply_patch"),
        pre({"command": "cat <<EOF\n- clone metalcraftai/ufo\nEOF"}, "Bash"),
    ]
    for raw in stale:
        event = hook.parse_event(raw)
        assert hook.decide(event, memory.check(event.text)) is not None, raw


def test_decide_is_silent_when_nothing_trips(memory: nowline.Collection) -> None:
    """No trips, no output; a retracted correction trips nothing."""
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    memory.retract("move")
    event = hook.parse_event(pre({"command": CLONE}))
    assert memory.check(event.text) == []
    assert hook.decide(event, []) is None


def test_a_message_is_read_whole_and_needs_its_prompt() -> None:
    """A UserPromptSubmit event is the user's message; one without a prompt string is refused."""
    event = hook.parse_event(prompt("Clone metalcraftai/ufo, please."))
    assert (event.name, event.tool_name, event.text) == (
        "UserPromptSubmit",
        "",
        "Clone metalcraftai/ufo, please.",
    )
    assert hook.parse_event(prompt("")).strings == ()
    for bad in (
        {"hook_event_name": "UserPromptSubmit"},
        {"hook_event_name": "UserPromptSubmit", "prompt": ["x"]},
    ):
        with pytest.raises(nowline.InvalidInput, match="no prompt string"):
            hook.parse_event(json.dumps(bad))


def test_decide_adds_the_now_line_and_the_note_to_a_message(memory: nowline.Collection) -> None:
    """A message naming an outdated string gets its now-line; a note rides after it."""
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    event = hook.parse_event(prompt("Clone metalcraftai/ufo, please."))
    trips = memory.check(event.text)
    out = hook.decide(event, trips)
    assert out is not None and out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "names outdated strings ('metalcraftai/ufo')" in context and f"now: {UFO}" in context
    both = hook.decide(event, trips, "nowline: the user's message states a change: ...")
    assert both is not None
    assert both["hookSpecificOutput"]["additionalContext"] == context + (
        "\nnowline: the user's message states a change: ..."
    )
    only = hook.decide(event, [], "a note")
    assert only is not None and only["hookSpecificOutput"]["additionalContext"] == "a note"
    assert hook.decide(event, []) is None


# ------------------------------------------------------------- the command, as a subprocess


def test_a_stale_clone_is_denied_and_exits_0(store: str) -> None:
    """The incident's git clone gets Claude Code's JSON deny on stdout and exit 0."""
    out = run_cli("hook", "--path", store, stdin=pre({"command": CLONE}))
    assert out.returncode == 0, out.stderr
    decision = json.loads(out.stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert f"now: {UFO}" in decision["permissionDecisionReason"]
    assert out.stderr == ""


def test_a_stale_bash_result_gets_the_now_line(store: str) -> None:
    """A PostToolUse whose stderr names the old channel gets the now-line as context."""
    response = {"stdout": "", "stderr": "error: post to #ufo-dev failed", "interrupted": False}
    out = run_cli("hook", "--path", store, stdin=post(response))
    assert out.returncode == 0, out.stderr
    context = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert f"now: {CHANNEL}" in context and "UFO core" not in context


def test_a_current_call_prints_nothing(store: str) -> None:
    """A call on the current name exits 0 with empty stdout and stderr."""
    out = run_cli("hook", "--path", store, stdin=pre({"command": "git clone ufo-ai/ufo"}))
    assert (out.returncode, out.stdout, out.stderr) == (0, "", "")


def test_a_message_that_states_a_change_gets_the_correct_call(tmp_path: Path) -> None:
    """UserPromptSubmit: the note for a stated change, the now-line for an outdated string.

    Run through the ``nowline`` entry point the settings name (its fast path hands a
    message to the full command). Nothing is written to the store.
    """
    path = tmp_path / "store"
    col = make_store(path)
    col.remember("Deploy notes go to #deploys.", id="d1")
    col.remember("Post the deploy summary in #deploys.", id="d2")
    before = col.count()
    told = "FYI: deploy notes moved from #deploys to #ship-it."
    out = subprocess.run(
        [sys.executable, "-m", "nowline", "hook", "--path", str(path)],
        input=prompt(told).encode(),
        capture_output=True,
        env=cli_env(),
        timeout=180,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    context = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("nowline: the user's message states a change: 2 memories")
    assert "call correct with body" in context and "deprecates ['#deploys']" in context
    assert "replaced_by ['#ship-it']" in context
    stale = run_cli("hook", "--path", str(path), stdin=prompt("Where is metalcraftai/ufo?"))
    assert f"now: {UFO}" in json.loads(stale.stdout)["hookSpecificOutput"]["additionalContext"]
    quiet = run_cli("hook", "--path", str(path), stdin=prompt("Run the tests, please."))
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    assert (
        nowline.wrap(
            chromadb.PersistentClient(path=str(path)).get_collection(
                "memory", embedding_function=None
            ),
            embedding_function=FakeEmbedding(),
        ).count()
        == before
    )


def test_a_message_the_hook_cannot_check_goes_ahead(tmp_path: Path) -> None:
    """A UserPromptSubmit with no store or no scope exits 0 (exit 2 would erase the prompt)."""
    missing = run_cli("hook", "--path", str(tmp_path / "nowhere"), stdin=prompt("hello"))
    assert missing.returncode == 0 and missing.stdout == ""
    assert "could not check this message" in missing.stderr and "goes ahead" in missing.stderr
    path = tmp_path / "scoped"
    make_store(path, scoped=True)
    unscoped = run_cli("hook", "--path", str(path), stdin=prompt("Clone metalcraftai/ufo."))
    assert unscoped.returncode == 0 and unscoped.stdout == "" and "--scope" in unscoped.stderr
    bad = run_cli(
        "hook",
        "--path",
        str(path),
        stdin=json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": 3}),
    )
    assert bad.returncode == 0 and "no prompt string" in bad.stderr
    assert not (tmp_path / "nowhere").exists()


def test_bad_json_fails_closed(store: str) -> None:
    """Input that is not JSON exits 2 with the reason on stderr and nothing on stdout."""
    out = run_cli("hook", "--path", store, stdin="{not json")
    assert out.returncode == 2 and out.stdout == ""
    assert "not JSON" in out.stderr and "Traceback" not in out.stderr


def test_a_missing_store_fails_closed_and_is_not_created(tmp_path: Path) -> None:
    """A --path with no store exits 2 (or 0 with --fail-open), and no store appears there."""
    missing = tmp_path / "nowhere"
    closed = run_cli("hook", "--path", str(missing), stdin=pre({"command": "ls"}))
    assert closed.returncode == 2 and closed.stdout == ""
    assert "no Chroma store" in " ".join(closed.stderr.split())
    opened = run_cli("hook", "--path", str(missing), "--fail-open", stdin=pre({"command": "ls"}))
    assert opened.returncode == 0 and opened.stdout == ""
    assert "no Chroma store" in " ".join(opened.stderr.split()) and "--fail-open" in opened.stderr
    assert not missing.exists()


def test_a_scoped_store_checks_the_given_scope_only(tmp_path: Path) -> None:
    """On a scoped store --scope picks whose corrections apply; without it the hook fails."""
    path = str(tmp_path / "scoped")
    make_store(Path(path), scoped=True)
    event = pre({"command": CLONE})
    own = run_cli("hook", "--path", path, "--scope", "u1", stdin=event)
    assert json.loads(own.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    other = run_cli("hook", "--path", path, "--scope", "u2", stdin=event)
    assert (other.returncode, other.stdout) == (0, "")
    unscoped = run_cli("hook", "--path", path, stdin=event)
    assert unscoped.returncode == 2 and "--scope" in unscoped.stderr


def test_a_server_store_is_checked_and_a_dead_server_fails_closed(
    http_database: ServerDatabase,
) -> None:
    """With --url the hook checks against a Chroma server; a server that is down exits 2."""
    make_store(client=http_database.client())
    server = http_database.server
    url = f"http://{server.host}:{server.port}"
    env = {"CHROMA_DATABASE": http_database.name}
    out = run_cli("hook", "--url", url, stdin=pre({"command": CLONE}), env=env)
    assert json.loads(out.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    down = run_cli("hook", "--url", "http://127.0.0.1:9", stdin=pre({"command": "ls"}), env=env)
    assert down.returncode == 2 and down.stdout == "" and down.stderr.strip()


HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tests.boundary.conftest import make_store
    make_store(Path(sys.argv[1]))  # writes, so this process holds the store's writer lock
    print("holding", flush=True)
    sys.stdin.read()
    """
)


def test_the_hook_reads_while_another_process_writes(tmp_path: Path) -> None:
    """With the writer lock held elsewhere (writes here are refused) the hook still decides."""
    path = tmp_path / "held"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        raw = chromadb.PersistentClient(path=str(path)).get_collection("memory")
        with pytest.raises(nowline.StoreBusy):
            nowline.wrap(raw, embedding_function=FakeEmbedding()).remember("x", id="x")
        out = run_cli("hook", "--path", str(path), stdin=pre({"command": CLONE}))
        assert json.loads(out.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    finally:
        holder.communicate(timeout=60)


def test_an_owner_and_repo_given_apart_are_read_as_one_repository() -> None:
    """``{"owner": "acme", "repo": "app"}`` is also checked as ``acme/app``, nested too."""
    event = hook.parse_event(
        pre({"owner": "acme", "repo": "app", "files": [{"org": "x", "name": "y"}]}, "mcp__gh__t")
    )
    assert "acme/app" in event.strings and "x/y" in event.strings
    assert hook.parse_event(pre({"owner": "acme", "repo": 5}, "t")).strings == (
        "owner",
        "acme",
        "repo",
    )


# ------------------------------------------------------------------- the agent's settings


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_the_printed_settings_run_where_path_lacks_the_virtualenv(
    store: str, tmp_path: Path, agent: str
) -> None:
    """The settings' command names nowline and the store by absolute path, and denies the clone.

    It is run as the agent runs it: through a shell, from another folder, with a PATH that
    holds only the system's folders (no virtualenv), so a bare ``nowline`` would exit 127.
    """
    out = run_cli("hook-settings", "--path", store, "--agent", agent)
    assert out.returncode == 0, out.stderr
    settings = json.loads(out.stdout)["hooks"]
    assert set(settings) == {"PreToolUse", "PostToolUse"}  # messages only with --messages
    (entry,) = settings["PreToolUse"]
    out = run_cli("hook-settings", "--path", store, "--agent", agent, "--messages")
    with_messages = json.loads(out.stdout)["hooks"]
    assert set(with_messages) == {"PreToolUse", "PostToolUse", "UserPromptSubmit"}
    (told,) = with_messages["UserPromptSubmit"]
    assert "matcher" not in told  # a message has no tool to match
    assert told["hooks"] == entry["hooks"]
    assert entry["matcher"] == ("*" if agent == "claude-code" else "Bash|apply_patch|mcp__.*")
    command = entry["hooks"][0]["command"]
    assert command.startswith("/") and str(Path(store).resolve()) in command
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    missing = subprocess.run(
        ["/bin/sh", "-c", "nowline hook --path x"], env=bare, capture_output=True, check=False
    )
    assert missing.returncode == 127  # what a bare command does there
    ran = subprocess.run(
        ["/bin/sh", "-c", command],
        input=pre({"command": CLONE}).encode(),
        env=bare,
        cwd=tmp_path,
        capture_output=True,
        timeout=180,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    decision = json.loads(ran.stdout)["hookSpecificOutput"]
    assert (
        decision["permissionDecision"] == "deny"
        and f"now: {UFO}" in decision["permissionDecisionReason"]
    )


def test_install_merges_into_the_settings_and_replaces_an_earlier_nowline_hook(
    store: str, tmp_path: Path
) -> None:
    """Other settings and hooks stay; installing twice leaves one nowline hook per event."""
    target = tmp_path / ".claude" / "settings.json"
    target.parent.mkdir()
    other = {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
    target.write_text(json.dumps({"model": "x", "hooks": {"PreToolUse": [other]}}))
    for _ in range(2):
        out = run_cli("hook-settings", "--path", store, "--install", str(target))
        assert out.returncode == 0, out.stderr
        assert "Installed nowline's hook in" in out.stdout
    saved = json.loads(target.read_text())
    assert saved["model"] == "x"
    assert saved["hooks"]["PreToolUse"][0] == other and len(saved["hooks"]["PreToolUse"]) == 2
    assert len(saved["hooks"]["PostToolUse"]) == 1
    assert "UserPromptSubmit" not in saved["hooks"]
    mine = {"hooks": [{"type": "command", "command": "log-prompt.sh"}]}
    saved["hooks"]["UserPromptSubmit"] = [mine]
    target.write_text(json.dumps(saved))
    out = run_cli("hook-settings", "--path", store, "--messages", "--install", str(target))
    assert "UserPromptSubmit" in out.stdout
    prompts = json.loads(target.read_text())["hooks"]["UserPromptSubmit"]
    assert prompts[0] == mine and len(prompts) == 2
    # written again without --messages: nowline's message hook goes, the user's stays
    run_cli("hook-settings", "--path", store, "--install", str(target))
    assert json.loads(target.read_text())["hooks"]["UserPromptSubmit"] == [mine]
    fresh = tmp_path / "fresh.json"
    run_cli("hook-settings", "--path", store, "--messages", "--install", str(fresh))
    assert "UserPromptSubmit" in json.loads(fresh.read_text())["hooks"]
    run_cli("hook-settings", "--path", store, "--install", str(fresh))
    assert set(json.loads(fresh.read_text())["hooks"]) == {"PreToolUse", "PostToolUse"}


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--path", "{missing}"], "no Chroma store"),
        (["--path", "{store}", "--agent", "cursor"], "claude-code, codex"),
        (["--path", "{store}", "--token", "s3cret-s3cret"], "NOWLINE_TOKEN"),
        (["--path", "{store}", "--install", "{bad}"], "does not hold a JSON object"),
    ],
)
def test_hook_settings_refuses_what_would_not_work(
    store: str, tmp_path: Path, args: list[str], said: str
) -> None:
    """A missing store, an unknown agent, a token in a file, a settings file that is no object."""
    bad = tmp_path / "settings.json"
    bad.write_text("[1, 2]")
    filled = [a.format(missing=str(tmp_path / "nope"), store=store, bad=str(bad)) for a in args]
    out = run_cli("hook-settings", *filled)
    assert out.returncode == 2 and said in " ".join(out.stderr.split()), out.stderr
    assert bad.read_text() == "[1, 2]" and not (tmp_path / "nope").exists()
