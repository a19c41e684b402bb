"""Smoke runs of the wrapper benchmarks: each script runs at smoke size and writes sane JSON.

All scripts start at once in subprocesses (a module fixture), so the module takes about as
long as the slowest script rather than their sum.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "bench"
DATA = REPO.parent / "shared" / "data"
SCRIPTS = {
    "core": None,
    "startup": None,
    "propagation": None,
    "seed_replay": None,
    "async_recall": None,
    "freshness": None,
    "situatedqa": DATA / "situatedqa" / "data" / "raw_data" / "temp.dev.jsonl",
    "locomo": DATA / "locomo" / "locomo10.json",
    "guards": DATA / "locomo" / "locomo10.json",
    "change_line": None,
    "second_pass": None,
}
TIMEOUT = 240
ABSOLUTE = re.compile(r"(?:^|[\s\"`=(])(?:/[A-Za-z0-9_.+-]+){2,}")
"""An absolute path of the machine that ran a benchmark (results name paths relative)."""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Start every benchmark with --smoke (and --help) at once; yield their results."""
    env = dict(os.environ, NOWLINE_BENCH_QUIET="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    started: dict[str, tuple[subprocess.Popen[str], Path | None]] = {}
    for name, data in SCRIPTS.items():
        if data is not None and not data.exists():
            continue
        out = tmp_path_factory.mktemp(name)
        cmd = [sys.executable, str(BENCH / f"{name}.py"), "--smoke", "--out", str(out)]
        started[name] = (_popen(cmd, env), out)
        started[f"{name} --help"] = (
            _popen([sys.executable, str(BENCH / f"{name}.py"), "--help"], env),
            None,
        )
    results: dict[str, Any] = {}
    try:
        for key, (proc, out) in started.items():
            stdout, stderr = proc.communicate(timeout=TIMEOUT)
            results[key] = {"rc": proc.returncode, "stdout": stdout, "stderr": stderr, "out": out}
        yield results
    finally:
        for proc, _out in started.values():
            if proc.poll() is None:
                proc.kill()


def _popen(cmd: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    """Start a script from the repository root, capturing its output."""
    return subprocess.Popen(
        cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _result(runs: dict[str, Any], name: str) -> tuple[dict[str, Any], Path]:
    """Return a script's JSON result and its output folder, failing with its stderr."""
    if name not in runs:
        pytest.skip(f"data for {name} is not available")
    run = runs[name]
    assert run["rc"] == 0, f"{name} failed:\n{run['stderr'][-3000:]}"
    out: Path = run["out"]
    assert (out / f"{name}.md").read_text().startswith("# ")
    return json.loads((out / f"{name}.json").read_text()), out


def _share(value: Any) -> bool:
    """Return whether a value is a share in [0, 1]."""
    return isinstance(value, (int, float)) and 0.0 <= value <= 1.0


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_help_describes_the_benchmark(runs: dict[str, Any], name: str) -> None:
    """Each script's --help exits 0 and documents --smoke and --out."""
    if f"{name} --help" not in runs:
        pytest.skip(f"data for {name} is not available")
    run = runs[f"{name} --help"]
    assert run["rc"] == 0, run["stderr"]
    assert "--smoke" in run["stdout"] and "--out" in run["stdout"]


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_results_name_no_path_of_the_machine(runs: dict[str, Any], name: str) -> None:
    """A results file names paths relative to the repository; a temporary folder as <local>/."""
    data, out = _result(runs, name)
    text = (out / f"{name}.md").read_text() + (out / f"{name}.json").read_text()
    assert not ABSOLUTE.search(text), ABSOLUTE.search(text)
    assert data["command"].startswith(f".venv/bin/python bench/{name}.py --smoke --out <local>/")
    assert str(REPO.parent) not in text


def test_committed_results_name_no_path_of_the_machine() -> None:
    """The committed results, which the docs include, name no path of the machine that ran them.

    A path that a benchmark's own data names (a case's memory or message, in ``bench/_*.py``:
    ``/opt/larkspur/etc/app.toml``) is the data's, quoted in a report, not the machine's.
    """
    data = "".join(f.read_text(encoding="utf-8") for f in sorted(BENCH.glob("_*.py")))
    files = [f for f in sorted((BENCH / "results").iterdir()) if f.suffix in (".md", ".json")]
    assert files
    for f in files:
        found = [
            m.group().lstrip(' \t\n"`=(') for m in ABSOLUTE.finditer(f.read_text(encoding="utf-8"))
        ]
        assert [p for p in found if p not in data] == [], f.name


def test_core_smoke_measures_overheads_and_links_exactly_the_stale_records(
    runs: dict[str, Any],
) -> None:
    """The core benchmark reports ratios, a correct propagation, and the scaling plot."""
    data, out = _result(runs, "core")
    assert data["benchmark"] == "core" and data["config"]["smoke"] is True
    assert {"machine", "config", "targets", "sizes", "summary", "command", "seconds"} <= set(data)
    for size in data["sizes"]:
        assert 0.2 < size["add"]["ratio"] < 20
        assert 0.2 < size["query"]["p50_ratio"] < 20
        assert size["query"]["bare"]["n"] == data["config"]["queries"]
        prop = size["propagation"]
        assert prop["correct"] is True
        for run in prop["runs"]:
            assert run["reached"] == data["config"]["reach"] == prop["stale"]
            assert run["sibling_linked"] == 0 and run["other_linked"] == 0
            assert 0 < run["report_seconds"] < 60
            assert set(run["phases_s"]) >= {"find", "persist"}
    assert data["summary"]["propagation_correct"] is True
    for size in data["sizes"]:
        repair = size["repair"]
        # every write went through nowline: repair() reads the whole store and changes nothing
        assert repair["records"] == size["propagation"]["store_records"]
        assert repair["updated"] == repair["links_added"] == repair["links_removed"] == 0
        assert size["peak_rss_mb"] > 50
    scaling = json.loads((out / "scaling.json").read_text())
    assert [s["size"] for s in scaling["sizes"]] == data["config"]["sizes"]
    assert all(s["ms_per_reached"] > 0 for s in scaling["sizes"])
    assert (out / "scaling.png").stat().st_size > 1000


@pytest.mark.server
def test_core_smoke_runs_against_a_chroma_server(chroma_server: Any, tmp_path: Path) -> None:
    """``bench/core.py --url`` measures the same figures over HttpClient (issue 15 §5)."""
    env = dict(os.environ, NOWLINE_BENCH_QUIET="1", NOWLINE_CACHE_DIR=str(tmp_path / "cache"))
    cmd = [
        sys.executable,
        str(BENCH / "core.py"),
        "--smoke",
        "--out",
        str(tmp_path),
        "--url",
        f"http://127.0.0.1:{chroma_server.port}",
    ]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads((tmp_path / "core.json").read_text())
    assert data["config"]["url"].endswith(str(chroma_server.port))
    assert data["summary"]["propagation_correct"] is True
    assert data["sizes"][0]["repair"]["updated"] == 0


def test_startup_smoke_never_trusts_a_stale_snapshot(runs: dict[str, Any]) -> None:
    """Fresh processes open the store with and without a snapshot and trip the same corrections.

    The stale case (corrections retracted through nowline and deleted around it since the
    snapshot) must trip only what a full read trips.
    """
    data, _out = _result(runs, "startup")
    assert data["trips_agree"] is True
    assert data["trips_after_changes"] == ["fix-1"]
    cases = data["cases"]
    assert set(cases) == {"chromadb alone", "full read", "snapshot", "snapshot, stale"}
    for name, case in cases.items():
        assert case["maxrss_mb"] > 50
        assert (case["wrap_s"] > 0) is (name != "chromadb alone")
    assert (
        data["nowline_share_s"] == cases["snapshot"]["start_s"] - cases["chromadb alone"]["start_s"]
    )
    assert all(s["had_snapshot"] for s in data["samples"]["snapshot"])
    assert not any(s["had_snapshot"] for s in data["samples"]["full read"])


def test_propagation_smoke_links_exactly_the_stale_memories(runs: dict[str, Any]) -> None:
    """Both corrections link exactly the memories naming their string; repair changes nothing."""
    data, _out = _result(runs, "propagation")
    cases = data["cases"]
    assert set(cases) == {"1.68% of the store", "fixed 1,682"}
    for case in cases.values():
        assert case["correct"] is True and case["reach"] > 0
        assert all(r["reached"] == case["reach"] for r in case["runs"])
        assert case["floor_s"] > 0 and case["correct_s"] > 0
    assert data["repair"]["updated"] == 0
    assert data["repair"]["records"] == data["build"]["records"]


def test_seed_replay_smoke_links_every_stale_memory_and_no_sibling(runs: dict[str, Any]) -> None:
    """The replay links all memories naming the old repository and none of the sibling's."""
    data, _out = _result(runs, "seed_replay")
    store, summary = data["store"], data["summary"]
    assert store["stale_total"] == data["config"]["stale"] + 9
    assert store["stale_linked"] == store["stale_total"] == store["reached"]
    assert store["sibling_linked"] == 0 and store["other_linked"] == 0
    assert summary["misleading_with_now_line"] == summary["misleading_retrieved"]
    assert summary["misleading_all_with_now_line"] == summary["misleading_within_40"] > 0
    main = data["queries"][0]
    assert main["nowline"]["stale_exposure_strict"] == 0
    assert main["bare"]["stale_exposure_strict"] == main["bare"]["stale_retrieved"]
    assert main["nowline"]["sibling_with_now_line"] == 0
    assert "now: UFO core" in main["nowline"]["rendered"]


def test_situatedqa_smoke_scores_every_store(runs: dict[str, Any]) -> None:
    """The SituatedQA benchmark scores bare Chroma and every deprecation policy."""
    data, _out = _result(runs, "situatedqa")
    assert data["dataset"]["changed"] > 0 and data["dataset"]["unchanged"] > 0
    assert set(data["scores"]) == {"bare", "answer", "name", "fact", "anchored", "subject"}
    for scores in data["scores"].values():
        changed = scores["changed"]
        for key in ("stale_exposure_strict", "stale_exposure_lenient", "current_fact_presence"):
            assert _share(changed[key]), key
        assert _share(scores["unchanged"]["answer_presence"])
    assert data["scores"]["bare"]["changed"]["stale_exposure_strict"] > 0
    answer = data["stores"]["answer"]
    assert answer["reach"] == 1.0 or answer["refused_corrections"] > 0
    assert data["stores"]["fact"]["collateral_memories"] == 0
    assert data["stores"]["fact"]["reach_by_phrasing"]["old-a"] == 1.0
    assert (
        data["scores"]["answer"]["changed"]["stale_exposure_strict"]
        < data["scores"]["bare"]["changed"]["stale_exposure_strict"]
    )


def test_situatedqa_smoke_shows_every_reached_old_fact_its_own_correction(
    runs: dict[str, Any],
) -> None:
    """Under every policy a linked old fact recalls with its own correction beneath it."""
    data, _out = _result(runs, "situatedqa")
    for policy in ("answer", "name", "fact", "anchored"):
        changed = data["scores"][policy]["changed"]
        assert changed["reached_contexts"] > 0, policy
        assert changed["stale_exposure_strict_reached"] == 0.0, policy


def test_situatedqa_smoke_anchors_generic_answers_to_the_question(runs: dict[str, Any]) -> None:
    """The anchored policy anchors generic answers with a span every record quotes."""
    data, _out = _result(runs, "situatedqa")
    anchors = data["anchors"]
    assert anchors["anchored"] > 0
    assert anchors["anchored"] + anchors["no_anchor_found"] == anchors["generic_answer"]
    assert set(anchors["anchor_absent_from"].values()) == {0}
    anchored, answer = data["stores"]["anchored"], data["stores"]["answer"]
    assert anchored["reach"] == 1.0 or anchored["refused_corrections"] > 0
    assert anchored["collateral_memories"] <= answer["collateral_memories"]


def test_locomo_smoke_rankings_are_identical(runs: dict[str, Any]) -> None:
    """The wrapper returns chromadb's exact top-10 lists, so the same evidence recall."""
    data, _out = _result(runs, "locomo")
    assert data["dataset"]["questions"] > 0
    assert data["identical_top10_same_collection_share"] == 1.0
    assert data["identical_top10_share"] > 0.9
    overall = data["metrics"]["all"]
    for k in (1, 5, 10):
        assert _share(overall[f"bare_recall@{k}"])
        assert abs(overall[f"bare_recall@{k}"] - overall[f"nowline_recall@{k}"]) < 0.05
    assert 0.2 < data["latency"]["p50_ratio"] < 20


def test_async_recall_smoke_compares_the_layers_and_times_the_loop(runs: dict[str, Any]) -> None:
    """The async benchmark measures both layers at every caller count and the loop's steps."""
    data, _out = _result(runs, "async_recall")
    assert data["store"]["records"] == data["config"]["records"] + data["store"]["corrections"]
    assert data["store"]["seed_correction_reached"] == data["config"]["reach"]
    assert [r["callers"] for r in data["runs"]] == data["config"]["callers"]
    variants = ("sync default", "async default", "sync pool 8", "async pool 8")
    for run in data["runs"]:
        for variant in (*variants, "floor sync", "floor async"):
            stats = run[variant]
            assert stats["n"] == data["config"]["calls"], variant
            assert 0 < stats["p50"] <= stats["p95"] and stats["throughput_per_s"] > 0
        for loop in run["loop"].values():
            assert loop["steps"] > 0 and loop["max_cpu_s"] >= 0 and loop["max_lag_s"] >= 0
    measured = data["blocking"]["measured"]
    assert len(measured) == 4 and all(m["steps"] > 0 for m in measured.values())
    assert set(data["blocking"]["profiled"]) == set(measured)


def test_guards_smoke_measures_names_and_the_render_cap(runs: dict[str, Any]) -> None:
    """The guards benchmark counts refused names per locale and caps the 1.1 MB memory."""
    data, _ = _result(runs, "guards")
    assert data["names"] and all(row["refused"] <= 1 for row in data["names"].values())
    recall = data["recall"]["recalls"][0]
    assert recall["chars_before"] > 1_000_000 > 10_000 > recall["chars_after"]
    assert recall["tokens_after"] < recall["tokens_before"]


def test_a_data_path_given_relative_to_the_repository_is_named_as_data(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--data ../shared/data/x`` is recorded as ``<data>/x``, not as the machine's folders.

    A SituatedQA run given the data folder that way wrote ``../shared/data/...`` into a
    committed result, which the docs include.
    """
    sys.path.insert(0, str(BENCH))
    import _common as C

    data = tmp_path / "shared" / "data"
    (data / "sqa").mkdir(parents=True)
    (data / "sqa" / "dev.jsonl").write_text("{}\n")
    (tmp_path / "main").mkdir()
    monkeypatch.setattr(C, "DATA_ROOT", data)
    monkeypatch.chdir(tmp_path / "main")
    assert C.portable("../shared/data/sqa/dev.jsonl") == "<data>/sqa/dev.jsonl"
    assert C.portable("../elsewhere/missing.jsonl") == "../elsewhere/missing.jsonl"
    assert C.portable("bench/results") == "bench/results"
    assert C.portable("0:12") == "0:12"


def test_change_line_smoke_scores_the_recall_tools_line(runs: dict[str, Any]) -> None:
    """The change line names the gold strings of the first dev and test cases, and nothing wrong.

    A model that recalls the user's words where it should correct gets the line; each case
    of every split is scored once, right, wrong or none.
    """
    data, out = _result(runs, "change_line")
    assert list(data["splits"]) == [
        "dev",
        "test",
        "fresh",
        "blind",
        "blind2",
        "blind3",
        "blind4",
        "blind5",
        "blind6",
    ]
    # the negative arm: one text of each kind of each set that states no change, scored once
    negatives = data["negatives"]
    assert list(negatives) == ["first", "second", "third"]
    assert negatives["first"]["texts"] == 8
    for n in negatives.values():
        assert n["texts"] >= 8 and n["with a line"] == len(n["false lines"])
    assert "## The negative arm" in (out / "change_line.md").read_text()
    # the positive arm: the first texts of each set that state a change, scored once each
    for n in data["changes"].values():
        assert n["cases"] == 4 and n["right"] + n["wrong"] + n["none"] == 4
        assert len(n["misses"]) == n["wrong"] + n["none"]
    assert "## The positive arm" in (out / "change_line.md").read_text()
    for split in ("dev", "test"):
        for kind in ("writer", "act"):
            counts = data["splits"][split][kind]
            assert counts["cases"] == counts["right"] == 4, (split, kind, counts)
    for kinds in data["splits"].values():
        for n in kinds.values():
            assert n["right"] + n["wrong"] + n["none"] == n["cases"]
            assert len(n["misses"]) == n["wrong"] + n["none"]
    assert "| dev | writer | 4 | 4 | 0 | 0 |" in (out / "change_line.md").read_text()
    # the chat arm: LoCoMo's first conversation's first session, where the data is there
    chat = data["chat"]
    if (DATA / "locomo" / "locomo10.json").exists():
        assert chat["conversations"] == 1 and chat["turns"] > 10
        assert chat["data"] == "<data>/locomo/locomo10.json"
        assert chat["notes"] == [], "friends catching up got a note"
        assert "## The chat arm" in (out / "change_line.md").read_text()
    else:
        assert chat is None


def test_second_pass_smoke_scores_every_silent_message_and_text_once(runs: dict[str, Any]) -> None:
    """Each study counts what it asked: the silent writer messages, the no-change texts, retries.

    The stand-in model confirms no pair (it answers no claim with yes), so every message with
    a pair is "none confirmed" and no text gets a false note; the tail study re-asks the
    committed runs' first recalls with each tail.
    """
    sys.path.insert(0, str(BENCH))
    import _nochange
    import _nochange2
    import _nochange3
    import _writer as W

    data, out = _result(runs, "second_pass")
    confirm = data["confirm"]
    assert sum(confirm["cases"].values()) == sum(
        len([c for c in W.writer_cases(s) if c.gold][:3]) for s in W._SPLITS
    )
    assert set(confirm["cases"]) <= {"noted", "no pair", "none confirmed"}
    kinds = sum(len(m.NO_CHANGE) for m in (_nochange, _nochange2, _nochange3))
    assert sum(confirm["negatives"].values()) == kinds
    assert "false note" not in confirm["negatives"]
    tail = data["tail"]
    assert tail["tails"] == ["none", "line", "values"]
    assert tail["rows"] and all(set(tail["tails"]) <= set(row) for row in tail["rows"])
    for mode in ("base", "note"):
        asked = {sum(tail["writer"][f"{t}, {mode}"].values()) for t in tail["tails"]}
        assert len(asked) == 1  # every tail asked of the same first recalls
    assert tail["quiet texts"] == 6 and sum(tail["quiet first calls"].values()) == 6
    assert "## A line after the recall tool's answer" in (out / "second_pass.md").read_text()
