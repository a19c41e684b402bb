"""Issue 13: the faults of the adversarial review, one failing test (or more) each.

Every test holds one promise of the README and carries the ``fault`` mark with the fault's
number; each failed before its fix. Fault 6 (forged now-lines) is tested in
``tests/reliability/test_forgery.py``.
Tests without a mark are controls: the same promise on a path that held already, so that a fix
cannot pass by breaking it.

Stored bookkeeping is read through the raw chromadb collection (``col.raw``), never from what
the wrapper's ``get()`` returns. Where a refused call is checked, the promise is chromadb's: the
same builtin exception type as a bare chromadb collection raises for the same call, and a store
that is unchanged (records, documents, metadata, count).
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pytest
from typer.testing import CliRunner

import nowline
from nowline.surfaces.cli import app
from tests.conftest import ChromaServer, FakeEmbedding, snapshot
from tests.reliability import worker
from tests.reliability.procs import Child

OLD = "acme/app"
FIX = "Moved from acme/app to acme/web."
ALICE = {"user_id": "alice"}
BOB = {"user_id": "bob"}

REFRESH = 0.2
"""The ``refresh_seconds`` the freshness tests wrap with: the bound they hold."""

SLACK = 0.4
"""Seconds a test waits beyond ``REFRESH`` before it expects a change to be seen."""


@pytest.fixture(autouse=True)
def _short_resync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set ``NOWLINE_RESYNC_SECONDS`` as short as ``refresh_seconds``.

    These faults write with the raw collection, which moves no generation mark: such writes
    are seen within the resync interval.
    """
    monkeypatch.setenv("NOWLINE_RESYNC_SECONDS", str(REFRESH))


def _fault(fault: int, what: str) -> pytest.MarkDecorator:
    """Return the mark naming the fault of issue 13 a test pins (it failed before the fix)."""
    return pytest.mark.fault(fault, what)


def _trips(col: nowline.Collection, text: str, **kwargs: Any) -> list[str]:
    """Return the ids of the corrections that ``text`` trips in ``col``."""
    return [t.correction.id for t in col.check(text, **kwargs)]


def _state(col: nowline.Collection, rid: str, text: str) -> tuple[str, list[str]]:
    """Return (role, ids of the corrections shown) of record ``rid`` recalled for ``text``."""
    for hit in col.recall(text, n_results=max(col.count(), 1)).hits:
        if hit.id == rid:
            return hit.role, [c.id for c in hit.now]
    raise AssertionError(f"recall({text!r}) did not return {rid!r}")


def _expected_error(make: Callable[[], Any], call: Callable[[Any], object]) -> type[BaseException]:
    """Return the exception type a bare chromadb collection raises for ``call``."""
    bare = make()
    try:
        call(bare)
    except Exception as exc:
        return type(exc)
    raise AssertionError("bare chromadb accepted the call; the test's premise is wrong")


_twins = itertools.count()


def _bare_twin(client: Any) -> Callable[[], Any]:
    """Return a factory of fresh bare chromadb collections (fake embedder) on ``client``."""
    return lambda: client.create_collection(
        f"bare{next(_twins)}", embedding_function=FakeEmbedding()
    )


# ------------------------------------------------------------------ fault 1: scope leak


def _alice_fix_bob_memory(col: nowline.Collection) -> None:
    """Store Bob's memory naming acme/app and Alice's correction of acme/app."""
    col.remember("deploy acme/app for bob", id="b1", metadata=BOB)
    col.correct(FIX, deprecates=[OLD], id="alice_fix", metadata=ALICE)


def _scope_holds_everywhere(path: str, name: str) -> None:
    """Assert that a later wrapper without scope_key, check() and the CLI keep Bob apart."""
    later = nowline.wrap(chromadb.PersistentClient(path=path).get_collection(name))
    assert _trips(later, "deploy acme/app for bob", metadata=BOB) == []
    assert _state(later, "b1", "deploy acme/app") == ("current", [])
    result = CliRunner().invoke(
        app, ["check", path, "deploy acme/app", "--metadata", json.dumps(BOB), "-c", name]
    )
    assert result.exit_code == 0, result.output


