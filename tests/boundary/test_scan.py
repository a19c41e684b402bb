"""``nowline scan``: every outdated string in a workspace's files, git remotes and submodules."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nowline
from nowline.surfaces import scan
from tests.boundary.conftest import UFO, git, make_store, run_cli

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text("utf-8"))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Return a git work tree whose origin is the archived repository, with tracked files."""
    folder = tmp_path / "checkout"
    folder.mkdir()
    git(folder, "init", "-q")
    git(folder, "remote", "add", "origin", "https://github.com/metalcraftai/ufo.git")
    git(folder, "config", "submodule.docs.url", "https://github.com/metalcraftai/ufo-docs.git")
    git(folder, "config", "submodule.core.url", "git@github.com:metalcraftai/ufo")
    (folder / "src").mkdir()
    (folder / "README.md").write_text(
        "# UFO\r\nBuild: clone github.com/Metalcraftai/UFO.\r\n", encoding="utf-8"
    )
    (folder / "src" / "ünï.txt").write_text("éé metalcraftai/ufo\n", encoding="utf-8")
    (folder / "src" / "blob.bin").write_bytes(b"\0\1metalcraftai/ufo")
    (folder / "src" / "hosted.txt").write_text("metalcraftai/ufo-hosted\n", encoding="utf-8")
    git(folder, "add", "README.md", "src")
    (folder / "untracked.txt").write_text("metalcraftai/ufo\n", encoding="utf-8")
    return folder


# ---------------------------------------------------------------------------- the library


def test_a_git_work_tree_is_scanned_by_its_tracked_files_and_remote_urls(
    memory: nowline.Collection, repo: Path
) -> None:
    """Tracked text files, the origin and submodule URLs trip; untracked and binary do not."""
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    report = scan.scan([str(repo)], memory.check)
    got = [(f.path, f.line, f.column, f.end_column) for f in report.findings]
    assert got == [
        ("README.md", 2, 25, 41),
        ("src/ünï.txt", 1, 4, 20),
        (".git/config", 7, 27, 43),
        (".git/config", 12, 23, 39),
    ]
    readme, text, origin, core = report.findings
    assert readme.text == "Build: clone github.com/Metalcraftai/UFO."  # no \r
    assert text.text[text.column - 1 : text.end_column - 1] == "metalcraftai/ufo"
    assert origin.text == "https://github.com/metalcraftai/ufo.git"
    assert core.text == "git@github.com:metalcraftai/ufo"
    assert {f.correction.id for f in report.findings} == {"move"}
    assert report.files == 5 and report.skipped == []  # 4 tracked files and the config


def test_a_plain_folder_is_scanned_whole_and_a_file_path_as_given(
    memory: nowline.Collection, tmp_path: Path
) -> None:
    """Outside git every text file is read (nested too); a file argument keeps its own path."""
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    folder = tmp_path / "plain"
    (folder / "a" / "b").mkdir(parents=True)
    (folder / "a" / "b" / "deep.md").write_text("x\n\ny metalcraftai/ufo", encoding="utf-8")
    (folder / "img.png").write_bytes(b"\x89PNG\0metalcraftai/ufo")
    (folder / "bom.txt").write_bytes("\ufeffmetalcraftai/ufo".encode())
    (folder / "latin1.txt").write_bytes(b"caf\xe9 metalcraftai/ufo")
    report = scan.scan([str(folder), str(folder / "bom.txt")], memory.check)
    got = [(f.root, f.path, f.line, f.column) for f in report.findings]
    assert got == [
        (str(folder), "a/b/deep.md", 3, 3),
        (str(folder), "bom.txt", 1, 1),
        (str(folder), "latin1.txt", 1, 6),
    ]  # bom.txt is read once, under the folder given first
    single = scan.scan([str(folder / "bom.txt")], memory.check).findings
    assert [(f.root, f.path) for f in single] == [(".", (folder / "bom.txt").as_posix())]


def test_an_anchored_correction_needs_its_anchor_in_the_file(
    memory: nowline.Collection, tmp_path: Path
) -> None:
    """A correction with about trips a file naming its string only if the anchor is there."""
    memory.correct(
        "Acme's CEO changed: Michelle left, Dario leads Acme.",
        deprecates=["Michelle"],
        about=["Acme"],
        id="ceo",
    )
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "acme.md").write_text("Acme\n\nask Michelle\n", encoding="utf-8")
    (tmp_path / "w" / "globex.md").write_text("Globex: ask Michelle\n", encoding="utf-8")
    found = scan.scan([str(tmp_path / "w")], memory.check).findings
    assert [(f.path, f.line, f.deprecated) for f in found] == [("acme.md", 3, "Michelle")]


def test_remote_urls_reads_only_remote_and_submodule_urls() -> None:
    """Remote and submodule url and pushurl keys are read, quoted or not; nothing else is."""
    config = (
        "[core]\n\turl = https://a/x\n"
        '[remote "origin"]\n\turl = "https://b/y"\n\tfetch = +refs/heads/*\n'
        '[Submodule "lib"]\n  pushurl=git@c:z\n'
        '[branch "main"]\n\tremote = origin\n'
    )
    assert scan.remote_urls(config) == [(4, 9, "https://b/y"), (7, 11, "git@c:z")]


