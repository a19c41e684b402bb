"""The recipes of docs/tool-boundary.md, run as written: settings, events, shell, CI, pre-commit.

The page's python blocks run in tests/project/test_docs.py. Here the ``json`` settings are read and
their hook commands run by a shell with the documented events on stdin (the output must be the
documented output), every ``sh`` block runs in bash (each ``echo "exit $?"`` must print the
exit code its comment gives), and the GitHub Actions job and the pre-commit configuration run
their nowline command against a real store (a Chroma server for CI).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.boundary.conftest import ROOT, cli_env, git, make_store
from tests.conftest import ServerDatabase

PAGE = ROOT / "docs" / "tool-boundary.md"
BLOCKS = [
    (m.group(1), m.group(2))
    for m in re.finditer(r"```(\w+)\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
]
SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text("utf-8"))


def blocks(language: str) -> list[str]:
    """Return the page's blocks of one language, in page order."""
    return [text for lang, text in BLOCKS if lang == language]


def json_blocks(key: str) -> list[Any]:
    """Return the page's JSON blocks that have ``key`` at the top level."""
    return [data for data in map(json.loads, blocks("json")) if key in data]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """Return a home folder whose ~/.nowline/memory is a store with the UFO move."""
    folder = tmp_path / "home"
    make_store(folder / ".nowline" / "memory")
    return folder


def shell(script: str, home: Path, cwd: Path, stdin: str | None = None) -> Any:
    """Run ``script`` with bash as an agent or a terminal would (HOME set, nowline on PATH)."""
    return subprocess.run(
        ["bash", "-c", script],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=cli_env(HOME=str(home)),
        timeout=300,
        check=False,
    )


def test_the_page_has_the_recipes() -> None:
    """The page documents Claude Code's and Codex's settings, the three events and outputs."""
    assert len(json_blocks("hooks")) == 2
    assert [e["hook_event_name"] for e in json_blocks("hook_event_name")] == [
        "PreToolUse",
        "PostToolUse",
        "UserPromptSubmit",
    ]
    assert len(json_blocks("hookSpecificOutput")) == 3
    assert len(blocks("sh")) == 3 and len(blocks("yaml")) == 2


@pytest.mark.parametrize("agent", ["Claude Code", "Codex"])
def test_the_settings_commands_give_the_documented_outputs(agent: str, home: Path) -> None:
    """Each event's documented command, fed the documented event, prints the documented JSON."""
    settings = json_blocks("hooks")[0 if agent == "Claude Code" else 1]["hooks"]
    outputs = {
        o["hookSpecificOutput"]["hookEventName"]: o for o in json_blocks("hookSpecificOutput")
    }
    for event in json_blocks("hook_event_name"):
        name = event["hook_event_name"]
        (group,) = settings[name]
        if "tool_name" not in event:  # a message: no tool, so no matcher
            assert "matcher" not in group
        elif agent == "Codex":
            assert re.fullmatch(group["matcher"], event["tool_name"])
        (handler,) = group["hooks"]
        assert handler["type"] == "command"
        out = shell(handler["command"], home, home, stdin=json.dumps(event))
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == outputs[name]


def test_the_shell_blocks_exit_as_their_comments_say(home: Path, tmp_path: Path) -> None:
    """Every sh block runs; each ``echo "exit $?"`` prints the code its comment names."""
    work = tmp_path / "work"
    work.mkdir()
    for script in blocks("sh"):
        expected = re.findall(r'echo "exit \$\?"\s+# exit (\d)', script)
        assert expected, script
        out = shell(script, home, work)
        printed = re.findall(r"^exit (\d)$", out.stdout, re.M)
        assert printed == expected, (script, out.stdout, out.stderr)


def test_the_scan_block_prints_the_documented_lines(home: Path, tmp_path: Path) -> None:
    """The scan recipe's output matches the text block shown under it (... is any text)."""
    (script,) = [s for s in blocks("sh") if "nowline scan" in s]
    (shown,) = blocks("text")
    out = shell(script, home, tmp_path)
    lines = [ln for ln in out.stdout.splitlines() if not ln.startswith("exit ")]
    patterns = [re.escape(ln).replace(re.escape("..."), ".*") for ln in shown.splitlines()]
    assert len(lines) == len(patterns), out.stdout
    for line, pattern in zip(lines, patterns, strict=True):
        assert re.fullmatch(pattern, line), (line, pattern)


def test_the_ci_job_writes_valid_sarif_from_a_server(
    http_database: ServerDatabase, tmp_path: Path
) -> None:
    """The GitHub Actions step, run with NOWLINE_URL set, writes a SARIF log and fails (1)."""
    make_store(client=http_database.client())
    (job,) = [y for y in map(yaml.safe_load, blocks("yaml")) if "jobs" in y]
    (step,) = [s for s in job["jobs"]["scan"]["steps"] if "nowline scan" in s.get("run", "")]
    assert step["env"] == {"NOWLINE_URL": "${{ secrets.NOWLINE_URL }}"}
    upload = job["jobs"]["scan"]["steps"][-1]
    assert upload["with"]["sarif_file"] == "nowline.sarif" and upload["if"] == "always()"
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    git(checkout, "init", "-q")
    git(checkout, "remote", "add", "origin", "https://github.com/metalcraftai/ufo.git")
    server = http_database.server
    out = subprocess.run(
        ["bash", "-c", step["run"]],
        cwd=checkout,
        capture_output=True,
        text=True,
        env=cli_env(
            NOWLINE_URL=f"http://{server.host}:{server.port}", CHROMA_DATABASE=http_database.name
        ),
        timeout=300,
        check=False,
    )
    assert out.returncode == 1, out.stderr
    log = json.loads((checkout / "nowline.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    (result,) = log["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == ".git/config"


def test_the_pre_commit_hook_runs_as_pre_commit_would(tmp_path: Path) -> None:
    """The documented config's hook, built from .pre-commit-hooks.yaml, fails on staged files."""
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (config,) = [y for y in map(yaml.safe_load, blocks("yaml")) if "repos" in y]
    (use,) = config["repos"][0]["hooks"]
    (hook,) = [h for h in manifest if h["id"] == use["id"]]
    assert hook["id"] == "nowline-scan" and hook["language"] == "python"
    assert hook["types"] == ["text"]
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "remote", "add", "origin", "https://github.com/ufo-ai/ufo.git")
    make_store(repo / ".nowline" / "memory")
    (repo / "CONTRIBUTING.md").write_text("PRs to metalcraftai/ufo\n", encoding="utf-8")
    (repo / "ok.md").write_text("PRs to ufo-ai/ufo\n", encoding="utf-8")
    git(repo, "add", "CONTRIBUTING.md", "ok.md")
    command = [*shlex.split(hook["entry"]), *use["args"], "CONTRIBUTING.md", "ok.md"]
    out = subprocess.run(
        command, cwd=repo, capture_output=True, text=True, env=cli_env(), timeout=300, check=False
    )
    assert out.returncode == 1, out.stderr
    assert out.stdout.splitlines()[0].startswith("CONTRIBUTING.md:1:8: 'metalcraftai/ufo'")
    clean = subprocess.run(
        [*command[:-2], "ok.md"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=300,
        check=False,
    )
    assert clean.returncode == 0, clean.stdout + clean.stderr