@_fault(1, "a wrapper of a collection with hnsw:* metadata never records its scope key")
def test_scope_key_of_a_collection_with_hnsw_metadata_is_kept(tmp_path: Path) -> None:
    """A scope recorded on a collection with hnsw metadata keeps corrections in their scope."""
    path = str(tmp_path / "local")
    raw = chromadb.PersistentClient(path=path).create_collection(
        "mem", metadata={"hnsw:space": "cosine"}, embedding_function=FakeEmbedding()
    )
    _alice_fix_bob_memory(nowline.wrap(raw, scope_key="user_id"))
    _scope_holds_everywhere(path, "mem")


@_fault(1, "modify(metadata=...) wipes the recorded scope key")
def test_scope_key_survives_modify(tmp_path: Path) -> None:
    """A recorded scope survives a change of the collection's metadata through the wrapper."""
    path = str(tmp_path / "local")
    raw = chromadb.PersistentClient(path=path).create_collection(
        "mem", embedding_function=FakeEmbedding()
    )
    col = nowline.wrap(raw, scope_key="user_id")
    _alice_fix_bob_memory(col)
    col.modify(metadata={"team": "core"})
    _scope_holds_everywhere(path, "mem")


def test_scope_key_is_kept_without_hnsw_metadata(tmp_path: Path) -> None:
    """A scope recorded on a plain collection keeps corrections in their scope (control)."""
    path = str(tmp_path / "local")
    raw = chromadb.PersistentClient(path=path).create_collection(
        "mem", embedding_function=FakeEmbedding()
    )
    _alice_fix_bob_memory(nowline.wrap(raw, scope_key="user_id"))
    _scope_holds_everywhere(path, "mem")


# ------------------------------------------------------- fault 2: store deleted under a writer


def _collections(client: Any) -> dict[str, Any]:
    """Return every collection of a store: name -> snapshot of its records."""
    return {c.name: snapshot(client.get_collection(c.name)) for c in client.list_collections()}


@_fault(2, "a second process deletes and creates collections under the writer")
def test_second_process_cannot_delete_or_create_collections(tmp_path: Path) -> None:
    """A second process gets StoreBusy for collection-level writes and the store stays as is."""
    path = str(tmp_path / "store")
    with Child("hold", path) as holder:
        holder.expect("ready")
        client = nowline.wrap(chromadb.PersistentClient(path=path))
        before = _collections(client.raw)
        writes: dict[str, Callable[[], object]] = {
            "delete_collection": lambda: client.delete_collection(worker.COLLECTION),
            "create_collection": lambda: client.create_collection(
                "other", embedding_function=FakeEmbedding()
            ),
            "get_or_create_collection": lambda: client.get_or_create_collection(
                "another", embedding_function=FakeEmbedding()
            ),
        }
        outcomes = {}
        for name, write in writes.items():
            try:
                write()
                outcomes[name] = "written"
            except nowline.StoreBusy:
                outcomes[name] = "busy"
        assert outcomes == dict.fromkeys(writes, "busy")
        assert _collections(client.raw) == before
        holder.send()
        assert holder.expect("bye", timeout=60) == "bye 7"  # the holder still has its store
        assert holder.finish() == 0, holder.stderr()


# ---------------------------------------------------- fault 3: missed edits over a server


def _server_pair(server: ChromaServer) -> tuple[Any, nowline.Collection, nowline.Collection]:
    """Return (raw collection, writer, reader) of a fresh server database.

    The writer stored two memories and the correction ``fix`` of acme/app; the reader is a
    wrapper (its own client) with ``refresh_seconds=REFRESH``.
    """
    db = server.new_database()
    raw = server.client(db).create_collection("mem", embedding_function=FakeEmbedding())
    writer = nowline.wrap(raw)
    writer.remember("deploy acme/app", id="m")
    writer.remember("call acme/api", id="api")
    writer.correct(FIX, deprecates=[OLD], id="fix")
    reader = nowline.wrap(server.client(db).get_collection("mem"), refresh_seconds=REFRESH)
    assert _trips(reader, "deploy acme/app") == ["fix"]
    return raw, writer, reader


