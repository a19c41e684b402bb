"""The inspect-and-fix commands: stats, corrections, recall, preview, retract, repair."""

from __future__ import annotations

import sys
from pathlib import Path

import chromadb
import pytest

import nowline
import nowline.surfaces
from tests.cli.conftest import CHANNEL, MEMORIES, UFO, invoke, invoke_json, recall_packet
from tests.conftest import FakeEmbedding, snapshot


def test_help_lists_every_command() -> None:
    """The top-level help names every command and the exit codes."""
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("stats", "corrections", "recall", "preview", "retract", "repair", "import"):
        assert command in result.stdout
    assert "mcp" in result.stdout and "Exit codes" in result.stdout


def test_stats_counts_records_corrections_and_widest_reach(seeded: str) -> None:
    """Stats reports records, corrections, the historical share and per-string reach."""
    data = invoke_json("stats", seeded)
    assert data["collection"] == "memory" and data["records"] == 7
    assert data["corrections"] == {"active": 2, "retracted": 0}
    assert data["historical"] == 3 and data["historical_share"] == pytest.approx(3 / 7)
    assert data["roles"] == {"current": 2, "historical": 3, "transition": 2, "retracted": 0}
    assert data["widest_reach"] == [
        {"id": "move", "deprecates": ["metalcraftai/ufo"], "about": [], "reach": 3},
        {"id": "chan", "deprecates": ["#ufo-dev"], "about": [], "reach": 1},
    ]


def test_stats_table_names_the_widest_string(seeded: str) -> None:
    """The human-readable stats show the counts and the widest deprecated string."""
    result = invoke("stats", seeded)
    assert result.exit_code == 0, result.output
    assert "2 (2 active, 0 retracted)" in result.stdout
    assert "3 (42.9%)" in result.stdout and "metalcraftai/ufo" in result.stdout


def test_corrections_lists_reach_and_status(seeded: str) -> None:
    """Corrections lists each correction oldest first with its reach and status."""
    rows = invoke_json("corrections", seeded)
    assert [(r["id"], r["reach"], r["status"]) for r in rows] == [
        ("move", 3, "active"),
        ("chan", 1, "active"),
    ]
    assert rows[0]["deprecates"] == ["metalcraftai/ufo"] and rows[0]["document"] == UFO
    table = invoke("corrections", seeded)
    assert table.exit_code == 0 and "2025-02-01 00:00:00" in table.stdout
    assert "#ufo-dev" in table.stdout and "active" in table.stdout


def test_recall_prints_the_context_block(seeded: str) -> None:
    """Recall prints each outdated memory with its now-line beneath it."""
    result = invoke("recall", seeded, "metalcraftai/ufo PR #1705 passed review", "-k", "7")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Relevant memory:\n")
    assert f"- [outdated] {MEMORIES['pr']}\n    now: {UFO}\n" in result.stdout
    assert f"    now: {UFO}\n    now: {CHANNEL}" in result.stdout  # the Slack memory has both


def test_recall_json_is_the_evidence_packet(seeded: str) -> None:
    """Recall --json prints a Recall packet that validates as the pydantic model."""
    result = invoke("recall", seeded, "ufo", "-k", "7", "--json")
    assert result.exit_code == 0, result.output
    packet = recall_packet(result.stdout)
    roles = {h.id: h.role for h in packet.hits}
    assert roles["pr"] == "historical" and roles["hosted"] == "current"
    assert [c.id for c in next(h for h in packet.hits if h.id == "pr").now] == ["move"]


def test_recall_as_of_and_no_historical(seeded: str) -> None:
    """--as-of answers as the store knew things then; --no-historical drops historical hits."""
    before = invoke("recall", seeded, "ufo", "-k", "7", "--as-of", "2025-01-15", "--json")
    packet = recall_packet(before.stdout)
    assert {h.id for h in packet.hits} == set(MEMORIES)
    assert all(h.role == "current" for h in packet.hits)
    live = invoke("recall", seeded, "ufo", "-k", "7", "--no-historical", "--json")
    ids = {h.id for h in recall_packet(live.stdout).hits}
    assert ids == {"hosted", "new", "move", "chan"}


def test_recall_bad_as_of_is_a_usage_error(seeded: str) -> None:
    """An unparsable --as-of exits 2 and says how to write a time."""
    result = invoke("recall", seeded, "ufo", "--as-of", "last week")
    assert result.exit_code == 2
    assert "--as-of" in result.stderr and "ISO 8601" in result.stderr


def test_missing_store_is_a_usage_error(tmp_path: Path) -> None:
    """A folder without a Chroma store exits 2, names the folder and creates nothing."""
    result = invoke("stats", str(tmp_path / "nothing-here"))
    assert result.exit_code == 2
    assert "no Chroma store" in result.stderr and "nothing-here" in result.stderr
    assert not (tmp_path / "nothing-here").exists()


def test_several_collections_need_the_collection_option(seeded: str) -> None:
    """With two collections the commands list the names; --collection picks one."""
    client = chromadb.PersistentClient(path=seeded)
    client.create_collection("other", embedding_function=FakeEmbedding())  # type: ignore[arg-type]
    result = invoke("stats", seeded)
    assert result.exit_code == 2
    assert "--collection" in result.stderr and "memory, other" in result.stderr
    assert invoke_json("stats", seeded, "--collection", "other")["records"] == 0
    unknown = invoke("stats", seeded, "-c", "nope")
    assert unknown.exit_code == 2 and "No collection 'nope'" in unknown.stderr


