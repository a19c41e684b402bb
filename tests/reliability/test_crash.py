"""Crash recovery: SIGKILL in the middle of propagating a correction or a batch.

See the README's "Linking".

A template store holds 5,000 memories (3,000 name ``acme/app``, 2,000 are near misses) and an
older correction c0 that the new one supersedes. A worker process writes the correction c1
(reaching 3,001 records), with the store reporting a max batch of 250 so that nowline writes
its links in many batches, or adds 3,000 records in calls of 250, and is killed with SIGKILL
mid-way. After a restart:

* no record is lost or duplicated (count and ids) and the store is healthy (§10's checks);
* the stored links are partial, yet recall() already shows every role and now-line right;
* repair() persists exactly the links of the from-scratch reference and of a clean run of the
  same write on a copy of the template, and a second repair() changes nothing.
"""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

import chromadb
import pytest

import nowline
from tests.reliability import worker
from tests.reliability.invariants import (
    links_match_reference,
    recall_matches_reference,
    same_user_data,
    store_is_healthy,
)
from tests.reliability.procs import Child
from tests.reliability.reference import Record, all_records, stored_links

BATCH = 250
REACH = worker.MATCHING + 1  # the matching memories and c0


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the template store in a worker process (so it is flushed and unlocked)."""
    path = tmp_path_factory.mktemp("crash") / "template"
    with Child("build", str(path)) as child:
        assert child.expect("built", timeout=300) == f"built {worker.TEMPLATE_SIZE + 1}"
        assert child.finish() == 0, child.stderr()
    return path


def _copy(template: Path, tmp_path: Path, name: str) -> str:
    """Return the path of a fresh copy of the template store."""
    target = tmp_path / name
    shutil.copytree(template, target)
    return str(target)


@pytest.fixture(scope="module")
def clean_correction(template: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """Return every record after a clean run of the correction on a copy of the template."""
    col = worker.open_local(_copy(template, tmp_path_factory.mktemp("clean"), "store"))
    assert worker.write_correction(col).reached == REACH
    return all_records(col)


@pytest.fixture(scope="module")
def clean_batch(template: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """Return every record after a clean run of the batch add on a copy of the template."""
    col = worker.open_local(_copy(template, tmp_path_factory.mktemp("clean"), "store"))
    worker.add_batch(col)
    return all_records(col)


def _linked_to(path: str, correction_id: str) -> int:
    """Return how many records of a store have a stored link to ``correction_id``."""
    raw = chromadb.PersistentClient(path=path).get_collection(worker.COLLECTION)
    got = raw.get(where={"nowline_by": {"$contains": correction_id}}, include=[])
    return len(got["ids"])


def _restart_and_check(path: str, ids: list[str], clean: list[Record]) -> nowline.RepairReport:
    """Reopen a killed store and check every promise; return the first repair's report."""
    raw = chromadb.PersistentClient(path=path).get_collection(worker.COLLECTION)
    assert sorted(store_is_healthy(raw)) == sorted(ids), "records were lost or duplicated"
    col = nowline.wrap(raw)
    recall_matches_reference(col)  # read-time checks are right before any repair
    report = col.repair()
    records = links_match_reference(col)
    assert col.repair().updated == 0
    recall_matches_reference(col)
    return report if not clean else _same_as_clean(report, records, clean)


def _same_as_clean(
    report: nowline.RepairReport, records: list[Record], clean: list[Record]
) -> nowline.RepairReport:
    """Assert that a repaired store equals the clean run wherever the clean run has records."""
    here = {r.id for r in records}
    theirs = [r for r in clean if r.id in here]
    assert len(theirs) == len(records), "the repaired store has records the clean run lacks"
    same_user_data(records, theirs)
    assert stored_links(records) == stored_links(theirs)
    return report


def _template_ids() -> list[str]:
    """Return the ids of the template store."""
    return [*worker.template_records()[0], "c0"]


def test_kill_between_link_batches(
    template: Path, tmp_path: Path, clean_correction: list[Record]
) -> None:
    """A kill after 5 of 13 link batches leaves 1,250 links; recall is right, repair completes."""
    path = _copy(template, tmp_path, "store")
    with Child("correct", path, "--batch", str(BATCH), "--pause-after", "5") as child:
        child.expect("ready")
        child.expect("update-done 5")
        child.kill()
    assert _linked_to(path, worker.C1_ID) == 5 * BATCH
    report = _restart_and_check(path, [*_template_ids(), worker.C1_ID], clean_correction)
    assert report.links_added == REACH - 5 * BATCH and report.links_removed == 0


def test_kill_inside_a_link_write(
    template: Path, tmp_path: Path, clean_correction: list[Record]
) -> None:
    """A kill during a link write leaves whole batches only; recall is right, repair completes."""
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    for attempt in range(4):
        path = _copy(template, tmp_path, f"store{attempt}")
        with Child("correct", path, "--batch", str(BATCH)) as child:
            child.expect("ready")
            child.expect(f"update-start {1 + attempt}")
            time.sleep(rng.uniform(0, 0.03))
            child.kill()
        linked = _linked_to(path, worker.C1_ID)
        assert linked % BATCH == 0, f"a batch was half written ({linked} links, seed {seed})"
        if 0 < linked < REACH:
            break
    else:
        pytest.fail(f"no kill landed mid-propagation in 4 tries (seed {seed})")
    report = _restart_and_check(path, [*_template_ids(), worker.C1_ID], clean_correction)
    assert report.links_added == REACH - linked


@pytest.mark.parametrize("pause", [True, False], ids=["between-batches", "inside-a-write"])
def test_kill_in_the_middle_of_a_batch_add(
    template: Path, tmp_path: Path, clean_batch: list[Record], pause: bool
) -> None:
    """Killed adds keep whole calls, each with its links; a retry of the calls completes them."""
    path = _copy(template, tmp_path, "store")
    args = ["add", path, "--batch", str(BATCH)] + (["--pause-after", "4"] if pause else [])
    with Child(*args) as child:
        child.expect("ready")
        child.expect("add-done 4" if pause else "add-start 5")
        if not pause:
            time.sleep(random.uniform(0, 0.03))
        child.kill()
    new_ids = worker.new_batch()[0]
    raw = chromadb.PersistentClient(path=path).get_collection(worker.COLLECTION)
    written = raw.count() - len(_template_ids())
    assert written % BATCH == 0 and (written == 4 * BATCH if pause else written >= 4 * BATCH)
    report = _restart_and_check(path, _template_ids() + new_ids[:written], clean_batch)
    assert report.updated == 0, "each batch was stored with its links"
    col = worker.open_local(path)
    worker.add_batch(col)  # the caller's retry of the whole call
    assert sorted(store_is_healthy(col.raw)) == sorted(_template_ids() + new_ids)
    records = links_match_reference(col)
    _same_as_clean(report, records, clean_batch)
    assert len(records) == len(clean_batch)