def _write_becomes_visible(raw: Any, reader: nowline.Collection, change: str, began: float) -> None:
    """Make a change visible as a writer whose write began ``began`` seconds earlier leaves it.

    nowline stamps ``nowline_changed`` when a write begins. A write that takes longer than
    the reader's refresh window (a big propagation, a slow embedder, a stalled process)
    becomes visible with a stamp older than the reader's last refresh; the reader has
    refreshed in between, as readers do.
    """
    stamp = time.time() - began
    time.sleep(REFRESH + SLACK)
    assert _trips(reader, "deploy acme/app") == ["fix"]  # the reader refreshes meanwhile
    if change == "edit":
        raw.update(
            ids=["fix"],
            documents=["Moved from acme/app and acme/api to acme/web."],
            metadatas=[{"deprecates": [OLD, "acme/api"], "nowline_changed": stamp}],
        )
    elif change == "retract":
        raw.update(
            ids=["fix"],
            metadatas=[
                {"nowline_retracted": stamp, "nowline_changed": stamp, "nowline_role": "historical"}
            ],
        )
    time.sleep(REFRESH + SLACK)


def _writer_began(what: str) -> pytest.MarkDecorator:
    """Parametrize ``began``: a write that began a minute before it became visible, or just now."""
    return pytest.mark.parametrize(
        "began",
        [
            pytest.param(
                60.0,
                id="slow",
                marks=_fault(
                    3, f"a slow writer's {what} is stamped before readers refresh past it"
                ),
            ),
            pytest.param(0.0, id="prompt"),
        ],
    )


@pytest.mark.server
@_writer_began("edit")
def test_edit_of_a_correction_is_seen_within_the_bound(
    chroma_server: ChromaServer, began: float
) -> None:
    """A correction's edit reaches every reader within refresh_seconds of becoming visible."""
    raw, _, reader = _server_pair(chroma_server)
    _write_becomes_visible(raw, reader, "edit", began)
    assert _trips(reader, "call acme/api") == ["fix"]
    assert _state(reader, "api", "call acme/api") == ("historical", ["fix"])


@pytest.mark.server
@_writer_began("retraction")
def test_retraction_is_seen_within_the_bound(chroma_server: ChromaServer, began: float) -> None:
    """A retraction reaches every reader within refresh_seconds of becoming visible."""
    raw, _, reader = _server_pair(chroma_server)
    _write_becomes_visible(raw, reader, "retract", began)
    assert _trips(reader, "deploy acme/app") == []
    assert _state(reader, "m", "deploy acme/app") == ("current", [])


@pytest.mark.server
def test_deletion_is_seen_within_the_bound(chroma_server: ChromaServer) -> None:
    """A correction deleted by another writer leaves every reader within refresh_seconds."""
    raw, _, reader = _server_pair(chroma_server)
    time.sleep(REFRESH + SLACK)
    assert _trips(reader, "deploy acme/app") == ["fix"]
    nowline.wrap(raw).delete(ids=["fix"])
    time.sleep(REFRESH + SLACK)
    assert _trips(reader, "deploy acme/app") == []
    assert _state(reader, "m", "deploy acme/app") == ("current", [])


# ----------------------------------------------------------- fault 4: half-written batches

BIG = 5001
"""More records than nowline sends to a local store in one Chroma call (5,000)."""


def _big_batch(bad: str) -> dict[str, Any]:
    """Return add() arguments: a correction first, 5,000 good records, one bad one last."""
    ids = ["fix"] + [f"r{i:05d}" for i in range(1, BIG)]
    docs = [FIX] + [f"note {i}" for i in range(1, BIG)]
    metas: list[Any] = [{"deprecates": [OLD]}] + [{"n": i} for i in range(1, BIG)]
    rng = np.random.default_rng(7)
    embs = [list(map(float, v)) for v in rng.normal(size=(BIG, 32))]
    if bad == "nested-dict":
        metas[-1] = {"n": {"nested": 1}}
    elif bad == "empty-list":
        metas[-1] = {"n": []}
    elif bad == "dimension":
        embs[-1] = embs[-1][:16]
    return {"ids": ids, "documents": docs, "metadatas": metas, "embeddings": embs}


