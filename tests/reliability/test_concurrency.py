"""Several writer processes: refused on one local path, concurrent over a server.

See the README's "Reliability".

``test_processes.py`` shows that a second writer of a local store gets StoreBusy and that
the store stays healthy. Here: every write method of the refused process is refused before it
writes anything, its reads still work; and over a real Chroma server two processes write
memories and corrections at the same time, after which recall() is right in both and repair()
stores exactly the reference's links. The freshness bound of corrections written by another
process is measured as well.
"""

from __future__ import annotations

import json
import time
from typing import Any

import chromadb
import pytest

import nowline
from nowline._io import freshness as _freshness
from tests.conftest import ChromaServer, FakeEmbedding
from tests.reliability import worker
from tests.reliability.invariants import (
    links_match_reference,
    recall_matches_reference,
    store_is_healthy,
    unreachable,
)
from tests.reliability.procs import Child
from tests.reliability.reference import all_records, expected_states, stored_links

ROUNDS = 12

# ------------------------------------------------------------------ local: one writer


@pytest.fixture(scope="module")
def refused(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    """Let one process hold a local store while another tries every write; return its report."""
    path = str(tmp_path_factory.mktemp("busy") / "store")
    with Child("hold", path) as holder:
        holder.expect("ready")
        with Child("refused", path) as second:
            line = second.expect("result")
            assert second.finish() == 0, second.stderr()
        holder.send()
        holder.expect("bye")
        assert holder.finish() == 0, holder.stderr()
    return path, json.loads(line.removeprefix("result "))


def test_every_write_of_a_second_process_is_refused(refused: tuple[str, dict[str, Any]]) -> None:
    """remember, correct, add, upsert, update, delete, retract and repair raise StoreBusy."""
    _, result = refused
    outcomes = {k: v for k, v in result["outcomes"].items() if k not in ("delete-memory", "modify")}
    assert outcomes == dict.fromkeys(outcomes, "busy")
    assert len(outcomes) == 8
    assert result["same"], "a refused write changed the store"


def test_a_refused_process_still_reads_right(refused: tuple[str, dict[str, Any]]) -> None:
    """The refused process's check() and recall() see the holder's correction."""
    _, result = refused
    assert result["reads"]["check"] == ["c0"]
    roles = result["reads"]["recall"]
    assert roles["raw"] == roles["r00003"] == "historical" and roles["c0"] == "transition"


def test_store_is_healthy_after_a_refused_writer(refused: tuple[str, dict[str, Any]]) -> None:
    """After both exit, count, embeddings and query recall are intact and links repair."""
    path, _ = refused
    raw = chromadb.PersistentClient(path=path).get_collection(worker.COLLECTION)
    ids = store_is_healthy(raw)
    assert {"r00000", "r00004", "c0", "raw"} <= set(ids)
    col = nowline.wrap(raw)
    recall_matches_reference(col)
    col.repair()
    links_match_reference(col)


def test_a_second_process_cannot_delete_memories_or_modify(
    refused: tuple[str, dict[str, Any]],
) -> None:
    """delete() of plain memories and modify() are refused with StoreBusy as well."""
    _, result = refused
    assert result["outcomes"]["delete-memory"] == "busy"
    assert result["outcomes"]["modify"] == "busy"
    assert result["same_after_all"]


# ------------------------------------------------------------------ server: many writers


def _shared_collection(server: ChromaServer) -> tuple[str, Any]:
    """Create the shared collection in a fresh server database; return (database, raw)."""
    db = server.new_database()
    raw = server.client(db).create_collection(worker.COLLECTION, embedding_function=FakeEmbedding())
    return db, raw


def _written_ids(name: str) -> set[str]:
    """Return the ids that writer ``name`` leaves in the store."""
    ids = {f"{name}-m{r}" for r in range(ROUNDS)} | {f"{name}-c{r}" for r in range(ROUNDS)}
    ids |= {f"{name}-x{r}" for r in range(ROUNDS) if r % 3 == 2}
    return ids - {f"{name}-m{r - 3}" for r in range(ROUNDS) if r % 5 == 4}


@pytest.mark.server
def test_two_writer_processes_over_a_server(chroma_server: ChromaServer) -> None:
    """Two processes write at once; recall is right in both, and repair stores the reference."""
    db, raw = _shared_collection(chroma_server)
    args = (chroma_server.host, str(chroma_server.port), db)
    with (
        Child("writer", *args, "a", str(ROUNDS)) as a,
        Child("writer", *args, "b", str(ROUNDS)) as b,
    ):
        a.expect("ready")
        b.expect("ready")
        a.send()
        b.send()
        a.expect("done")
        b.expect("done")
        a.send()
        b.send()
        states = [json.loads(c.expect("states").removeprefix("states ")) for c in (a, b)]
        assert a.finish() == 0 and b.finish() == 0
    # Chroma 1.5.9's index lost one live record (a correction) in 1 of 160 runs of this
    # program (chroma-core/chroma#7758; a fresh-clone run had met the same missed self-query
    # once): get() returns it, no query does, not even one filtered to its id. nowline cannot
    # recall it; nothing else may be missing.
    healthy = store_is_healthy(raw, index_losses=1)
    assert sorted(healthy) == sorted(_written_ids("a") | _written_ids("b"))
    records = all_records(raw)
    want = {rid: [role, list(now)] for rid, (role, _, now) in expected_states(records).items()}
    for name, got in zip("ab", states, strict=True):
        missing = [rid for rid in want if rid not in got]
        assert all(unreachable(raw, rid) for rid in missing), (name, missing)
        assert got == {k: v for k, v in want.items() if k in got}, f"writer {name} recalls wrong"
    col = nowline.wrap(raw)
    recall_matches_reference(col)
    col.repair()
    repaired = links_match_reference(col)
    assert col.repair().updated == 0
    assert len(stored_links(repaired)) == len(records)


@pytest.mark.server
def test_freshness_of_a_correction_from_another_process(chroma_server: ChromaServer) -> None:
    """A correction written elsewhere shows within refresh_seconds, whatever the stored links say.

    Wrappers of one collection in a process share one registry, read the mark as often as the
    most eager of them asks, and so all see a change together. The lazy wrapper here stands
    for one alone in its process: it is made after the shared registries are forgotten.
    """
    db, raw = _shared_collection(chroma_server)
    raw.add(ids=["linked"], documents=["deploy zeta/old today"], metadatas=[{"k": "linked"}])
    reader = nowline.wrap(raw, refresh_seconds=0.5)
    checker = nowline.wrap(raw, refresh_seconds=0.5)
    sibling = nowline.wrap(raw, refresh_seconds=3600)  # shares the reader's registry
    _freshness._shared.clear()
    lazy = nowline.wrap(raw, refresh_seconds=3600)

    def state(col: nowline.Collection, key: str) -> tuple[str, list[str]]:
        (hit,) = col.recall("zeta", n_results=1, where={"k": key}).hits
        return hit.role, [c.id for c in hit.now]

    with Child("correct-once", chroma_server.host, str(chroma_server.port), db) as writer_proc:
        writer_proc.expect("ready")
        assert state(reader, "linked") == ("current", [])
        assert checker.check("zeta/old") == []
        assert state(lazy, "linked") == ("current", [])  # its first read refreshes, then none
        writer_proc.send()
        writer_proc.expect("done")
        done = time.monotonic()
        # Written around nowline after the correction: only read-time checks can annotate it.
        raw.add(ids=["bare"], documents=["zeta/old named again"], metadatas=[{"k": "bare"}])
        polls: list[tuple[str, float, bool]] = []  # (what, when the call started, saw it)
        while time.monotonic() - done < 0.5 + 0.6:
            start = time.monotonic() - done
            polls.append(("recall", start, state(reader, "bare") == ("historical", ["cz"])))
            start = time.monotonic() - done
            polls.append(("check", start, bool(checker.check("zeta/old"))))
            time.sleep(0.02)
        # The bound: every read that starts refresh_seconds after correct() returned sees it.
        late = [(what, at, saw) for what, at, saw in polls if at >= 0.5 + 0.05]
        assert late and all(saw for _, _, saw in late), polls
        assert state(sibling, "bare") == ("historical", ["cz"])  # what the reader took in
        # refresh_seconds=3600, alone in its registry: no refresh is due, so neither record
        # shows the correction yet, though the linked one's stored links name it (the mark is
        # the one trigger: stored links do not start a catch-up, DESIGN 12)...
        assert state(lazy, "bare") == ("current", [])
        assert state(lazy, "linked") == ("current", [])
        # ...until a catch-up is asked for: then both at once.
        lazy.corrections()
        assert state(lazy, "linked") == ("historical", ["cz"])
        assert state(lazy, "bare") == ("historical", ["cz"])
        writer_proc.send()
        assert writer_proc.finish() == 0, writer_proc.stderr()


def test_worker_ids_are_what_the_tests_expect() -> None:
    """The expected-id helper matches the writer's schedule (deletions at r % 5 == 4)."""
    ids = _written_ids("a")
    assert "a-m1" not in ids and "a-m6" not in ids and "a-m0" in ids and "a-x2" in ids
    assert len(ids) == ROUNDS * 2 + ROUNDS // 3 - 2
