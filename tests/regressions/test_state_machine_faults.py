"""Core faults that the state machine (``tests/reliability/``) found, one minimal test each.

Each test is the smallest program that showed the fault; all are fixed, and the tests stay as
regression tests. Each asserts a promise that holds whichever way the fault is fixed. The
machine now runs every input these faults needed, with no tolerance for them:

* get() with a bool ``limit`` or ``offset`` returned nowline's bookkeeping keys;
* an update stored a write stamp on a correction stored with a time but without one, moving it
  among corrections of equal time without relinking: a later write never adds a write stamp
  (``_records.merge``), and a correction's identity holds its order, so a change of order
  relinks (``_links._identity``);
* a call that drops or changes one correction and adds another reaching the same record wrote
  that record's old link back: ``_flows._relink`` recomputes the links of every record the
  changed and the new corrections touch from the registry after the write;
* a refresh in a reader thread put back a correction that a writer thread retracted or deleted
  meanwhile: ``Registry.reconcile`` refuses a read of corrections that overlapped a change of
  the registry, and the read is made again;
* a write during another thread's refresh of the same wrapper skipped its own refresh and
  planned links against a registry not yet filled: a refresh counts only once what it read is
  taken in;
* over a Chroma server, get(offset=False) returned records where chromadb's get() raises (the
  server wants a number): ``_flows.get_flow`` sent ``offset or 0``; it now sends the offset as
  given;
* a sync wrapper (HttpClient) and an async one (AsyncHttpClient) of one server collection in
  one process did not share the change counter (it was keyed by the client object), so a
  change through one was seen by the other only within ``refresh_seconds``: the counter is
  keyed by the server's URL (``_chroma.server_url``);
* a read that returned a correction the wrapper held, edited by a plain chromadb client (its
  strings changed), did not take in the edit unless a result showed the old correction (at a
  high budget over a server, where programs run slowly enough that the edited correction's
  stamp had left the refresh's window): ``_flows._observe`` reads again by id every
  correction whose row differs from what the registry holds;
* a correction whose text a plain chromadb client had changed so that it no longer names its
  strings was refused (AbsentString) when a batch wrote it again exactly as stored with only
  other metadata changed: a correction whose strings and text are as stored is not judged
  again (``_flows._prepare_write``).
"""

from __future__ import annotations

import asyncio
import threading
import traceback
from pathlib import Path
from typing import Any

import chromadb
import pytest

import nowline
from tests.conftest import FakeEmbedding, ServerDatabase, strip_nowline

OLD = "acme/app"
FIX = "Moved from acme/app to acme/web."


@pytest.mark.parametrize(("limit", "offset"), [(True, None), (None, True)])
def test_get_with_a_bool_limit_or_offset_hides_bookkeeping(
    memory: nowline.Collection, limit: Any, offset: Any
) -> None:
    """get(limit=True) and get(offset=True) return what chromadb returns, without nowline's keys."""
    memory.remember("deploy acme/app", id="m")
    memory.correct(FIX, deprecates=[OLD], id="fix")
    want = memory.raw.get(limit=limit, offset=offset)
    got = memory.get(limit=limit, offset=offset)
    assert got["ids"] == want["ids"]
    assert got["metadatas"] == [strip_nowline(m) for m in want["metadatas"] or []]


def test_an_update_leaves_the_links_of_corrections_of_equal_time_consistent(
    memory: nowline.Collection,
) -> None:
    """After a metadata update of a correction, the stored links are what repair() would store.

    "old" (added around nowline, then repaired: a stored time, no write stamp) and "new" (a
    later correction with the same observed time, naming acme/app) tie on time; write order
    breaks the tie. Whatever an update does to that order, the stored links, this wrapper and
    a new wrapper must agree.
    """
    memory.raw.add(
        ids=["old"],
        documents=[FIX],
        metadatas=[{"deprecates": [OLD], "observed_at": 2000.0}],
    )
    memory.repair()
    memory.correct(
        "Moved from svc-1 to acme/app.", deprecates=["svc-1"], id="new", observed_at=2000.0
    )
    memory.update(ids=["old"], metadatas=[{"k": 1}])
    fresh = nowline.wrap(memory.raw)
    assert [h.role for h in memory.hits(["new"])] == [h.role for h in fresh.hits(["new"])]
    assert memory.repair().updated == 0