@pytest.mark.parametrize("bad", ["nested-dict", "empty-list", "dimension"])
@_fault(4, "a 5,001-record add stores 5,000 records and raises")
def test_invalid_last_record_of_a_big_add_stores_nothing(
    memory: nowline.Collection, module_client: Any, bad: str
) -> None:
    """An add whose last record is invalid raises chromadb's error and stores nothing."""
    memory.remember("deploy acme/app", id="m")
    args = _big_batch(bad)
    want = _expected_error(_bare_twin(module_client), lambda c: c.add(**args))
    before = snapshot(memory.raw)
    with pytest.raises(want):
        memory.add(**args)
    assert snapshot(memory.raw) == before
    fresh = nowline.wrap(memory.raw)
    assert _trips(memory, "deploy acme/app") == _trips(fresh, "deploy acme/app") == []


# --------------------------------------------------- fault 5: delete() changes, then raises


@_fault(5, "delete(ids, limit) unlinks the correction before chromadb refuses the call")
def test_refused_delete_of_a_correction_changes_nothing(
    memory: nowline.Collection, module_client: Any
) -> None:
    """A delete() that chromadb refuses raises chromadb's error and changes nothing."""
    memory.remember("deploy acme/app", id="m")
    memory.correct(FIX, deprecates=[OLD], id="fix")

    def bare_call(c: Any) -> None:
        c.add(ids=["fix"], documents=[FIX])
        c.delete(ids=["fix"], limit=1)

    want = _expected_error(_bare_twin(module_client), bare_call)
    before = snapshot(memory.raw)
    with pytest.raises(want):
        memory.delete(ids=["fix"], limit=1)
    assert snapshot(memory.raw) == before
    assert _trips(memory, "deploy acme/app") == ["fix"]
    assert _state(memory, "m", "deploy acme/app") == ("historical", ["fix"])
    assert _trips(nowline.wrap(memory.raw), "deploy acme/app") == ["fix"]


@pytest.mark.parametrize(("limit", "offset"), [(10, None), (10, 5), (None, 5)])
@_fault(5, "get() of more than 5,000 ids ignores limit and offset")
def test_get_of_many_ids_honours_limit_and_offset(
    memory: nowline.Collection, limit: int | None, offset: int | None
) -> None:
    """get() of 6,000 ids returns what chromadb returns for the same limit and offset."""
    stored = [f"r{i:02d}" for i in range(40)]
    memory.add(ids=stored, documents=[f"note {i}" for i in range(40)])
    ids = stored + [f"missing{i}" for i in range(6000 - len(stored))]
    want = memory.raw.get(ids=ids, limit=limit, offset=offset, include=[])["ids"]
    assert len(want) == (limit or 40 - (offset or 0))
    got = memory.get(ids=ids, limit=limit, offset=offset, include=[])["ids"]
    assert got == want


# ------------------------------------------ fault 7: corrections written around nowline


@pytest.fixture
def around(request: pytest.FixtureRequest, tmp_path: Path) -> nowline.Collection:
    """Return a wrapper (refresh_seconds=REFRESH) that has written two memories itself.

    ``local``: a local PersistentClient store, whose only writer is then this process.
    ``server``: a database of a Chroma server.
    """
    if request.param == "local":
        raw = chromadb.PersistentClient(path=str(tmp_path / "local")).create_collection(
            "mem", embedding_function=FakeEmbedding()
        )
        col = nowline.wrap(raw, refresh_seconds=REFRESH)
    else:
        server: ChromaServer = request.getfixturevalue("chroma_server")
        raw = server.client(server.new_database()).create_collection(
            "mem", embedding_function=FakeEmbedding()
        )
        col = nowline.wrap(raw, refresh_seconds=REFRESH)
    col.remember("deploy acme/app", id="m")
    col.remember("call acme/api", id="api")
    return col


