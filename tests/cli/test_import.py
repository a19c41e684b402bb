"""``nowline import``: bulk loading from JSON Lines, validated before anything is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chromadb
import pytest

import nowline
from tests.cli.conftest import UFO, invoke, invoke_json
from tests.conftest import snapshot


def _jsonl(path: Path, *rows: Any) -> str:
    """Write rows (dicts as JSON, strings as they are) one per line; return the path."""
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n",
        encoding="utf-8",
    )
    return str(path)


GOOD = [
    {"id": "pr", "text": "metalcraftai/ufo — PR #1705 passed review.", "observed_at": "2025-01-01"},
    {"text": "Clone with git clone https://github.com/metalcraftai/ufo.git"},
    {"id": "wiki", "text": "Notes live in the metalcraftai/ufo wiki.", "metadata": {"user": "al"}},
    {"id": "move", "text": UFO, "deprecates": ["metalcraftai/ufo"], "observed_at": 1738368000},
    "",
    {"id": "late", "text": "Opened issue #12 on metalcraftai/ufo.", "metadata": {"tags": ["a"]}},
    {"id": "hosted", "text": "metalcraftai/ufo-hosted deploys every Friday."},
]


def test_import_loads_memories_and_corrections_in_file_order(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """Every line is written; corrections link the memories before and after them."""
    result = invoke("import", store_path, _jsonl(tmp_path / "in.jsonl", *GOOD))
    assert result.exit_code == 0, result.output
    assert "6 records (5 memories, 1 correction)" in " ".join(result.stdout.split())
    assert memory.count() == 6
    got = memory.raw.get(ids=["pr", "wiki", "move", "late", "hosted"], include=["metadatas"])
    meta = dict(zip(got["ids"], got["metadatas"] or [], strict=True))
    assert meta["pr"]["nowline_by"] == ["move"] and meta["late"]["nowline_by"] == ["move"]
    assert "nowline_by" not in meta["hosted"]
    assert meta["wiki"]["user"] == "al" and meta["late"]["tags"] == ["a"]
    assert meta["move"]["deprecates"] == ["metalcraftai/ufo"]
    assert meta["move"]["nowline_time"] == 1738368000.0
    assert meta["pr"]["nowline_time"] == pytest.approx(1735689600.0)
    rows = invoke_json("corrections", store_path)
    assert [(r["id"], r["reach"]) for r in rows] == [("move", 4)]


def test_bad_lines_are_all_reported_and_nothing_is_written(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """Each bad line is reported with its number and the reason; the store is unchanged."""
    memory.remember("Already here.", id="taken")
    before = snapshot(memory)
    bad = [
        {"id": "ok", "text": "A fine memory about metalcraftai/ufo."},
        "{not json",
        ["a", "list"],
        {"id": "x1"},
        {"text": "Moved to ufo-ai/ufo.", "deprecates": ["metalcraftai/ufo"]},
        {"id": "ok", "text": "Same id again."},
        {"text": "t", "metadata": {"nowline_role": "current"}},
        {"text": "t", "observed_at": "next tuesday"},
        {"id": "taken", "text": "Clashes with a stored id."},
        {"text": "t", "deprecates": ["  "]},
        {"text": "t", "metadata": {"nested": {"a": 1}}},
        {"text": "t", "colour": "blue"},
        {"text": "   "},
        {"text": "t", "metadata": {"score": float("nan")}},
    ]
    result = invoke("import", store_path, _jsonl(tmp_path / "bad.jsonl", *bad))
    assert result.exit_code == 1
    err = " ".join(result.stderr.split())
    assert "13 bad lines; nothing was written" in err
    expected = {
        2: "not valid JSON",
        3: "expected a JSON object",
        4: "text is missing",
        5: 'does not mention ["metalcraftai/ufo"]',
        6: "already used on line 1",
        7: "'nowline_role' is reserved",
        8: "not ISO 8601",
        9: "already in the collection",
        10: "empty or whitespace",
        11: "Metadata 'nested' must be",
        12: "Unknown field 'colour'",
        13: "text is empty",
        14: "would drop it silently",
    }
    for line, reason in expected.items():
        assert f"line {line}: " in err and reason in err, (line, reason, err)
    assert "line 1:" not in err
    assert snapshot(memory) == before


def test_dry_run_validates_without_writing(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """--dry-run reports the valid lines and writes nothing."""
    result = invoke("import", store_path, _jsonl(tmp_path / "in.jsonl", *GOOD), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "all valid; nothing was written" in " ".join(result.stdout.split())
    assert memory.count() == 0


def test_dry_run_on_a_missing_store_creates_nothing(tmp_path: Path) -> None:
    """A dry run with --create into a folder without a store validates and creates nothing."""
    target = tmp_path / "new-store"
    lines = _jsonl(tmp_path / "in.jsonl", *GOOD)
    result = invoke("import", str(target), lines, "--dry-run", "--create")
    assert result.exit_code == 0, result.output
    assert not target.exists()


def test_allow_absent_and_deprecates_in_metadata(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """--allow-absent accepts absent strings; deprecates inside metadata is lifted."""
    rows = [
        {"id": "old", "text": "Deploys go to #ops-deploys."},
        {
            "id": "c",
            "text": "Deploy alerts have a new home.",
            "metadata": {"deprecates": "#ops-deploys"},
        },
    ]
    path = _jsonl(tmp_path / "in.jsonl", *rows)
    refused = invoke("import", store_path, path)
    assert refused.exit_code == 1 and "--allow-absent" in refused.stderr
    result = invoke("import", store_path, path, "--allow-absent")
    assert result.exit_code == 0, result.output
    meta = memory.raw.get(ids=["old"])["metadatas"] or [{}]
    assert meta[0]["nowline_by"] == ["c"]


def test_too_broad_correction_stops_with_its_line_number(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A correction refused while writing names its line and what was already written."""
    rows = [
        {"id": "a", "text": "metalcraftai/ufo one."},
        {"id": "b", "text": "metalcraftai/ufo two."},
        {"id": "c", "text": UFO, "deprecates": ["metalcraftai/ufo"]},
        {"id": "d", "text": "Later memory."},
    ]
    path = _jsonl(tmp_path / "in.jsonl", *rows)
    result = invoke("import", store_path, path, "--max-reach", "1")
    assert result.exit_code == 1
    err = " ".join(result.stderr.split())
    assert "line 3:" in err and "would reach 2" in err
    assert "The 2 records before line 3 were written" in err
    assert sorted(memory.get()["ids"]) == ["a", "b"]


