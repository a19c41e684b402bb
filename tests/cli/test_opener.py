"""The store opener (nowline.stores) and the CLI edges it fixes.

No store made by a refusal, any embedding function for commands that embed nothing, shared
store options, plain help, re-imports, and the remember and correct commands.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import chromadb
import pytest
from typer.testing import CliRunner

import nowline
from nowline.stores import Store, open_collection
from nowline.surfaces.cli import app
from tests.cli.conftest import UFO, invoke, invoke_json
from tests.conftest import ChromaServer, FakeEmbedding

ROOT = Path(__file__).resolve().parents[2]


MAKE_CUSTOM = textwrap.dedent(
    """
    import sys
    import chromadb, nowline
    from tests.conftest import FakeEmbedding  # registered here only
    col = nowline.wrap(chromadb.PersistentClient(path=sys.argv[1])).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    col.remember("metalcraftai/ufo: PR #1705 passed review.", id="pr")
    col.correct(sys.argv[2], deprecates=["metalcraftai/ufo"], id="move")
    """
)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m nowline ARGS`` in a fresh process (no test embedding registered)."""
    return subprocess.run(
        [sys.executable, "-m", "nowline", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        check=False,
    )


def test_commands_that_embed_nothing_open_a_custom_function(tmp_path: Path) -> None:
    """stats, corrections, check, preview, repair, retract work; recall says what it needs."""
    path = str(tmp_path / "custom")
    subprocess.run(
        [sys.executable, "-c", MAKE_CUSTOM, path, UFO], cwd=ROOT, check=True, timeout=120
    )
    stats = _cli("stats", path, "--json")
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["records"] == 2
    assert _cli("corrections", path).returncode == 0
    assert _cli("check", path, "git clone metalcraftai/ufo").returncode == 1
    assert _cli("preview", path, "-d", "metalcraftai/ufo").returncode == 0
    assert _cli("repair", path).returncode == 0
    recall = _cli("recall", path, "ufo")
    err = " ".join(recall.stderr.split())
    assert recall.returncode == 1 and "Traceback" not in err
    assert "cannot build" in err and "module that registers" in err and "stats" in err
    assert _cli("retract", path, "move").returncode == 0
    config = chromadb.PersistentClient(path=path).get_collection("memory").configuration
    assert isinstance(config["embedding_function"], FakeEmbedding)  # left as it was


@pytest.mark.parametrize("command", ["mcp", "import"])
def test_a_refused_collection_name_creates_no_store(command: str, tmp_path: Path) -> None:
    """mcp/import -c w1 into a new folder end in the error box (exit 2) and create nothing."""
    target = tmp_path / "new"
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"text": "x"}) + "\n", encoding="utf-8")
    args = [command, str(target), "-c", "w1", "--create"]
    args += [str(lines)] if command == "import" else []
    result = invoke(*args)
    assert result.exit_code == 2 and "--collection" in result.stderr
    assert "Traceback" not in result.output and not target.exists()


def test_a_file_as_store_is_a_usage_error(tmp_path: Path) -> None:
    """A store path that is a file exits 2 with the error box."""
    afile = tmp_path / "f"
    afile.write_text("x", encoding="utf-8")
    for args in (["stats", str(afile)], ["mcp", str(afile)]):
        result = invoke(*args)
        assert result.exit_code == 2 and "'PATH'" in result.stderr, args
        assert "Traceback" not in result.output, args


def test_check_of_an_empty_text_exits_2(seeded: str) -> None:
    """Check "" is a usage error, as recall "" is."""
    assert invoke("check", seeded, "").exit_code == 2
    assert invoke("recall", seeded, "").exit_code == 2


def test_a_short_typo_suggests_no_unrelated_option(seeded: str) -> None:
    """--k on a command without it names no --token; a close typo still gets its hint."""
    result = invoke("stats", seeded, "--k", "3")
    assert result.exit_code == 2 and "--token" not in result.stderr
    close = invoke("stats", seeded, "--tokn", "x")
    assert close.exit_code == 2 and "--token" in close.stderr


def test_help_shows_no_bool_type() -> None:
    """Flags (--json, --help, --dry-run) show no <bool> in any command's help."""
    for command in ("stats", "recall", "import", "correct", "remember", "mcp"):
        result = CliRunner().invoke(app, [command, "--help"], terminal_width=200)
        assert result.exit_code == 0 and "<bool>" not in result.stdout, command


def test_every_command_takes_the_same_store_options() -> None:
    """The store options are defined once and every store command has all of them."""
    import typer.main

    group = typer.main.get_command(app)
    shared = {"--collection", "--scope-key", "--url", "--token", "--token-header", "--tenant"}
    names = ["stats", "corrections", "recall", "preview", "check", "retract", "repair"]
    names += ["import", "mcp", "hook", "scan", "serve", "remember", "correct"]
    for name in names:
        command = group.commands[name]  # type: ignore[attr-defined]
        opts = {o for p in command.params for o in p.opts}
        assert shared | {"--database"} <= opts, name