BOTH = pytest.mark.parametrize("around", ["local", "server"], indirect=True)
"""Run a test on the local store and on a server."""

LOCAL_ONLY_FAILS = pytest.mark.parametrize(
    "around",
    [
        pytest.param("local", marks=_fault(7, "the only writer of a local store never refreshes")),
        "server",
    ],
    indirect=True,
)
"""Run a test on both; on the local store it is a known failure (fault 7)."""


@BOTH
@_fault(7, "refresh finds corrections by nowline_correction, which raw writes lack")
def test_correction_added_around_nowline_is_seen_within_the_bound(
    around: nowline.Collection,
) -> None:
    """A correction added through the raw collection reaches the writer within the bound."""
    around.raw.add(ids=["fix"], documents=[FIX], metadatas=[{"deprecates": [OLD]}])
    assert _state(around, "fix", FIX)[0] == "transition"
    time.sleep(REFRESH + SLACK)
    assert _trips(around, "deploy acme/app") == ["fix"]
    assert _state(around, "m", "deploy acme/app") == ("historical", ["fix"])


@LOCAL_ONLY_FAILS
def test_correction_deleted_around_nowline_is_gone_within_the_bound(
    around: nowline.Collection,
) -> None:
    """A correction deleted through the raw collection leaves the writer within the bound."""
    around.correct(FIX, deprecates=[OLD], id="fix")
    around.raw.delete(ids=["fix"])
    time.sleep(REFRESH + SLACK)
    assert _trips(around, "deploy acme/app") == []
    assert _state(around, "m", "deploy acme/app") == ("current", [])


@_fault(7, "wrappers load corrections by nowline_correction, which raw writes lack")
def test_correction_added_around_nowline_is_seen_by_a_new_wrapper(
    memory: nowline.Collection,
) -> None:
    """A correction added through the raw collection applies once found, and after repair().

    The README's narrowed promise: a correction written around nowline is found when a read
    returns it (here the recall of m returns it) and by ``repair()``, which marks it, so every
    later wrapper lists it at load.
    """
    memory.remember("deploy acme/app", id="m")
    memory.raw.add(ids=["fix"], documents=[FIX], metadatas=[{"deprecates": [OLD]}])
    later = nowline.wrap(memory.raw)
    later.get(ids=["fix"])
    assert _trips(later, "deploy acme/app") == ["fix"]
    assert _state(later, "m", "deploy acme/app") == ("historical", ["fix"])
    later.repair()
    fresh = nowline.wrap(memory.raw)
    assert _trips(fresh, "deploy acme/app") == ["fix"]


@BOTH
@_fault(7, "an edit through the raw collection keeps its old change stamp and is never seen")
def test_correction_edited_around_nowline_is_seen_within_the_bound(
    around: nowline.Collection,
) -> None:
    """A correction edited through the raw collection reaches the writer within the bound."""
    around.correct(FIX, deprecates=[OLD], id="fix")
    # As if it was written a minute ago (the change stamp a write leaves is its start time).
    around.raw.update(ids=["fix"], metadatas=[{"nowline_changed": time.time() - 60}])
    time.sleep(REFRESH + SLACK)
    assert _trips(around, "call acme/api") == []  # a refresh is due: the wrapper has looked
    around.raw.update(
        ids=["fix"],
        documents=["Moved from acme/app and acme/api to acme/web."],
        metadatas=[{"deprecates": [OLD, "acme/api"]}],
    )
    time.sleep(REFRESH + SLACK)
    assert _trips(around, "call acme/api") == ["fix"]
    assert _state(around, "api", "call acme/api") == ("historical", ["fix"])


# ------------------------------------------- fault 8: as_of and records written around nowline