def test_lines_and_columns_count_code_points_from_1() -> None:
    """An occurrence after astral characters on a CRLF line gets its code-point column."""
    text = "one\r\n😀😀 x acme/app\r\nthree"
    start = text.index("acme")
    assert scan.finding_lines(text, [(start, start + 8)]) == [(2, 6, "😀😀 x acme/app")]
    long_line = "a " * 400 + "acme/app" + " b" * 400
    ((_, column, shown),) = scan.finding_lines(long_line, [(800, 808)])
    assert column == 801 and "acme/app" in shown and len(shown) <= 302


@given(st.text(alphabet="ab \n\r😀é", max_size=80), st.data())
def test_finding_lines_agrees_with_splitting_the_text(text: str, data: st.DataObject) -> None:
    """Line, column and line text agree with a naive split of the text, in the spans' order."""
    starts = st.integers(min_value=0, max_value=len(text))
    spans = [
        (start, min(len(text), start + width))
        for start, width in data.draw(st.lists(st.tuples(starts, st.integers(0, 4)), max_size=6))
    ]
    got = scan.finding_lines(text, spans)
    assert len(got) == len(spans)
    for (start, _end), (line, column, shown) in zip(spans, got, strict=True):
        before = text[:start]
        assert line == before.count("\n") + 1
        assert column == start - (before.rfind("\n") + 1) + 1
        assert shown == text.split("\n")[line - 1].removesuffix("\r")


# --------------------------------------------------------- the command, as a subprocess


def test_the_command_reports_json_and_exits_1(store: str, repo: Path) -> None:
    """--format json gives one object per occurrence, relative to PATH; exit 1."""
    out = run_cli("scan", "--path", store, str(repo), "--format", "json")
    assert out.returncode == 1, out.stderr
    found = json.loads(out.stdout)
    assert [(f["path"], f["line"], f["column"]) for f in found] == [
        ("README.md", 2, 25),
        ("src/ünï.txt", 1, 4),
        (".git/config", 7, 27),
        (".git/config", 12, 23),
    ]
    first = found[0]
    assert first["root"] == str(repo) and first["deprecated"] == "metalcraftai/ufo"
    assert first["correction"] == {"id": "move", "document": UFO}
    assert found[2]["text"] == "https://github.com/metalcraftai/ufo.git"


def test_the_command_prints_sarif_that_the_oasis_schema_accepts(store: str, repo: Path) -> None:
    """--format sarif validates against SARIF 2.1.0: one warning per occurrence, code points."""
    out = run_cli("scan", "--path", store, ".", "--format", "sarif", cwd=repo)
    assert out.returncode == 1, out.stderr
    log = json.loads(out.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    (run,) = log["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["move"]
    assert {r["ruleId"] for r in run["results"]} == {"move"}
    assert {r["level"] for r in run["results"]} == {"warning"}
    where = [r["locations"][0]["physicalLocation"] for r in run["results"]]
    assert [(w["artifactLocation"]["uri"], w["region"]["startLine"]) for w in where] == [
        ("README.md", 2),
        ("src/%C3%BCn%C3%AF.txt", 1),
        (".git/config", 7),
        (".git/config", 12),
    ]
    assert where[1]["region"]["startColumn"] == 4
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == repo.as_uri() + "/"


def test_a_clean_tree_exits_0_and_usage_errors_exit_2(store: str, tmp_path: Path) -> None:
    """Nothing outdated exits 0; a missing PATH or a missing store is a usage error (2)."""
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "a.md").write_text("ufo-ai/ufo and metalcraftai/ufo-hosted\n", encoding="utf-8")
    ok = run_cli("scan", "--path", store, str(clean))
    assert (ok.returncode, ok.stdout.strip()) == (0, "Nothing outdated found."), ok.stderr
    assert run_cli("scan", "--path", store, str(tmp_path / "nope")).returncode == 2
    no_store = run_cli("scan", "--path", str(tmp_path / "none"), str(clean))
    assert no_store.returncode == 2 and not (tmp_path / "none").exists()


def test_a_scoped_store_scans_for_one_scope(tmp_path: Path, repo: Path) -> None:
    """On a scoped store the scan needs --scope, and another scope's corrections do not apply."""
    path = str(tmp_path / "scoped")
    make_store(Path(path), scoped=True)
    assert run_cli("scan", "--path", path, str(repo)).returncode == 2
    assert run_cli("scan", "--path", path, "--scope", "u2", str(repo)).returncode == 0
    assert run_cli("scan", "--path", path, "--scope", "u1", str(repo)).returncode == 1


def test_a_dotted_repository_name_is_found_in_its_origin_remote(
    memory: nowline.Collection, tmp_path: Path
) -> None:
    """``acme/widget.js`` (a name with a dot, like next.js) trips in ``…/widget.js.git``."""
    folder = tmp_path / "widget"
    folder.mkdir()
    git(folder, "init", "-q")
    git(folder, "remote", "add", "origin", "https://github.com/acme/widget.js.git")
    git(folder, "remote", "add", "fork", "git@github.com:acme/widget.js.git")
    memory.correct("acme/widget.js was archived.", deprecates=["acme/widget.js"], id="arch")
    report = scan.scan([str(folder)], memory.check)
    assert [f.text for f in report.findings] == [
        "https://github.com/acme/widget.js.git",
        "git@github.com:acme/widget.js.git",
    ]
