"""The fast path of ``nowline hook`` and ``nowline check``: a snapshot the mark confirms answers.

Each test runs the real console entry point (``nowline.surfaces.launch``) in a subprocess and
reports whether chromadb was imported, so a test can tell which path answered; the full path
is the same command with ``NOWLINE_NO_FAST_PATH=1``. The fast path must answer exactly as the
full path does, import no chromadb, and change no file of the store.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import chromadb
import pytest

import nowline
from nowline._io import snapshot
from nowline._io.mark import MARK_KEY, companion_name
from tests.boundary.conftest import CLONE, cli_env, make_store
from tests.conftest import FakeEmbedding

_RUN = """
import sys
sys.argv = ["nowline"] + ARGS
from nowline.surfaces.launch import main
try:
    main()
    code = 0
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
sys.stdout.flush()
sys.stderr.write("\\nWORDING=" + str("nowline._rules.wording" in sys.modules))
sys.stderr.write("\\nCHROMADB=" + str("chromadb" in sys.modules))
raise SystemExit(code)
"""


def _nowline(*args: str, stdin: str = "", **env: str) -> tuple[int, str, bool]:
    """Run ``nowline ARGS``; return its exit code, its stdout and whether chromadb loaded."""
    out = subprocess.run(
        [sys.executable, "-c", _RUN.replace("ARGS", repr(list(args)))],
        input=stdin.encode("utf-8"),
        capture_output=True,
        env=cli_env(**env),
        timeout=180,
        check=False,
    )
    err = out.stderr.decode("utf-8")
    assert "CHROMADB=" in err, err
    return out.returncode, out.stdout.decode("utf-8"), err.rsplit("CHROMADB=", 1)[1] == "True"


def _event(name: str, payload: Any) -> str:
    """Return a hook event as the agent writes it."""
    key = "tool_input" if name == "PreToolUse" else "tool_response"
    return json.dumps({"hook_event_name": name, "tool_name": "Bash", key: payload})


_EVENTS = [
    _event("PreToolUse", {"command": CLONE}),
    _event("PostToolUse", {"stdout": "see #ufo-dev for the plan", "stderr": ""}),
    _event("PreToolUse", {"command": "ls"}),
]


def _files(folder: Path) -> dict[str, str]:
    """Return every file under ``folder`` with a hash of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def local_store(tmp_path: Path) -> Path:
    """Return a local store whose snapshot its writer saved under the mark."""
    path = tmp_path / "store"
    make_store(path)
    snapshot.flush()
    return path


@pytest.mark.parametrize("event", _EVENTS, ids=["deny", "context", "nothing"])
def test_a_hook_on_a_confirmed_snapshot_answers_as_the_full_path_without_chromadb(
    local_store: Path, event: str
) -> None:
    """Deny, context and silence come from the snapshot, byte for byte the full path's."""
    before = _files(local_store)
    code, fast, loaded = _nowline("hook", "--path", str(local_store), stdin=event)
    assert (code, loaded) == (0, False)
    assert _files(local_store) == before, "the fast path changed a file of the store"
    code, full, loaded = _nowline(
        "hook", "--path", str(local_store), stdin=event, NOWLINE_NO_FAST_PATH="1"
    )
    assert (code, loaded) == (0, True)
    assert fast == full


def test_check_on_a_confirmed_snapshot_answers_as_the_full_path(local_store: Path) -> None:
    """``nowline check`` prints the same lines and exits with the same code on both paths."""
    for text, want in ((CLONE, 1), ("nothing outdated here", 0)):
        code, fast, loaded = _nowline("check", str(local_store), text)
        assert (code, loaded) == (want, False)
        code, full, _ = _nowline("check", str(local_store), text, NOWLINE_NO_FAST_PATH="1")
        assert code == want and fast == full


def test_a_denied_command_naming_only_the_old_value_imports_no_wording_reader(
    local_store: Path,
) -> None:
    """The linking rule's record-of-change test needs the new value in the text (§13's cost).

    The clone names metalcraftai/ufo and not ufo-ai/ufo, so no wording is read for it: the
    fast path's deny does not import the reader (about 20 ms of a cold hook's time). The full
    path imports the whole package, the write path's guards with it.
    """
    out = subprocess.run(
        [sys.executable, "-c", _RUN.replace("ARGS", repr(["check", str(local_store), CLONE]))],
        capture_output=True,
        env=cli_env(),
        timeout=180,
        check=False,
    )
    assert out.returncode == 1, out.stderr
    assert "WORDING=False" in out.stderr.decode("utf-8")


@pytest.mark.parametrize("option", [["-c", "memory"], ["--collection", "memory"]])
def test_check_naming_the_collection_takes_the_fast_path(
    local_store: Path, option: list[str]
) -> None:
    """``-c NAME`` is ``--collection NAME``: either answers from the snapshot."""
    code, out, loaded = _nowline("check", str(local_store), CLONE, *option)
    assert (code, loaded) == (1, False) and "now:" in out
    code, out, loaded = _nowline("check", str(local_store), CLONE, "-c=memory")
    assert loaded  # click reads "=memory" as the name: the full path says what it makes of it