@_fault(8, "as_of filters on nowline_time, which records written around nowline lack")
def test_as_of_keeps_records_written_around_nowline(memory: nowline.Collection) -> None:
    """recall(as_of=...) keeps a record written around nowline whose observed_at is earlier."""
    memory.remember("deploy acme/app per the 2019 runbook", id="wrapped", observed_at="2019-06-01")
    memory.raw.add(
        ids=["raw_iso", "raw_epoch", "raw_late"],
        documents=[
            "deploy acme/app per the 2020 runbook",
            "deploy acme/app per the 2021 runbook",
            "deploy acme/app per the 2025 runbook",
        ],
        metadatas=[
            {"observed_at": "2020-01-01"},
            {"observed_at": 1609459200},  # 2021-01-01
            {"observed_at": "2025-01-01"},
        ],
    )
    everything = {h.id for h in memory.recall("deploy acme/app runbook", n_results=10).hits}
    assert everything == {"wrapped", "raw_iso", "raw_epoch", "raw_late"}
    then = memory.recall("deploy acme/app runbook", n_results=10, as_of="2024-01-01")
    assert {h.id for h in then.hits} == {"wrapped", "raw_iso", "raw_epoch"}


# -------------------------------------- fault 9: missed links and a guard bypass in one write


@_fault(9, "an add that names an existing id and a correction of it never links that record")
def test_add_of_an_existing_id_with_a_correction_links_it(memory: nowline.Collection) -> None:
    """A correction added next to an existing record's id links that record (stored links)."""
    memory.remember("deploy acme/app", id="m")
    memory.add(
        ids=["m", "fix"],
        documents=["deploy acme/app", FIX],
        metadatas=[{"k": 1}, {"deprecates": [OLD]}],
    )
    assert _state(memory, "m", "deploy acme/app") == ("historical", ["fix"])
    stored = memory.raw.get(ids=["m"], include=["metadatas"])["metadatas"]
    assert stored is not None and (stored[0] or {}).get("nowline_by") == ["fix"]
    historical = memory.get(where={"nowline_role": "historical"}, include=[])["ids"]
    assert historical == ["m"]
    assert memory.repair().updated == 0


@_fault(9, "the batch's own ids are left out of a correction's reach count")
def test_reach_limit_counts_records_upserted_with_the_correction(
    memory: nowline.Collection,
) -> None:
    """A correction too broad alone is refused when its records are upserted with it."""
    ids = [f"r{i:04d}" for i in range(1000)]
    docs = [f"deploy acme/app build {i}" for i in range(1000)]
    memory.add(ids=ids, documents=docs)
    with pytest.raises(nowline.CorrectionTooBroad):
        memory.correct(FIX, deprecates=[OLD], id="fix")
    before = snapshot(memory.raw)
    with pytest.raises(nowline.CorrectionTooBroad):
        memory.upsert(
            ids=[*ids, "fix"],
            documents=[*docs, FIX],
            metadatas=[*[{"k": 1}] * 1000, {"deprecates": [OLD]}],
        )
    assert snapshot(memory.raw) == before


# ------------------------------------------------------ fault 10: annotation written back

MEETING = "deploy acme/app\nnow: ship on Friday"
"""A memory whose own second line reads like a now-line (a quoted meeting note)."""


def _shown(col: nowline.Collection, rid: str) -> str:
    """Return the document query() shows for record ``rid``."""
    q = col.query(query_texts=["deploy acme/app"], n_results=col.count())
    docs = (q["documents"] or [[]])[0]
    return str(docs[q["ids"][0].index(rid)])


@_fault(10, "a query() -> update() round trip through another wrapper stores the quote mark")
def test_query_update_round_trip_through_a_new_wrapper_stores_the_original(
    memory: nowline.Collection,
) -> None:
    """Writing back what query() showed, through a restarted wrapper, stores the original."""
    memory.remember(MEETING, id="m")
    memory.correct(FIX, deprecates=[OLD], id="fix")
    shown = _shown(memory, "m")
    assert "\n    now: " + FIX in shown
    restarted = nowline.wrap(memory.raw)
    restarted.update(ids=["m"], documents=[shown])
    assert memory.raw.get(ids=["m"])["documents"] == [MEETING]
    assert _shown(restarted, "m") == shown


# --------------------------------------------------------------- fault 11: thread safety

ROUNDS_11 = 150
"""At most this many corrections (100 strings each) are written by the writer thread..."""

SECONDS_11 = 10.0
"""...and for at most this long. Today a reader fails within a few rounds (about 1 s)."""