def test_preview_lists_reach_and_writes_nothing(seeded: str, memory: nowline.Collection) -> None:
    """Preview lists the records a correction would reach and leaves the store unchanged."""
    before = snapshot(memory)
    data = invoke_json("preview", seeded, "-d", "metalcraftai/ufo", "-d", "#ufo-dev")
    assert sorted(r["id"] for r in data["records"]) == ["chan", "clone", "move", "pr", "slack"]
    assert data["reach"] == 5 and data["limit"] == 100
    table = invoke("preview", seeded, "--deprecates", "ufo-ai/ufo")
    assert table.exit_code == 0 and "would be reached" in table.stdout
    assert "release 0.9 tagged" in table.stdout
    assert snapshot(memory) == before


def test_preview_of_a_blank_string_fails_with_the_reason(seeded: str) -> None:
    """A blank deprecated string exits 1 with nowline's message."""
    result = invoke("preview", seeded, "-d", "  ")
    assert result.exit_code == 1
    assert "empty or whitespace" in result.stderr


def test_preview_scope_needs_scope_key(seeded: str) -> None:
    """--scope without --scope-key is a usage error."""
    result = invoke("preview", seeded, "-d", "metalcraftai/ufo", "--scope", "alice")
    assert result.exit_code == 2 and "--scope-key" in result.stderr


def test_retract_restores_records_and_keeps_the_correction(
    seeded: str, memory: nowline.Collection
) -> None:
    """Retract unlinks a correction, reports what became current, and marks it retracted."""
    result = invoke("retract", seeded, "move")
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert "Of the 3 records it covered, 2 read as current again and 1 is still covered" in said
    rows = invoke_json("corrections", seeded)
    assert [(r["id"], r["status"], r["reach"]) for r in rows] == [
        ("move", "retracted", 0),
        ("chan", "active", 1),
    ]
    again = invoke("retract", seeded, "move")
    assert again.exit_code == 0 and "already retracted" in again.stdout
    assert memory.count() == 7


def test_retract_errors_exit_1_with_the_reason(seeded: str) -> None:
    """Retracting an unknown id or a plain memory exits 1 and says why."""
    unknown = invoke("retract", seeded, "nope")
    assert unknown.exit_code == 1 and "No record has id 'nope'" in unknown.stderr
    plain = invoke("retract", seeded, "pr")
    assert plain.exit_code == 1 and "not a correction" in plain.stderr


def test_repair_links_foreign_writes_and_is_idempotent(
    seeded: str, memory: nowline.Collection
) -> None:
    """Repair persists links for records written by a plain chromadb client."""
    text = "Foreign note: CI for METALCRAFTAI/UFO is red."
    memory.raw.add(ids=["foreign"], documents=[text], embeddings=FakeEmbedding()([text]))
    result = invoke("repair", seeded)
    assert result.exit_code == 0, result.output
    assert "links added      1" in result.stdout
    assert (memory.raw.get(ids=["foreign"])["metadatas"] or [{}])[0]["nowline_by"] == ["move"]
    again = invoke("repair", seeded)
    assert again.exit_code == 0 and "already right" in again.stdout


def test_commands_need_a_path() -> None:
    """A command without its PATH argument is a usage error."""
    assert invoke("stats").exit_code == 2
    assert invoke("mcp").exit_code == 2


def test_mcp_without_the_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without the MCP SDK, `nowline mcp` exits 1 and says what to pip install."""
    monkeypatch.setitem(sys.modules, "mcp", None)
    monkeypatch.delitem(sys.modules, "nowline.surfaces.mcp_server", raising=False)
    monkeypatch.delattr(nowline.surfaces, "mcp_server", raising=False)
    result = invoke("mcp", "--path", str(tmp_path / "store"))
    assert result.exit_code == 1
    assert "pip install -c constraints.txt -e '.[mcp]'" in " ".join(result.stderr.split())
    assert not (tmp_path / "store").exists()


def test_reserved_scope_key_is_a_usage_error(seeded: str) -> None:
    """A scope key that nowline reserves exits 2 and names the option."""
    result = invoke("recall", seeded, "ufo", "--scope-key", "nowline_role")
    assert result.exit_code == 2 and "--scope-key" in result.stderr


def test_preview_respects_the_scope(scoped: nowline.Collection, store_path: str) -> None:
    """With --scope-key and --scope, preview reaches only that scope's records."""
    scoped.remember("Alice clones metalcraftai/ufo.", id="a", metadata={"user_id": "alice"})
    scoped.remember("Bob clones metalcraftai/ufo.", id="b", metadata={"user_id": "bob"})
    args = ("preview", store_path, "-d", "metalcraftai/ufo", "--scope-key", "user_id")
    assert [r["id"] for r in invoke_json(*args, "--scope", "alice")["records"]] == ["a"]
    assert invoke_json(*args)["records"] == []  # records without the key form their own scope


def test_recall_takes_k_spelled_as_a_long_option(seeded: str) -> None:
    """`--k N` is -k (click would otherwise suggest --token for it)."""
    assert len(invoke_json("recall", seeded, "ufo", "--k", "1")["hits"]) == 1
    assert len(invoke_json("recall", seeded, "ufo", "-k", "1")["hits"]) == 1
