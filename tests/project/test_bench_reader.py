"""Smoke run of bench/reader.py: every task and condition runs with the fake model, no llama.

The script runs once in a subprocess (a module fixture, about 15 s), as
tests/project/test_bench_smoke.py runs the other benchmarks.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nowline.render import CURRENT_HEADING, OUTDATED_HEADING, PREFIXES

NOT_COVERED = PREFIXES["not covered"]

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import _writer as W  # noqa: E402
import reader  # noqa: E402

SCRIPT = REPO / "bench" / "reader.py"
SQA = REPO.parent / "shared" / "data" / "situatedqa" / "data" / "raw_data" / "temp.train.jsonl"
TIMEOUT = 240


def _run(*args: str, out: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the script from the repository root and return the finished process."""
    env = dict(os.environ, NOWLINE_BENCH_QUIET="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    cmd = [sys.executable, str(SCRIPT), *args] + (["--out", str(out)] if out else [])
    return subprocess.run(
        cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run ``--smoke`` with two formats and return the JSON result."""
    out = tmp_path_factory.mktemp("reader")
    proc = _run("--smoke", "--formats", "now-lines,library", out=out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (out / "reader.test.md").read_text().startswith("# ")
    data: dict[str, Any] = json.loads((out / "reader.test.json").read_text())
    data["_markdown"] = (out / "reader.test.md").read_text()
    return data


def test_help_documents_the_model_and_smoke_options() -> None:
    """--help exits 0 and documents --smoke, --out, --model and --threads."""
    proc = _run("--help")
    assert proc.returncode == 0, proc.stderr
    for option in ("--smoke", "--out", "--model", "--threads", "--temperatures"):
        assert option in proc.stdout


def test_without_a_model_the_script_asks_for_one() -> None:
    """A real run needs --model: the script exits with a usage error that names it."""
    proc = _run("--tasks", "clone")
    assert proc.returncode == 2 and "--model" in proc.stderr


def test_smoke_asks_every_reading_task_under_every_condition(smoke: dict[str, Any]) -> None:
    """Clone and sibling tasks are asked under bare, plain and both nowline formats."""
    conditions = {"bare", "plain", "nowline:now-lines", "nowline:library"}
    for task in ("clone", "sibling"):
        counts = smoke["tasks"][task]["counts"]
        assert set(counts) == conditions
        for by_run in counts.values():
            assert sum(by_run["greedy"].values()) == smoke["config"]["variations"] == 3


def test_smoke_fake_reader_follows_the_now_line(smoke: dict[str, Any]) -> None:
    """The fake model clones the old repository from bare memories and the new one with nowline."""
    clone = smoke["tasks"]["clone"]["counts"]
    assert clone["bare"]["greedy"].get("wrong") == 3
    assert clone["nowline:library"]["greedy"].get("right") == 3


def test_smoke_library_condition_is_the_library_rendering(smoke: dict[str, Any]) -> None:
    """The library format is Recall.render(); now-lines is the rendering before the studies."""
    ctx = smoke["clone_example_contexts"]
    library, before = ctx["nowline:library"], ctx["nowline:now-lines"]
    assert library.startswith(f"Relevant memory:\n{OUTDATED_HEADING}\n- [outdated] ")
    assert "\n    now: " in library and f"\n{CURRENT_HEADING}\n- " in library
    assert before.startswith("Relevant memory:\n- ") and "[outdated]" not in before
    headings = (OUTDATED_HEADING, CURRENT_HEADING)
    unmarked = [
        x.replace("- [outdated] ", "- ")
        for x in library.splitlines()
        if x not in headings and not x.startswith(NOT_COVERED)
    ]
    assert sorted(before.splitlines()) == sorted(unmarked)  # the same lines, grouped
    # the sibling memories carry the label of what the correction does not cover
    assert re.search(rf"\n{NOT_COVERED}\S+ did not move; use \S+ as written\.", library)
    assert "now:" not in ctx["bare"] and "now:" not in ctx["plain"]
    assert ctx["plain"].count("\n- ") == ctx["bare"].count("\n- ") + 1


def test_smoke_situatedqa_shows_old_only_contexts(smoke: dict[str, Any]) -> None:
    """SituatedQA adds the old-only nowline condition, where the correction is no hit of its own."""
    if not SQA.exists():
        pytest.skip("SituatedQA data is not available")
    counts = smoke["tasks"]["sqa"]["counts"]
    assert {"bare", "plain", "nowline:library", "nowline old only:library"} <= set(counts)
    assert counts["nowline old only:library"]["greedy"].get("right") == 3
    assert counts["bare"]["greedy"].get("wrong") == 3


def test_smoke_writer_runs_the_call_through_the_tools(smoke: dict[str, Any]) -> None:
    """The writer's correct call is run on a real store and classified by what it marked."""
    rows = smoke["tasks"]["writer"]["runs"]["greedy"]
    assert len(rows) == 30 and all(r["outcome"] for r in rows)
    assert {r["case"] for r in rows} == {c.key for c in W.WRITER_TEST_CASES}
    number = next(r for r in rows if r["case"] == "t20 rate limit")
    assert number["outcome"] == "refused: generic string" and "marked" not in number
    assert number["retry"]["outcome"] == "refused: generic string"


def test_smoke_writer_retries_once_with_the_tools_error(smoke: dict[str, Any]) -> None:
    """A refused call gets the tool's error back once; the retry is scored and summarised."""
    rows = smoke["tasks"]["writer"]["runs"]["greedy"]
    repo = next(r for r in rows if r["case"] == "t28 new value stored, repository")
    assert repo["outcome"] == "refused: new value in deprecates"
    assert "is the new value" in repo["error"]
    assert repo["retry"]["outcome"] == "right" and repo["retry"]["marked"] == ["a", "b"]
    summary = smoke["tasks"]["writer"]["summary"]["greedy"]
    first, final = summary["first call"], summary["after one retry"]
    assert final.get("right", 0) == first.get("right", 0) + sum(
        1 for r in rows if r.get("retry", {}).get("outcome") == "right"
    )
    assert "after one retry" in smoke["_markdown"]


def test_smoke_writer_answers_a_recall_called_instead_of_correct(smoke: dict[str, Any]) -> None:
    """A first call to recall is run; its answer names the strings, and the retry is scored."""
    rows = smoke["tasks"]["writer"]["runs"]["greedy"]
    told = next(r for r in rows if r["case"] == "t07 release channel")
    assert told["outcome"] == "called recall" and "error" not in told
    assert "deprecates ['#announce-releases']" in told["answer"]
    assert told["retry"]["outcome"] == "right"


def test_smoke_act_stores_the_change_then_acts_on_the_recall(smoke: dict[str, Any]) -> None:
    """The act task: the fake's own call is stored; a later session acts on the recall."""
    rows = smoke["tasks"]["act"]["runs"]["greedy"]
    assert [r["action"] for r in rows] == ["clone", "post", "email"]
    assert all(r["bare"]["outcome"] == "wrong" for r in rows)  # the old value, no correction
    post = rows[1]
    assert post["write after retry"] == "right"
    assert post["nowline"]["outcome"] == "right" and "now: " in post["context"]
    summary = smoke["tasks"]["act"]["summary"]["greedy"]
    assert summary["act, nowline"].get("right", 0) >= 1 and "## Act" in smoke["_markdown"]


# The blind3 gold calls nowline did not get right when the split was written (key: outcome),
# kept as they are: the split is there to find where nowline fails. None, when it was written.
_BLIND3_GOLD_NOT_YET_RIGHT: dict[str, str] = {}

# The blind4 gold calls nowline does not get right (key: outcome). When the split was written,
# m11's was refused ("person without an anchor": "NAME is our DPO now" read the role as the new
# value, and its anchor "DPO" was dropped as one); it is right since the blind runs.
_BLIND4_GOLD_NOT_YET_RIGHT: dict[str, str] = {}

# The blind5 gold calls nowline does not get right (key: outcome), as for blind4. When the split
# was written, n19's ("300 req/min" anchored by "search") marked memory c too: "req/min" was
# taken for an identifier, whose anchors are dropped; a unit per time after a number is a unit
# since.
_BLIND5_GOLD_NOT_YET_RIGHT: dict[str, str] = {}

# The blind6 gold calls nowline does not get right (key: outcome), as for blind5.
_BLIND6_GOLD_NOT_YET_RIGHT: dict[str, str] = {}

# The blind7 gold calls nowline does not get right (key: outcome), as for blind6. When the split
# was written, three act gold calls were refused: the act phrasing "heads up <t> emails bounce
# at <old> now, use <new>" read the old address as new ("<old> now"). Mail that bounces at a
# value says the value's end since.
_BLIND7_GOLD_NOT_YET_RIGHT: dict[str, str] = {}

# The blind8 gold calls nowline does not get right (key: outcome), as for blind7 (found when the
# split was registered, before any run of a model on it).
_BLIND8_GOLD_NOT_YET_RIGHT: dict[str, str] = {
    "r14 travel approver, full names, Yoruba and Kazakh, a correction that opens with nope": (
        "marked unrelated memories"
    ),
}

# The blind9 gold calls nowline does not get right (key: outcome), as for blind8 (found when the
# split was registered, before any run of a model on it).
_BLIND9_GOLD_NOT_YET_RIGHT: dict[str, str] = {}

_NOT_YET_RIGHT = {
    **_BLIND3_GOLD_NOT_YET_RIGHT,
    **_BLIND4_GOLD_NOT_YET_RIGHT,
    **_BLIND5_GOLD_NOT_YET_RIGHT,
    **_BLIND6_GOLD_NOT_YET_RIGHT,
    **_BLIND7_GOLD_NOT_YET_RIGHT,
    **_BLIND8_GOLD_NOT_YET_RIGHT,
    **_BLIND9_GOLD_NOT_YET_RIGHT,
}


def _gold_cases(split: str) -> list[Any]:
    """Return a split's writer and act cases (30 act cases each)."""
    return [*W.writer_cases(split), *(a.writer for a in W.act_cases(split, 30))]


def test_every_case_but_the_first_thirty_has_a_gold_call_and_a_key_of_its_own() -> None:
    """The dev extras, 30 test, 30 fresh, 30 in each blind set and 30 act cases a split."""
    cases = [c for split in W._SPLITS for c in _gold_cases(split)]
    gold = [c.key for c in cases if c.gold]
    assert len(gold) == len(set(gold)) == len(cases) - len(W.WRITER_CASES)
    blind = sum(split.startswith("blind") for split in W._SPLITS)
    assert len(gold) == len(W.WRITER_DEV_EXTRA) + 30 + 30 + blind * 30 + len(W._SPLITS) * 30


@pytest.mark.parametrize("split", W._SPLITS)
def test_every_gold_call_is_right(split: str) -> None:
    """Each writer and act case can be solved from the message alone: its gold call is right.

    When the blind split was written, 4 of its changes back ("X is called Y again", "going
    back to Y", "back to Y.", "served from Y again; we reverted the move to X") and 6 of its
    act messages ("Mail to <old> now bounces; ... reads <new> instead") were not: the wording
    reader read no new value in the first (so the old name stayed current by the earlier
    correction) and the old address as new in the second. It reads both since. The blind2
    split's gold calls also give ``replaced_by``, as the shipped system prompt asks; one of
    them (h19, "$80/hour") was not right when the split was written: the rate was read as an
    identifier, whose anchor is dropped. A rate is a number since. The blind3 split's gold
    calls give ``replaced_by`` too; those nowline did not get right when it was written are
    kept as they are and listed in ``_BLIND3_GOLD_NOT_YET_RIGHT`` (key: outcome), and so are
    the blind4 to blind9 splits' (``_BLIND4_GOLD_NOT_YET_RIGHT`` to
    ``_BLIND9_GOLD_NOT_YET_RIGHT``).
    """
    stores = reader.Stores()
    try:
        scored = {
            c.key: reader.writer_score(stores, c, reader.gold_reply(c))
            for c in _gold_cases(split)
            if c.gold
        }
    finally:
        stores.close()
    not_right = {k: r["outcome"] for k, r in scored.items() if r["outcome"] != "right"}
    assert not_right == {k: v for k, v in _NOT_YET_RIGHT.items() if k in scored}


def test_writer_splits_are_apart() -> None:
    """Dev and test cases share no message, and no stale string of a test case is a dev one's."""
    dev, test = W.writer_cases("dev"), W.writer_cases("test")
    assert len(test) >= 30 and not {c.message for c in dev} & {c.message for c in test}
    dev_act, test_act = W.act_cases("dev", 30), W.act_cases("test", 30)
    assert not {a.writer.key for a in dev_act} & {a.writer.key for a in test_act}


def _named(cases: Any) -> set[str]:
    """Return the new and gold deprecated strings of some writer cases, case-folded."""
    return {s.casefold() for c in cases for s in (*c.new, *c.gold.get("deprecates", ()))}


def _texts(cases: Any) -> list[str]:
    """Return the messages, memories and prior corrections of some writer cases, case-folded."""
    return [
        t.casefold()
        for c in cases
        for t in (c.message, *(m for _, m in c.memories), *(p.text for p in c.prior))
    ]


def test_fresh_cases_are_apart_from_dev_and_test() -> None:
    """The fresh cases share no message, stale or new string, or act seed with dev and test."""
    fresh = W.writer_cases("fresh")
    seen = [*W.writer_cases("dev"), *W.writer_cases("test")]
    assert fresh == W.WRITER_FRESH_CASES and len(fresh) == 30
    assert [c.key[:4] for c in fresh] == [f"f{i:02d} " for i in range(1, 31)]
    assert all(c.gold and c.stale == frozenset("ab") for c in fresh)
    assert not {c.message for c in fresh} & {c.message for c in seen}
    assert not _named(fresh) & _named(seen)
    # nor does any dev or test text name a fresh case's old or new value
    assert [(s, t) for s in _named(fresh) for t in _texts(seen) if s in t] == []
    fresh_act = {a.writer.key for a in W.act_cases("fresh", 30)}
    assert len(fresh_act) == 30
    for split in ("dev", "test"):
        assert not fresh_act & {a.writer.key for a in W.act_cases(split, 30)}
    with pytest.raises(
        SystemExit,
        match="dev, test, fresh, blind, blind2, blind3, blind4, blind5, blind6, blind7, blind8, "
        "blind9",
    ):
        W.writer_cases("train")
    with pytest.raises(
        SystemExit,
        match="dev, test, fresh, blind, blind2, blind3, blind4, blind5, blind6, blind7, blind8, "
        "blind9",
    ):
        W.act_cases("train", 3)


@pytest.mark.parametrize(
    ("split", "letter", "before"),
    [
        ("blind", "g", ("dev", "test", "fresh")),
        ("blind2", "h", ("dev", "test", "fresh", "blind")),
        ("blind3", "k", ("dev", "test", "fresh", "blind", "blind2")),
        ("blind4", "m", ("dev", "test", "fresh", "blind", "blind2", "blind3")),
        ("blind5", "n", ("dev", "test", "fresh", "blind", "blind2", "blind3", "blind4")),
        ("blind6", "p", ("dev", "test", "fresh", "blind", "blind2", "blind3", "blind4", "blind5")),
        ("blind7", "q", W._SPLITS[:-3]),
        ("blind8", "r", W._SPLITS[:-2]),
        ("blind9", "s", W._SPLITS[:-1]),
    ],
)
def test_blind_cases_are_apart_from_the_others(
    split: str, letter: str, before: tuple[str, ...]
) -> None:
    """A blind set shares no message, stale or new string, text or act seed with the others.

    The second blind set (blind2) was written after the first, so the first is among the
    others; its gold calls also name the new values, as the shipped prompt asks. The third
    (blind3) was written after both, and its gold calls name the new values too, as do the
    fourth's (blind4), written after the third, the fifth's (blind5), after the fourth, and the
    sixth's (blind6), after the fifth, the seventh's (blind7), after the sixth, and the
    eighth's (blind8), after the seventh, and the ninth's (blind9), after the eighth.
    """
    blind = W.writer_cases(split)
    seen = [c for other in before for c in W.writer_cases(other)]
    constant = {
        "blind": W.WRITER_BLIND_CASES,
        "blind2": W.WRITER_BLIND2_CASES,
        "blind3": W.WRITER_BLIND3_CASES,
        "blind4": W.WRITER_BLIND4_CASES,
        "blind5": W.WRITER_BLIND5_CASES,
        "blind6": W.WRITER_BLIND6_CASES,
        "blind7": W.WRITER_BLIND7_CASES,
        "blind8": W.WRITER_BLIND8_CASES,
        "blind9": W.WRITER_BLIND9_CASES,
    }[split]
    assert blind == constant and len(blind) == 30
    assert [c.key[:4] for c in blind] == [f"{letter}{i:02d} " for i in range(1, 31)]
    assert all(c.gold and c.stale == frozenset("ab") for c in blind)
    if split != "blind":  # the gold call names the new values, and never deprecates one
        assert all(c.gold["replaced_by"] == list(c.new) for c in blind)
        assert not any(set(c.new) & set(c.gold["deprecates"]) for c in blind)
    # five of each of the six kinds (channels, URLs and mailboxes count as one kind)
    kinds = [{"URL": "channel", "email": "channel"}.get(c.kind, c.kind) for c in blind]
    assert sorted(kinds.count(k) for k in set(kinds)) == [5] * 6
    assert all(c.prior for c in blind if c.kind == "change back")
    assert not {c.message for c in blind} & {c.message for c in seen}
    assert not _named(blind) & _named(seen)
    # nor does any earlier split's text name a blind case's old or new value
    assert [(s, t) for s in _named(blind) for t in _texts(seen) if s in t] == []
    blind_act = W.act_cases(split, 30)
    assert len({a.writer.key for a in blind_act}) == 30
    for other_split in before:
        other = W.act_cases(other_split, 30)
        assert not {a.writer.key for a in blind_act} & {a.writer.key for a in other}
        assert not {a.writer.message for a in blind_act} & {a.writer.message for a in other}


def test_smoke_report_names_the_model_and_the_caveat(smoke: dict[str, Any]) -> None:
    """Every table of the report names the model and says a small model shows direction only."""
    md = smoke["_markdown"]
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert headings and all("fake (smoke)" in h for h in headings)
    assert md.count("shows the direction, not production numbers") >= len(headings)


def test_the_shipped_prompt_is_the_measured_one() -> None:
    """The library's prompt and correct schema are the writer study's choice, word for word.

    Change them and measure again (bench/reader.md): every sentence is there because the
    writer benchmark showed it helps.
    """
    import _writer_prompts as WP

    assert WP.variant("library") == WP.variant("short+schema")
    assert WP.variant("before") != WP.variant("library")


def test_smoke_broad_tasks_label_the_sibling(tmp_path: Path) -> None:
    """The broad-correction tasks run, and nowline's block labels the sibling as not covered."""
    proc = _run(
        "--smoke", "--tasks", "broad-clone,broad-sibling", "--formats", "library", out=tmp_path
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads((tmp_path / "reader.test.json").read_text())
    for task in ("broad-clone", "broad-sibling"):
        assert sum(data["tasks"][task]["counts"]["nowline:library"]["greedy"].values()) == 3
    library = data["broad_example_contexts"]["nowline:library"]
    assert re.search(rf"\n{NOT_COVERED}\S+ did not move; use \S+ as written\.", library)
    assert "not covered" not in data["broad_example_contexts"]["plain"]


def test_second_pass_pairs_a_current_value_with_an_unnamed_one_of_its_sort(
    tmp_path: Path,
) -> None:
    """The confirm study's candidates: old named by a current memory, new named by no record."""
    import second_pass

    stores = reader.Stores()
    try:
        col = stores.fresh("pairs")
        col.add(
            ids=["a", "b", "c"],
            documents=[
                "Deploy notices go to #ops-deploys.",
                "The on-call mailbox is oncall@acme.io.",
                "Old logs went to #ops-archive.",
            ],
        )
        col.correct("#ops-archive was retired for #ops-logs.", deprecates=["#ops-archive"])
        text = (
            "#ops-deploys is quiet, notices go to #deploy-bot; write to sre@acme.io, not "
            "oncall@acme.io; "
            "#ops-archive and #ops-logs stay, PR #123 merged."
        )
        assert second_pass.store_pairs(col, text) == [
            ("#ops-deploys", "#deploy-bot"),
            ("oncall@acme.io", "sre@acme.io"),
        ]
    finally:
        stores.close()


class _Scripted:
    """A model that answers each writer turn with the next scripted reply."""

    name = "scripted"

    def __init__(self, replies: list[str]) -> None:
        self.replies = iter(replies)
        self.asked: list[str] = []

    def chat(self, messages: list[dict[str, str]], **_: Any) -> str:
        self.asked.append(messages[-1]["content"])
        return next(self.replies)

    def tokens(self, text: str) -> int:
        return len(text.split())


def _call(name: str, **arguments: Any) -> str:
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


def test_chat_task_scores_each_turn_on_the_store_before_it(tmp_path: Path) -> None:
    """Each picked turn is asked once; a stored correction is counted, then undone."""
    turns = [
        "Deploy notes go to #ops-deploys these days.",
        "Nice, and the runbook?",
        "We keep it on the wiki.",
        "Cool, thanks for the tour!",
    ]
    conversation = {
        "session_1": [
            {"speaker": "Ana" if i % 2 == 0 else "Ben", "dia_id": f"D1:{i + 1}", "text": t}
            for i, t in enumerate(turns)
        ]
    }
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([{"sample_id": "c1", "conversation": conversation}]))
    model = _Scripted(
        [
            _call("correct", body="#ops-deploys is archived.", deprecates=["#ops-deploys"]),
            _call("correct", body="nothing here", deprecates=["#nowhere-at-all"]),
        ]
    )
    stores = reader.Stores()
    made: list[Any] = []
    fresh = stores.fresh
    stores.fresh = lambda prefix: made.append(fresh(prefix)) or made[-1]  # type: ignore[method-assign]

    class _Bar:
        def update(self, n: int) -> None:
            pass

    try:
        got = reader.chat_task(model, stores, [reader.Run(0.0, 0)], bar=_Bar(), path=path, per=2)
        # the stored correction was retracted: the memory it marked is current again
        assert [h.role for h in made[0].hits(["D1:1"])] == ["current"]
    finally:
        stores.close()
    rows = got["runs"]["greedy"]
    assert [r["turn"] for r in rows] == ["c1:D1:2", "c1:D1:4"]
    assert rows[0]["outcome"] == "stored a correction"
    assert rows[1]["outcome"].startswith("refused: ")
    assert got["summary"]["greedy"] == {"stored a correction": 1, rows[1]["outcome"]: 1}
    assert model.asked == [turns[1], turns[3]]  # the user's turn as written, no note asked for