def test_the_hook_writes_no_snapshot_on_its_full_path(local_store: Path) -> None:
    """Without a snapshot the hook takes the full path, and still leaves none behind."""
    saved = sorted(p.name.split(".", 1)[1] for p in (local_store / "nowline").glob("*.snapshot*"))
    assert saved == ["snapshot.sqlite"]  # one file: the fast path's index and the registry
    for path in (local_store / "nowline").glob("*.snapshot*"):
        path.unlink()
    code, out, loaded = _nowline("hook", "--path", str(local_store), stdin=_EVENTS[0])
    assert (code, loaded) == (0, True) and "deny" in out
    assert not list((local_store / "nowline").glob("*.snapshot*"))


def _index_of(store: Path) -> Path:
    """Return the snapshot of the store's one collection."""
    (index,) = (store / "nowline").glob("*.snapshot.sqlite")
    return index


@pytest.mark.parametrize("damage", ["garbage", "truncated", "foreign", "hostile", "retracted"])
def test_a_damaged_or_foreign_index_sends_the_hook_to_the_full_path(
    local_store: Path, tmp_path: Path, damage: str
) -> None:
    """An index that is not this collection's, intact and well typed is a doubt, never an answer.

    ``hostile``: the index's tables are views, as a program that can write the cache could
    make them; ``retracted``: a row that claims a retracted correction is active.
    """
    index = _index_of(local_store)
    if damage == "garbage":
        index.write_bytes(b"\x00 not sqlite" * 100)
    elif damage == "truncated":
        index.write_bytes(index.read_bytes()[:4096])
    elif damage == "foreign":
        other = tmp_path / "other"
        make_store(other)
        snapshot.flush()
        index.write_bytes(_index_of(other).read_bytes())
    else:
        import sqlite3

        conn = sqlite3.connect(index)
        if damage == "hostile":
            conn.executescript(
                "ALTER TABLE corrections RENAME TO kept;"
                "CREATE VIEW corrections AS SELECT row, '[1, 2]' AS info FROM kept;"
            )
        else:
            (row, info) = conn.execute("SELECT row, info FROM corrections LIMIT 1").fetchone()
            values = json.loads(info)
            values[7] = 5.0  # CorrectionInfo.retracted
            conn.execute("UPDATE corrections SET info = ? WHERE row = ?", (json.dumps(values), row))
            conn.execute("INSERT OR IGNORE INTO always VALUES (?)", (row,))
        conn.commit()
        conn.close()
    before = _files(local_store / "nowline")
    code, out, loaded = _nowline("hook", "--path", str(local_store), stdin=_EVENTS[0])
    assert (code, loaded) == (0, True) and "deny" in out
    assert _files(local_store / "nowline") == before  # the hook mends nothing: it only reads


def test_a_mark_rewritten_by_a_raw_client_sends_the_hook_to_the_full_path(
    local_store: Path,
) -> None:
    """A mark that differs from the snapshot's (here: a raw client's value) is a doubt."""
    client = chromadb.PersistentClient(path=str(local_store))
    raw = client.get_collection("memory", embedding_function=None)
    companion = client.get_collection(companion_name(raw.id), embedding_function=None)
    companion.modify(metadata={MARK_KEY: "rewritten by hand"})
    code, out, loaded = _nowline("hook", "--path", str(local_store), stdin=_EVENTS[0])
    assert (code, loaded) == (0, True) and "deny" in out


def test_a_correction_written_by_another_process_reaches_the_next_hook(local_store: Path) -> None:
    """A change through nowline moves the mark: the next hook sees it (and the next is fast)."""
    event = _event("PreToolUse", {"command": "ssh beta-host-9"})
    assert _nowline("hook", "--path", str(local_store), stdin=event)[1] == ""
    raw = chromadb.PersistentClient(path=str(local_store)).get_collection(
        "memory", embedding_function=None
    )
    col = nowline.wrap(raw, embedding_function=FakeEmbedding())
    col.update(
        ids=["move"],
        metadatas=[{"deprecates": ["metalcraftai/ufo", "beta-host-9"]}],
        documents=["UFO core moved from metalcraftai/ufo to ufo-ai/ufo; beta-host-9 is gone."],
    )
    snapshot.flush()
    code, out, loaded = _nowline("hook", "--path", str(local_store), stdin=event)
    assert code == 0 and "beta-host-9" in out and not loaded