@pytest.mark.parametrize("verb", ["upsert", "update"])
@pytest.mark.parametrize("change", ["drop", "edit"])
def test_a_write_that_replaces_a_correction_leaves_no_stale_link(
    memory: nowline.Collection, verb: str, change: str
) -> None:
    """A call that replaces correction "a" by "n" leaves the memory linked to "n" only.

    In one call "a" stops being a correction (or deprecates another string) and "n" becomes a
    correction of the string "a" deprecated.
    """
    memory.remember("deploy acme/app", id="m")
    memory.remember("call svc-1", id="n")
    memory.correct(FIX, deprecates=[OLD], id="a")
    a_meta = {"deprecates": None} if change == "drop" else {"deprecates": ["svc-1"]}
    a_doc = FIX if change == "drop" else "Moved from svc-1 to svc-2."
    getattr(memory, verb)(
        ids=["a", "n"],
        documents=[a_doc, "Moved from acme/app to acme/cloud."],
        metadatas=[a_meta, {"deprecates": [OLD]}],
    )
    stored = memory.raw.get(ids=["m"], include=["metadatas"])["metadatas"]
    assert stored is not None
    assert (stored[0] or {}).get("nowline_by") == ["n"]
    assert memory.repair().updated == 0


def _interleave(
    api: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[threading.Event, threading.Event]:
    """Make a reader thread's refresh apply what it read before a writer thread's change.

    The thread named "reader" pauses after its first read until the thread named "writer"
    starts reading the records its change unlinks; the writer pauses there until the reader
    has applied its read (at its next read, where the reader waits until the writer is done,
    so that the rest of its refresh cannot repair the registry first). Waits time out after
    5 s, so a core that orders refreshes and writes (a lock) runs through without the
    interleaving. Returns the events "the reader has read" and "the writer is done" (to set).
    """
    real = api._get
    read, unlinking, applied, done = (threading.Event() for _ in range(4))
    calls = {"reader": 0}

    def hooked(*args: Any, **kwargs: Any) -> Any:
        me = threading.current_thread().name
        if me == "reader":
            calls["reader"] += 1
            if calls["reader"] == 1:
                result = real(*args, **kwargs)
                read.set()
                unlinking.wait(5)
                return result
            if calls["reader"] == 2:
                applied.set()
                done.wait(5)
        elif me == "writer" and "nowline_by" in repr(kwargs.get("where")):
            unlinking.set()
            applied.wait(5)
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "_get", hooked)
    return read, done


@pytest.mark.parametrize("change", ["retract", "delete"])
def test_a_read_in_another_thread_never_undoes_an_unlink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """A correction retracted or deleted while another thread reads leaves no stored link."""
    raw = chromadb.PersistentClient(path=str(tmp_path / "store")).create_collection(
        "mem", embedding_function=FakeEmbedding()
    )
    col = nowline.wrap(raw, refresh_seconds=0)
    col.remember("deploy acme/app", id="m")
    col.correct(FIX, deprecates=[OLD], id="fix")
    read, done = _interleave(raw._client, monkeypatch)
    errors: list[str] = []

    def guarded(call: Any) -> Any:
        def run() -> None:
            try:
                call()
            except BaseException as exc:
                errors.append("".join(traceback.format_exception(exc)))
            finally:
                if threading.current_thread().name == "writer":
                    done.set()

        return run

    reader = threading.Thread(target=guarded(lambda: col.check("deploy acme/app")), name="reader")
    write = (
        (lambda: col.retract("fix")) if change == "retract" else (lambda: col.delete(ids=["fix"]))
    )
    writer = threading.Thread(target=guarded(write), name="writer")
    reader.start()
    read.wait(5)
    writer.start()
    writer.join()
    reader.join()
    assert errors == []
    stored = raw.get(ids=["m"], include=["metadatas"])["metadatas"]
    assert stored is not None
    meta = stored[0] or {}
    assert (meta.get("nowline_by"), meta.get("nowline_role")) == (None, None)
    assert col.repair().updated == 0