@pytest.mark.parametrize("dry", [False, True])
def test_a_correction_the_store_refuses_stops_the_import_before_any_write(
    memory: nowline.Collection, store_path: str, tmp_path: Path, dry: bool
) -> None:
    """The store's guards judge every correction first: a refused one leaves nothing written.

    The dry run gives the same verdict, where it once said "all valid".
    """
    memory.add(ids=["x", "y"], documents=["metalcraftai/ufo x.", "metalcraftai/ufo y."])
    rows = [
        {"id": "a", "text": "A memory before it."},
        {"id": "c", "text": UFO, "deprecates": ["metalcraftai/ufo"]},
        {"id": "d", "text": "A memory after it."},
    ]
    args = ["--max-reach", "1", *(["--dry-run"] if dry else [])]
    result = invoke("import", store_path, _jsonl(tmp_path / "in.jsonl", *rows), *args)
    assert result.exit_code == 1
    err = " ".join(result.stderr.split())
    suffix = " (--dry-run)" if dry else ""
    assert f"the store refuses 1 correction line; nothing was written{suffix}." in err
    assert "line 2: The correction '(preview)' would reach 2 of 2 records (limit 1)" in err
    assert "--max-reach" in err
    assert sorted(memory.get()["ids"]) == ["x", "y"]