@pytest.mark.server
def test_a_hook_over_a_server_reads_the_mark_with_one_get(
    chroma_server: Any, tmp_path: Path
) -> None:
    """Over a server the mark comes from Chroma's REST API; the answer is the full path's."""
    database = chroma_server.new_database()
    make_store(client=chroma_server.client(database))
    url = f"http://{chroma_server.host}:{chroma_server.port}"
    where = ("--url", url, "--database", database)
    env = {"NOWLINE_CACHE_DIR": str(tmp_path / "cache")}
    assert _nowline("stats", *where, **env)[0] == 0  # a full run saves the snapshot
    for event in _EVENTS:
        code, fast, loaded = _nowline("hook", *where, stdin=event, **env)
        assert (code, loaded) == (0, False)
        code, full, _ = _nowline("hook", *where, stdin=event, NOWLINE_NO_FAST_PATH="1", **env)
        assert code == 0 and fast == full


@pytest.mark.server
@pytest.mark.parametrize(
    ("name", "value", "fast"),
    [
        ("CHROMA_HTTP_KEEPALIVE_SECS", "31536000", True),  # the pool's tuning: one GET is alike
        ("CHROMA_HTTP_MAX_CONNECTIONS", "4", True),
        ("chroma_client_auth_credentials", "t0ken", False),  # chromadb reads it in any case
        ("CHROMA_SERVER_HEADERS", "{}", False),
    ],
)
def test_chroma_settings_in_the_environment_and_the_fast_path(
    chroma_server: Any, tmp_path: Path, name: str, value: str, fast: bool
) -> None:
    """A setting of chromadb's client sends the hook the full way, unless it tunes the pool."""
    database = chroma_server.new_database()
    make_store(client=chroma_server.client(database))
    where = ("--url", f"http://{chroma_server.host}:{chroma_server.port}", "--database", database)
    env = {"NOWLINE_CACHE_DIR": str(tmp_path / "cache")}
    assert _nowline("stats", *where, **env)[0] == 0
    code, out, loaded = _nowline("hook", *where, stdin=_EVENTS[0], **{**env, name: value})
    assert code == 0 and "ufo-ai/ufo" in out and loaded is not fast


# ------------------------------------------------------------- repositories as tools name them

_ARCHIVED = "acme/widget.js was archived; work happens in acme/gadget."
_GITHUB_CALLS = {
    "mcp__github__create_issue": {"owner": "acme", "repo": "widget.js", "title": "bug"},
    "mcp__github__create_pull_request": {
        "owner": "Acme",
        "repo": "Widget.js",
        "title": "fix",
        "head": "fix",
        "base": "main",
    },
    "mcp__github__push_files": {
        "owner": "acme",
        "repo": "widget.js",
        "branch": "main",
        "files": [{"path": "a.txt", "content": "x"}],
        "message": "add",
    },
    "mcp__github__fork_repository": {"owner": "acme", "repo": "widget.js"},
    "mcp__other__lookup": {"org": "acme", "name": "widget.js"},
    "mcp__other__open": {"owner": "acme", "repository": "widget.js"},
    "Bash": {"command": "git clone https://github.com/acme/widget.js.git"},
    "Bash ": {"command": "git clone git@github.com:acme/widget.js.git && cd widget.js"},
}


@pytest.fixture(scope="module")
def archived(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Return a local store whose correction says acme/widget.js (a dotted name) is archived."""
    path = tmp_path_factory.mktemp("archived") / "store"
    col = nowline.wrap(
        chromadb.PersistentClient(path=str(path)).create_collection("memory"),
        embedding_function=FakeEmbedding(),
    )
    col.remember("Issues for the widget go to acme/widget.js.", id="m")
    col.correct(_ARCHIVED, deprecates=["acme/widget.js"], id="archived")
    snapshot.flush()
    return str(path)


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "full"])
@pytest.mark.parametrize("tool", sorted(_GITHUB_CALLS))
def test_a_repository_in_two_arguments_or_with_git_is_denied(
    archived: str, tool: str, fast: bool
) -> None:
    """GitHub's MCP tools pass owner and repo apart; clone URLs end in .git: both are denied."""
    event = json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "tool_name": tool.strip(),
            "tool_input": _GITHUB_CALLS[tool],
        }
    )
    env = {} if fast else {"NOWLINE_NO_FAST_PATH": "1"}
    code, out, _ = _nowline("hook", "--path", archived, stdin=event, **env)
    assert code == 0
    decision = json.loads(out)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "acme/gadget" in decision["permissionDecisionReason"]


@pytest.mark.parametrize(
    "tool_input",
    [
        {"owner": "acme", "repo": "gadget", "title": "bug"},
        {"owner": "acme", "repo": "widget.js2"},
        {"command": "git clone https://github.com/acme/widget.js.github.git"},
    ],
)
def test_another_repository_of_the_owner_is_allowed(archived: str, tool_input: Any) -> None:
    """The current repository, and names that only begin like the archived one, pass."""
    event = json.dumps(
        {"hook_event_name": "PreToolUse", "tool_name": "mcp__github__x", "tool_input": tool_input}
    )
    code, out, _ = _nowline("hook", "--path", archived, stdin=event)
    assert (code, out) == (0, "")