def test_stats_on_an_empty_server_does_not_blame_collection(chroma_server: ChromaServer) -> None:
    """An empty server database says it has no collections, not that --collection is wrong."""
    url = f"http://{chroma_server.host}:{chroma_server.port}"
    result = invoke("stats", "--url", url, "--database", chroma_server.new_database())
    err = " ".join(result.stderr.split())
    assert result.exit_code == 2 and "no collections yet" in err and "--collection" not in err


# ----------------------------------------------------------------- import and writes


def _jsonl(path: Path, *rows: object) -> str:
    """Write rows as JSON lines; return the path."""
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return str(path)


def test_reimport_fails_by_default_and_names_skip_and_upsert(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """Ids already stored refuse the import, suggesting --on-existing skip or upsert."""
    memory.remember("Old text.", id="a")
    path = _jsonl(tmp_path / "in.jsonl", {"id": "a", "text": "New text."}, {"id": "b", "text": "B"})
    result = invoke("import", store_path, path)
    err = " ".join(result.stderr.split())
    assert result.exit_code == 1 and "--on-existing skip" in err and "upsert" in err
    assert memory.count() == 1
    skipped = invoke("import", store_path, path, "--on-existing", "skip")
    assert skipped.exit_code == 0, skipped.output
    assert memory.get(ids=["a"])["documents"] == ["Old text."] and memory.count() == 2
    upserted = invoke("import", store_path, path, "--on-existing", "upsert")
    assert upserted.exit_code == 0, upserted.output
    assert memory.get(ids=["a"])["documents"] == ["New text."]


def test_upsert_replaces_a_correction(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """An upserted correction line replaces the stored correction, which still links."""
    memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
    memory.correct("Moved from metalcraftai/ufo to x/y.", deprecates=["metalcraftai/ufo"], id="m")
    path = _jsonl(
        tmp_path / "in.jsonl", {"id": "m", "text": UFO, "deprecates": ["metalcraftai/ufo"]}
    )
    result = invoke("import", store_path, path, "--on-existing", "upsert")
    assert result.exit_code == 0, result.output
    assert [c.document for c in memory.corrections()] == [UFO]
    assert [c.id for c in memory.hits(["pr"])[0].direct] == ["m"]


def test_a_refused_import_creates_no_store(tmp_path: Path) -> None:
    """Bad lines into a missing folder leave no folder; into an empty store, no collection."""
    target = tmp_path / "new"
    path = _jsonl(tmp_path / "bad.jsonl", {"text": "t", "metadata": {"nowline_role": "x"}})
    assert invoke("import", str(target), path, "--create").exit_code == 1
    assert not target.exists()
    chromadb.PersistentClient(path=str(target))
    assert invoke("import", str(target), path, "--create").exit_code == 1
    assert chromadb.PersistentClient(path=str(target)).list_collections() == []


def test_jsonl_plan_is_pure_and_reports_every_bad_line() -> None:
    """jsonl.plan validates lines without a store; the bad ones carry their error."""
    from nowline.surfaces import jsonl

    plan = jsonl.plan(
        [
            json.dumps({"id": "a", "text": "metalcraftai/ufo one."}),
            "",
            json.dumps({"text": "Moved to x/y.", "deprecates": ["metalcraftai/ufo"]}),
            json.dumps({"id": "a", "text": "again"}),
        ]
    )
    assert [p.id for p in plan.lines] == ["a"] and plan.memories == 1
    assert [b.line for b in plan.bad] == [3, 4]
    assert isinstance(plan.bad[0].error, nowline.AbsentString)


def test_remember_and_correct_print_ids_and_reach(
    memory: nowline.Collection, store_path: str
) -> None:
    """Remember stores a memory; correct stores a correction and prints its reach as JSON."""
    got = invoke_json(
        "remember", store_path, "metalcraftai/ufo — PR #1705 passed review.", "--id", "pr"
    )
    assert got == {"id": "pr", "superseded_by": []}
    report = invoke_json("correct", store_path, UFO, "-d", "metalcraftai/ufo", "--id", "mv")
    assert report["stored"] is True and report["id"] == "mv" and report["reached"] == 1
    text = invoke("remember", store_path, "git clone metalcraftai/ufo", "--metadata", '{"k": 1}')
    assert text.exit_code == 0 and f"now: {UFO}" in " ".join(text.stdout.split())
    assert [c.id for c in memory.corrections()] == ["mv"]


def test_correct_refusals_exit_1_and_show_near_misses(
    memory: nowline.Collection, store_path: str
) -> None:
    """A typo reaches nothing: exit 1, nothing stored, the near miss in the JSON output."""
    memory.remember("Docs live on wiki.northwind.dev now.", id="w")
    args = ["Moved from wiki.nortwind.dev to docs.northwind.dev.", "-d", "wiki.nortwind.dev"]
    result = invoke("correct", store_path, *args, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["stored"] is False and data["near_misses"][0]["string"] == "wiki.northwind.dev"
    absent = invoke("correct", store_path, "Moved to x/y.", "-d", "metalcraftai/ufo")
    assert absent.exit_code == 1 and "Error" in absent.stderr
    assert memory.corrections() == []
    forced = invoke("correct", store_path, *args, "--allow-unreached")
    assert forced.exit_code == 0, forced.output


@pytest.mark.model
def test_loading_the_model_prints_no_progress_bar() -> None:
    """The model loads without "Loading weights" on stderr unless NOWLINE_VERBOSE is set."""
    code = "import nowline; nowline.embedding_function()(['hello'])"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NOWLINE_VERBOSE", "HF_HUB_DISABLE_PROGRESS_BARS")
    }
    quiet = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        check=True,
    )
    assert "Loading weights" not in quiet.stderr
    loud = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=180,
        env={**env, "NOWLINE_VERBOSE": "1"},
        check=True,
    )
    assert "Loading weights" in loud.stderr


