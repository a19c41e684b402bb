"""``nowline import --from github-events``: the receiver's corrections from a file, stored once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nowline
from nowline.requests import correction_id
from nowline.surfaces.github_events import event_key
from tests.cli.conftest import invoke
from tests.serve.conftest import archived, ping, renamed, transferred


def events_file(tmp_path: Path, deliveries: list[tuple[str, str, Any]], name: str = "e") -> str:
    """Write deliveries as an events file (one {"event", "delivery", "payload"} a line)."""
    path = tmp_path / f"{name}.jsonl"
    path.write_text(
        "".join(
            json.dumps({"event": e, "delivery": d, "payload": p}) + "\n" for e, d, p in deliveries
        )
    )
    return str(path)


LOG = [
    ("ping", "d0", ping("metalcraftai/ufo")),
    ("repository", "d1", renamed("ufo", "metalcraftai/ufo-core")),
    ("repository", "d2", {**archived("acme/app"), "action": "privatized"}),
    ("repository", "d3", transferred("metalcraftai", "ufo-ai/ufo-core")),
    ("push", "d4", {"ref": "refs/heads/main"}),
    ("repository", "d5", archived("ufo-ai/ufo-core")),
]


def test_importing_twice_stores_each_correction_once(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """The first import stores three corrections and skips three others; the second stores none."""
    memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
    path = events_file(tmp_path, LOG)
    first = invoke("import", store_path, path, "--from", "github-events")
    assert first.exit_code == 0, first.output
    said = " ".join(first.stdout.split())
    assert "Stored 3 corrections" in said
    assert "0 deliveries already stored and 3 other events" in said
    again = invoke("import", store_path, path, "--from", "github-events")
    assert again.exit_code == 0, again.output
    said = " ".join(again.stdout.split())
    assert "Stored 0 corrections" in said
    assert "3 deliveries already stored and 3 other events" in said
    rows = memory.corrections()
    assert sorted(r.id for r in rows) == sorted(
        correction_id("github", event_key(LOG[i][2])) for i in (1, 3, 5)
    )
    assert {r.source for r in rows} == {"github"}
    (hit,) = memory.hits(["pr"])
    assert [c.deprecates for c in hit.now] == [["ufo-ai/ufo-core"]]


def test_a_delivery_received_live_is_skipped_by_the_import(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A delivery stored by the receiver (same source and id) counts as already stored."""
    from nowline.requests import CorrectionRequest, store
    from nowline.surfaces.github_events import translate

    got = translate("repository", "d1", LOG[1][2], received_at=0)
    assert isinstance(got, CorrectionRequest)
    assert store(memory, got).created
    result = invoke("import", store_path, events_file(tmp_path, LOG[:2]), "--from", "github-events")
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert "Stored 0 corrections" in said and "1 delivery already stored" in said


def test_a_bad_line_stops_the_import_before_anything_is_written(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A line that is not a delivery is listed by number and nothing is stored."""
    path = tmp_path / "bad.jsonl"
    good = json.dumps({"event": "repository", "delivery": "d1", "payload": LOG[1][2]})
    path.write_text(f"{good}\n{{broken\n")
    result = invoke("import", store_path, str(path), "--from", "github-events")
    assert result.exit_code == 1
    said = " ".join(result.output.split())
    assert "line 2: not valid JSON" in said and "nothing was written" in said
    assert memory.count() == 0


def test_dry_run_counts_and_writes_nothing(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """--dry-run says what would be stored and skipped, and stores nothing."""
    result = invoke(
        "import", store_path, events_file(tmp_path, LOG), "--from", "github-events", "--dry-run"
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert "3 corrections to store, 0 deliveries already stored, 3 other events skipped" in said
    assert memory.count() == 0


def test_on_a_scoped_store_each_owner_goes_to_its_configured_scope(
    scoped: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """--scope-for maps owners; an owner without a scope makes its line bad, naming the fix."""
    scoped.remember("acme/app deploys.", id="a", metadata={"user_id": "team-a"})
    scoped.remember("acme/app deploys.", id="b", metadata={"user_id": "team-b"})
    path = events_file(
        tmp_path,
        [("repository", "d1", archived("acme/app")), ("repository", "d2", archived("zeta/app"))],
    )
    common = ("import", store_path, path, "--from", "github-events", "-c", "scoped")
    common += ("--scope-key", "user_id")
    refused = invoke(*common, "--scope-for", "acme=team-a")
    said = " ".join(refused.output.split())
    assert refused.exit_code == 1 and "line 2" in said and "--scope-for" in said
    assert scoped.count() == 2
    result = invoke(*common, "--scope-for", "acme=team-a", "--scope", "team-z")
    assert result.exit_code == 0, result.output
    assert [h.role for h in scoped.hits(["a", "b"])] == ["historical", "current"]


def test_scope_options_belong_to_github_events(store_path: str, tmp_path: Path) -> None:
    """--scope with the default format is a usage error (a nowline line carries its scope)."""
    path = tmp_path / "m.jsonl"
    path.write_text('{"text": "hello"}\n')
    result = invoke("import", str(tmp_path / "s"), str(path), "--scope", "u1")
    said = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code == 2 and "--from github-events" in said


def test_max_reach_reaches_the_events_import_and_the_nowline_flags_are_refused(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """A widely named repository's rename is stored with --max-reach none, as the receiver does.

    The import once dropped --max-reach, while its refusal advised it, and ignored the
    --allow-* flags and --on-existing in silence.
    """
    memory.add(
        ids=[f"m{i}" for i in range(130)], documents=[f"big/repo note {i}" for i in range(130)]
    )
    path = events_file(tmp_path, [("repository", "d1", renamed("repo", "big/repo2"))])
    refused = invoke("import", store_path, path, "--from", "github-events")
    assert refused.exit_code == 1 and "would reach 130 of 130" in " ".join(refused.stderr.split())
    for flag in ("--allow-generic", "--allow-person"):
        usage = invoke("import", store_path, path, "--from", "github-events", flag)
        assert usage.exit_code == 2 and flag in usage.stderr
    done = invoke("import", store_path, path, "--from", "github-events", "--max-reach", "none")
    assert done.exit_code == 0, done.output
    assert [r.reach for r in memory.corrections()] == [130]


def test_a_dry_or_refused_events_import_creates_no_store_and_counts_what_is_stored(
    memory: nowline.Collection, store_path: str, tmp_path: Path
) -> None:
    """--dry-run --create on a new folder, or a refused file, leaves no store behind.

    Both once created the store (and a collection) before planning the file; the dry run also
    counted the deliveries already stored among those to store (an adversarial review).
    """
    fresh = tmp_path / "fresh"
    path = events_file(tmp_path, LOG)
    dry = invoke("import", str(fresh), path, "--from", "github-events", "--dry-run", "--create")
    assert dry.exit_code == 0, dry.output
    assert "3 corrections to store, 0 deliveries already stored" in " ".join(dry.stdout.split())
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event": "repository"}\n')
    refused = invoke("import", str(fresh), str(bad), "--from", "github-events", "--create")
    assert refused.exit_code == 1
    assert not fresh.exists()
    memory.remember("metalcraftai/ufo — PR #1705 passed review.", id="pr")
    assert invoke("import", store_path, path, "--from", "github-events").exit_code == 0
    again = invoke("import", store_path, path, "--from", "github-events", "--dry-run")
    assert again.exit_code == 0, again.output
    said = " ".join(again.stdout.split())
    assert "0 corrections to store, 3 deliveries already stored, 3 other events skipped" in said