@_fault(11, "check() rebuilds the matcher while a writer thread adds strings to it")
def test_reads_in_threads_while_another_thread_writes_corrections(
    memory: nowline.Collection,
) -> None:
    """check() and recall() in reader threads never raise while another thread writes."""
    memory.remember("call svc/1-0-1 today", id="m")
    errors: list[str] = []
    done = threading.Event()

    def write() -> None:
        deadline = time.monotonic() + SECONDS_11
        for r in range(ROUNDS_11):
            if errors or time.monotonic() > deadline:
                break
            phrases = [f"svc/{r}-0-{j}" for j in range(100)]
            memory.add(
                ids=[f"c{r}"],
                documents=["moved: " + " ".join(phrases)],
                metadatas=[{"deprecates": phrases}],
            )

    def check() -> None:
        while not done.is_set():
            memory.check("call svc/1-0-1 and svc/7-0-3 and svc/30")

    def recall() -> None:
        while not done.is_set():
            memory.recall("call svc/1-0-1", n_results=3)

    def guarded(target: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                target()
            except BaseException as exc:
                where = traceback.extract_tb(exc.__traceback__)[-1]
                errors.append(f"{type(exc).__name__}: {exc} ({where.filename}, {where.name})")
            finally:
                if target is write:
                    done.set()

        return run

    threads = [threading.Thread(target=guarded(write))]
    threads += [threading.Thread(target=guarded(check)) for _ in range(3)]
    threads.append(threading.Thread(target=guarded(recall)))
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert _trips(memory, "call svc/1-0-1") == ["c1"]


# ------------------------------------------------------------------ fault 12: small ones

HUGE = 10**400


def _huge_time_calls(col: nowline.Collection) -> Iterator[tuple[str, Callable[[], object]]]:
    """Yield (name, call) for every way a 400-digit time reaches nowline."""
    yield "remember", lambda: col.remember("deploy acme/app", id="x", observed_at=HUGE)
    yield "correct", lambda: col.correct(FIX, deprecates=[OLD], id="y", observed_at=HUGE)
    yield "add", lambda: col.add(ids=["z"], documents=["z"], metadatas=[{"observed_at": HUGE}])
    yield "update", lambda: col.update(ids=["m"], metadatas=[{"observed_at": -HUGE}])
    yield "recall", lambda: col.recall("acme/app", as_of=HUGE)
    yield "recall-negative", lambda: col.recall("acme/app", as_of=-HUGE)


@_fault(12, "a 400-digit time raises a bare OverflowError")
def test_a_time_too_large_for_a_float_is_invalid_input(memory: nowline.Collection) -> None:
    """A time too large for a float raises InvalidInput and writes nothing."""
    memory.remember("deploy acme/app", id="m")
    before = snapshot(memory.raw)
    outcomes = {}
    for name, call in _huge_time_calls(memory):
        try:
            call()
            outcomes[name] = "accepted"
        except nowline.InvalidInput:
            outcomes[name] = "InvalidInput"
        except Exception as exc:
            outcomes[name] = type(exc).__name__
    assert outcomes == dict.fromkeys(outcomes, "InvalidInput")
    assert snapshot(memory.raw) == before


@_fault(12, "corrections written in one add() are ordered by id instead of write order")
def test_chained_corrections_of_one_add_are_ordered_by_write_order(
    memory: nowline.Collection,
) -> None:
    """Of two corrections written in one add(), the later one in the batch is the newer."""
    memory.remember("deploy acme/app", id="m")
    memory.add(
        ids=["z_first", "a_second"],
        documents=[FIX, "Moved from acme/web to acme/cloud."],
        metadatas=[{"deprecates": [OLD]}, {"deprecates": ["acme/web"]}],
    )
    assert _state(memory, "z_first", FIX) == ("historical", ["a_second"])
    assert _state(memory, "m", "deploy acme/app")[1][-1] == "a_second"
    (trip,) = memory.check("deploy acme/app")
    assert (trip.correction.id, trip.newest.id) == ("z_first", "a_second")