def test_a_value_made_current_by_the_store_is_refused_before_any_write(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """What is current stays current (DESIGN §6), judged before the file's first write."""
    memory.add(ids=["x"], documents=["Clone metalcraftai/ufo."])
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    rows = [
        {"id": "a", "text": "The ufo-ai/ufo README lists the build steps."},
        {"id": "c", "text": "Do not trust ufo-ai/ufo notes.", "deprecates": ["ufo-ai/ufo"]},
    ]
    path = _jsonl(tmp_path / "in.jsonl", *rows)
    for args in (["--dry-run"], []):
        result = invoke("import", store_path, path, *args)
        assert result.exit_code == 1
        err = " ".join(result.stderr.split())
        assert "line 2: 'ufo-ai/ufo' is current: correction 'move' made it the new value" in err
        assert "retract it first (nowline retract PATH move)" in err  # the command's words
    assert sorted(memory.get()["ids"]) == ["move", "x"]


def test_a_refusal_that_the_files_own_lines_cause_stops_where_it_is_met(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A value an earlier line made current is judged as it is written ("1 record ... was")."""
    rows = [
        {"id": "move", "text": UFO, "deprecates": ["metalcraftai/ufo"]},
        {"id": "c", "text": "Do not trust ufo-ai/ufo notes.", "deprecates": ["ufo-ai/ufo"]},
    ]
    path = _jsonl(tmp_path / "in.jsonl", *rows)
    dry = invoke("import", store_path, path, "--dry-run")
    assert dry.exit_code == 0 and "all valid" in " ".join(dry.stdout.split())
    result = invoke("import", store_path, path)
    assert result.exit_code == 1
    err = " ".join(result.stderr.split())
    assert "line 2: 'ufo-ai/ufo' is current: correction 'move'" in err
    assert "The 1 record before line 2 was written; nothing from line 2 on was." in err
    assert memory.get()["ids"] == ["move"]


def test_bad_max_reach_is_a_usage_error(store_path: str, tmp_path: Path) -> None:
    """--max-reach takes a share, a count or 'none'; anything else exits 2."""
    path = _jsonl(tmp_path / "in.jsonl", {"text": "x"})
    result = invoke("import", store_path, path, "--max-reach", "lots")
    assert result.exit_code == 2 and "--max-reach" in result.stderr


@pytest.mark.model
def test_import_into_an_empty_store_uses_the_offline_model(tmp_path: Path) -> None:
    """An empty folder gets a 'memory' collection with nowline's model, and recall works."""
    store = str(tmp_path / "fresh")
    result = invoke("import", store, _jsonl(tmp_path / "in.jsonl", *GOOD), "--create")
    assert result.exit_code == 0, result.output
    raw = chromadb.PersistentClient(path=store).get_collection("memory")
    config = raw.configuration_json["embedding_function"]
    assert config["name"] == "default" and "path" not in json.dumps(config)
    assert isinstance(nowline.wrap(raw).embedding_function, nowline.MiniLMEmbeddingFunction)
    found = invoke("recall", store, "Where does the UFO repository live now?", "-k", "2")
    assert found.exit_code == 0, found.output
    assert f"    now: {UFO}" in found.stdout


def test_import_shows_rate_and_time_left(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """The progress line gives records per second and the time left; the summary the rate."""
    rows = [{"text": f"Memory {i} about acme/app{i}."} for i in range(40)]
    result = invoke("import", store_path, _jsonl(tmp_path / "in.jsonl", *rows))
    assert result.exit_code == 0, result.output
    assert "rec/s" in result.stderr and "ETA" in result.stderr and "40/40" in result.stderr
    assert "records/s" in " ".join(result.stdout.split())


def test_a_line_that_is_not_utf8_is_a_bad_line_and_a_byte_order_mark_is_read_past(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A bad byte once raised a traceback from reading the file; it is now line 2's reason."""
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"text": "ok"}\n{"text": "bad \xc3 byte"}\n')
    result = invoke("import", store_path, str(bad))
    assert result.exit_code == 1
    assert "line 2: not valid JSON (byte 14 is not UTF-8)" in " ".join(result.stderr.split())
    assert memory.count() == 0
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b'\xef\xbb\xbf{"text": "with a mark"}\n')
    assert invoke("import", store_path, str(bom)).exit_code == 0
    assert memory.get()["documents"] == ["with a mark"]


def test_upsert_replaces_the_record_its_metadata_too(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A line upserted onto a record leaves none of the record's metadata behind.

    chromadb's upsert keeps the stored keys a write does not give, so a plain line upserted
    onto a correction left it a correction, with the line's text (an adversarial review).
    """
    memory.add(ids=["m", "o"], documents=["Clone acme/app.", "acme/app docs."])
    memory.update(ids=["m"], metadatas=[{"team": "ops"}])
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="k")
    assert memory.hits(["o"])[0].role == "historical"
    rows = [{"id": "m", "text": "Clone acme/app2."}, {"id": "k", "text": "A plain note now."}]
    path = _jsonl(tmp_path / "in.jsonl", *rows)
    result = invoke("import", store_path, path, "--on-existing", "upsert")
    assert result.exit_code == 0, result.output
    got = memory.get(ids=["m", "k"], include=["metadatas", "documents"])
    assert dict(zip(got["ids"], got["documents"] or [], strict=True)) == {
        "m": "Clone acme/app2.",
        "k": "A plain note now.",
    }
    assert all(not meta for meta in got["metadatas"] or [])
    assert memory.corrections() == []
    assert memory.hits(["o"])[0].role == "current"