def test_a_write_during_another_threads_refresh_sees_every_correction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory written while another thread refreshes the wrapper is linked to the correction.

    A second wrapper of the collection writes a correction, so the first must refresh before
    it reads or writes. A reader thread starts that refresh and is held at its first read;
    meanwhile the main thread writes a memory naming the correction's string.
    """
    raw = chromadb.PersistentClient(path=str(tmp_path / "store")).create_collection(
        "mem", embedding_function=FakeEmbedding()
    )
    col = nowline.wrap(raw, refresh_seconds=3600)
    col.check("anything")  # the first read's refresh is done
    nowline.wrap(raw).correct(FIX, deprecates=[OLD], id="fix")
    api = raw._client
    real = api._get
    held, release = threading.Event(), threading.Event()

    def hooked(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == "reader" and not held.is_set():
            held.set()
            release.wait(5)
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "_get", hooked)
    reader = threading.Thread(target=lambda: col.check("deploy acme/app"), name="reader")
    reader.start()
    held.wait(5)
    col.remember("deploy acme/app", id="m")
    release.set()
    reader.join()
    stored = raw.get(ids=["m"], include=["metadatas"])["metadatas"]
    assert stored is not None
    assert (stored[0] or {}).get("nowline_by") == ["fix"]


@pytest.mark.parametrize(("limit", "offset"), [(1, False), (False, None), (True, None)])
def test_get_with_a_bool_limit_or_offset_over_a_server_is_chromadbs(
    http_database: ServerDatabase, limit: Any, offset: Any
) -> None:
    """Over a Chroma server, get() with a bool limit or offset does what chromadb's get() does.

    The server refuses a bool in either (its JSON body wants a number); nowline sent
    ``offset=False`` as 0 and so returned records where chromadb raised.
    """
    raw = http_database.client().create_collection("mem", embedding_function=FakeEmbedding())
    memory = nowline.wrap(raw)
    memory.remember("deploy acme/app", id="m")
    try:
        want: Any = raw.get(limit=limit, offset=offset)
    except Exception as exc:
        want = (type(exc), str(exc))
    try:
        got: Any = memory.get(limit=limit, offset=offset)
    except Exception as exc:
        got = (type(exc), str(exc))
    if isinstance(want, tuple):
        assert got == want
    else:
        assert isinstance(got, dict)
        assert (got["ids"], got["documents"]) == (want["ids"], want["documents"])


def test_an_async_wrapper_sees_a_change_by_a_sync_wrapper_at_its_next_call(
    http_database: ServerDatabase,
) -> None:
    """A correction written through a sync wrapper trips check() of an async one at once.

    Both wrap the same server collection in one process (HttpClient and AsyncHttpClient), so
    the async wrapper must see the change at its next call (README, Freshness), not only
    within ``refresh_seconds``.
    """
    raw = http_database.client().create_collection("mem", embedding_function=FakeEmbedding())
    memory = nowline.wrap(raw)
    server = http_database.server

    async def main() -> list[str]:
        client = await chromadb.AsyncHttpClient(
            host=server.host, port=server.port, database=http_database.name
        )
        other = nowline.wrap(
            await client.get_collection("mem", embedding_function=FakeEmbedding()),
            refresh_seconds=3600,
        )
        await other.check("deploy acme/app")  # loaded: no correction yet
        memory.correct(FIX, deprecates=[OLD], id="fix")
        return [t.correction.id for t in await other.check("deploy acme/app")]

    assert asyncio.run(main()) == ["fix"]


def test_a_read_that_returns_a_correction_edited_around_nowline_takes_it_in(
    memory: nowline.Collection,
) -> None:
    """A correction edited with the raw collection is seen by the read that returns it.

    A wrapper holds "fix", naming x/y, which no record names. A plain chromadb client changes
    what it deprecates to acme/app. A read that returns "fix" takes in its stored state at once
    (README, Freshness: written around nowline, when a read returns it), so "m" is superseded
    by it. Before, a read took in only corrections the registry did not hold or newly
    retracted ones, and the stale "fix" reached no record, so nothing verified it.
    """
    memory.remember("deploy acme/app", id="m")
    memory.raw.add(
        ids=["fix"], documents=["Moved from acme/app and x/y."], metadatas=[{"deprecates": ["x/y"]}]
    )
    other = nowline.wrap(memory.raw, refresh_seconds=3600)  # no refresh by time
    for _ in range(2):
        other.hits(["fix"])  # it holds "fix"; its rolling scan has run
    memory.raw.update(ids=["fix"], metadatas=[{"deprecates": ["acme/app"]}])
    assert [(h.id, h.role) for h in other.hits(["m", "fix"])] == [
        ("m", "historical"),
        ("fix", "transition"),
    ]


def test_a_correction_written_again_as_stored_is_not_judged_again(
    memory: nowline.Collection,
) -> None:
    """A text edited around nowline to omit its string; an upsert that keeps it passes."""
    memory.remember("deploy acme/app", id="m")
    memory.correct(FIX, deprecates=[OLD], id="fix")
    text = "The service moved (see the wiki)."
    memory.raw.update(ids=["fix"], documents=[text], embeddings=FakeEmbedding()([text]))
    memory.upsert(ids=["fix"], documents=[text], metadatas=[{"k": 2}])
    (meta,) = memory.get(ids=["fix"])["metadatas"] or [None]
    assert meta is not None and meta["k"] == 2 and meta["deprecates"] == [OLD]
    with pytest.raises(nowline.AbsentString):  # setting the text anew is judged as ever
        memory.upsert(ids=["fix"], documents=["Moved, see the wiki."], metadatas=[{"k": 3}])


def test_new_values_are_read_again_after_an_edit_of_the_text_around_nowline(
    memory: nowline.Collection,
) -> None:
    """A correction's stored new values hold only for the text and strings they were read from.

    "back" renames acme/app2 back to acme/app, so acme/app reads as current again (a change
    back revives). A plain chromadb client then edits its text so that it renames acme/app2 to
    acme/app3. Before, nowline kept the new values it had read from the old text, so acme/app
    stayed revived and a check of it found nothing. The state machine found it with an edit of
    the strings (a correction that deprecated its own stale new value).
    """
    memory.remember("Clone github.com/acme/app for the mobile client.", id="app")
    memory.correct("acme/app was renamed to acme/app2.", deprecates=["acme/app"], id="there")
    memory.correct("acme/app2 was renamed back to acme/app.", deprecates=["acme/app2"], id="back")
    assert memory.check("clone acme/app") == []  # revived by "back"
    text = "acme/app2 was renamed to acme/app3."
    memory.raw.update(ids=["back"], documents=[text], embeddings=FakeEmbedding()([text]))
    memory.hits(["back"])  # a read that returns it takes the edit in (README, Freshness)
    assert [t.correction.id for t in memory.check("clone acme/app")] == ["there"]
    assert [r.replaced_by for r in memory.corrections() if r.id == "back"] == [["acme/app3"]]
    memory.repair()
    (meta,) = memory.raw.get(ids=["back"])["metadatas"] or [None]
    assert meta is not None and '"acme/app3"' in str(meta["nowline_new"])
    assert memory.hits(["app"])[0].role == "historical"