def test_mcp_started_without_a_shell_expands_the_tilde(tmp_path: Path) -> None:
    """`nowline mcp --path ~/memory` from an args list makes the store under HOME, no ~ folder."""
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    home.mkdir()
    cwd.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "nowline", "mcp", "--path", "~/memory", "--create"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={**os.environ, "HOME": str(home), "HF_HUB_OFFLINE": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (home / "memory" / "chroma.sqlite3").is_file()
    assert list(cwd.iterdir()) == []


def test_a_server_opens_by_url_or_store(chroma_server: ChromaServer) -> None:
    """A Store with a database, a wrapped client and a URL string all open a server's collection."""
    database = chroma_server.new_database()
    chroma_server.client(database).create_collection("memory", embedding_function=FakeEmbedding())
    url = f"http://{chroma_server.host}:{chroma_server.port}"
    assert open_collection(Store(url=url, database=database)).name == "memory"
    assert open_collection(nowline.wrap(chroma_server.client(database))).name == "memory"
    with pytest.raises(nowline.CollectionNotFound):
        open_collection(url, "absent-here")


def test_a_fresh_process_sees_a_change_back_spelled_shorter(tmp_path: Path) -> None:
    """``nowline check`` (the fast path, from the snapshot) revives ``github.com/acme/app``.

    After ``github.com/acme/app`` → ``github.com/acme/app2`` and ``acme/app2`` → ``acme/app``,
    cloning the current repository must pass; after the change back is retracted, it trips.
    """
    path = str(tmp_path / "store")
    memory = nowline.wrap(chromadb.PersistentClient(path=path)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory.remember("Clone github.com/acme/app for the client.", id="long")
    memory.correct(
        "The app moved from github.com/acme/app to github.com/acme/app2.",
        deprecates=["github.com/acme/app"],
        id="there",
    )
    memory.correct(
        "The app moved back from acme/app2 to acme/app.", deprecates=["acme/app2"], id="back"
    )
    clone = "git clone https://github.com/acme/app"
    assert _cli("check", path, clone).returncode == 0
    assert _cli("check", path, "git clone https://github.com/acme/app2").returncode == 1
    memory.retract("back")
    tripped = _cli("check", path, clone)
    assert tripped.returncode == 1 and "github.com/acme/app2" in tripped.stdout


def test_a_fresh_process_finds_a_change_back_its_text_does_not_name(tmp_path: Path) -> None:
    """The fast path looks up what revives a string in every spelling, as ``check()`` does.

    ``https://github.com/acme/app`` → ``x/y`` and ``x/y`` → ``acme/app``, each new value given
    as ``replaced_by`` and named by no text: ``nowline check`` once left the change back out
    of its narrowed registry (looked up by the URL as written) and called the current
    repository outdated, exit 1, while the library passed it.
    """
    path = str(tmp_path / "store")
    memory = nowline.wrap(chromadb.PersistentClient(path=path)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory.remember("Clone https://github.com/acme/app for the build.", id="clone")
    url = "https://github.com/acme/app"
    memory.correct(f"{url} is retired.", deprecates=[url], replaced_by=["x/y"], id="c1")
    memory.correct("x/y is retired.", deprecates=["x/y"], replaced_by=["acme/app"], id="c2")
    clone = f"git clone {url}"
    assert memory.check(clone) == []
    assert _cli("check", path, clone).returncode == 0
    memory.retract("c2")
    assert _cli("check", path, clone).returncode == 1


def test_a_move_between_hosts_stays_outdated_in_a_fresh_process(tmp_path: Path) -> None:
    """``gitlab.com/acme/app`` → ``github.com/acme/app`` → ``codeberg.org/acme/app``.

    The last step changes nothing back (two hosts are two values): the GitLab URL stays
    outdated in ``check()`` and ``nowline check``. Dropping hosts once revived it.
    """
    path = str(tmp_path / "store")
    memory = nowline.wrap(chromadb.PersistentClient(path=path)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory.remember("Build from gitlab.com/acme/app.", id="build")
    for old, new in [("gitlab.com", "github.com"), ("github.com", "codeberg.org")]:
        memory.correct(
            f"acme/app moved from {old}/acme/app to {new}/acme/app.",
            deprecates=[f"{old}/acme/app"],
        )
    clone = "git clone https://gitlab.com/acme/app"
    assert [t.newest.replaced_by for t in memory.check(clone)] == [["codeberg.org/acme/app"]]
    tripped = _cli("check", path, clone)
    assert tripped.returncode == 1 and "codeberg.org/acme/app" in tripped.stdout


def test_a_fresh_process_finds_a_bare_value_held_under_a_host(tmp_path: Path) -> None:
    """The snapshot's index finds ``acme/app`` held as ``https://github.com/acme/app``.

    ``acme/app`` → ``x/y`` → ``https://github.com/acme/app`` revives ``acme/app``. The key
    that files a hosted value for a bare lookup began with NUL, which SQLite's ``json_each``
    cuts off, so ``nowline check`` (from the snapshot) called the current repository
    outdated while the library passed it; and a fresh process stored a correction that
    deprecated the held value, where the writer refused it.
    """
    path = str(tmp_path / "store")
    memory = nowline.wrap(chromadb.PersistentClient(path=path)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory.remember("Clone acme/app for the build.", id="clone")
    url = "https://github.com/acme/app"
    memory.correct("acme/app is retired.", deprecates=["acme/app"], replaced_by=["x/y"], id="c1")
    memory.correct("x/y is retired.", deprecates=["x/y"], replaced_by=[url], id="c2")
    clone = f"git clone {url}"
    assert memory.check(clone) == []
    assert _cli("check", path, clone).returncode == 0
    child = textwrap.dedent(
        f"""
        import chromadb, nowline
        from tests.conftest import FakeEmbedding
        col = nowline.wrap(chromadb.PersistentClient(path={path!r})).get_collection(
            "memory", embedding_function=FakeEmbedding()
        )
        try:
            col.correct("Do not trust acme/app notes.", deprecates=["acme/app"])
        except nowline.NewValue as refused:
            print("refused", refused.holder)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", child],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": os.getcwd()},
        check=False,
    )
    assert done.stdout.strip() == "refused c2", done.stdout + done.stderr


def test_a_change_back_written_as_a_url_reaches_the_bare_name(tmp_path: Path) -> None:
    """A correction that deprecates a URL reaches the value in its other spellings.

    ``acme/app`` → ``acme/app2``, then "https://github.com/acme/app2 was renamed back to
    https://github.com/acme/app.": held as written, the URL reached neither the memory
    that writes ``acme/app2`` nor the first correction, which stayed the live one
    (``transition``) beside the change back, and ``git clone acme/app2`` passed every
    check (a review's F5). Now both are historical, and the library and ``nowline check``
    (a fresh process, from the snapshot) trip on every spelling of the old name, while a
    GitLab mirror of that name stays current.
    """
    path = str(tmp_path / "store")
    memory = nowline.wrap(chromadb.PersistentClient(path=path)).create_collection(
        "memory", embedding_function=FakeEmbedding()
    )
    memory.remember("Deploy acme/app on Fridays.", id="deploy")
    memory.remember("CI runs in acme/app2 now.", id="ci")
    memory.remember("The mirror is gitlab.com/acme/app2.", id="mirror")
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="c1")
    back = "https://github.com/acme/app2 was renamed back to https://github.com/acme/app."
    report = memory.correct(back, deprecates=["https://github.com/acme/app2"], id="c2")
    assert report.reached == 2  # the memory and the step it undoes
    roles = {h.id: h.role for h in memory.hits(["deploy", "ci", "mirror", "c1", "c2"])}
    assert roles == {
        "deploy": "current",  # revived: the name is current again
        "ci": "historical",
        "mirror": "current",
        "c1": "historical",
        "c2": "transition",
    }
    for clone in ("git clone acme/app2", "git clone git@github.com:acme/app2.git"):
        assert [t.correction.id for t in memory.check(clone)] == ["c2"]
        tripped = _cli("check", path, clone)
        assert tripped.returncode == 1 and "acme/app" in tripped.stdout, tripped.stdout
    for current in ("git clone https://github.com/acme/app", "git clone gitlab.com/acme/app2"):
        assert memory.check(current) == []
        assert _cli("check", path, current).returncode == 0
