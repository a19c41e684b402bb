"""The read and write paths driven against a scripted in-memory store: no Chroma at all.

A path (a flow) yields the Chroma operations it needs and receives their results; the
collections run it with a driver that carries them out. Here the driver is nowline's own
(``run_sync``) and the store is :class:`ScriptedStore`: a few dozen lines that answer each
operation from a dict of records, log every operation, and can be told to fail one. So a test
can say exactly what the store holds, what a path asked of it, in which order, and what the
store holds after a failure, as httpx's ``MockTransport`` lets its tests do for HTTP.

The subject is the facade the sync and async collections share (``_facade.Facade``), set up
on the scripted store: its prepare steps validate a call and return the flow to run.
"""

from __future__ import annotations

import asyncio
import copy
import re
import uuid
from collections import Counter
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

import pytest

import nowline

# The private names this module needs, in one place (the internals move; fix imports here).
from nowline._facade import Facade, Options
from nowline._io.execute import run_async, run_sync
from nowline._io.freshness import MARKED
from nowline._io.journal import Journal
from nowline._io.mark import new_mark, state_of
from nowline._rules import links
from nowline._rules import records as R
from nowline._rules.verbs import CorrectArgs, InsertArgs, RecallArgs, RememberArgs


class StoreDown(ConnectionError):
    """The scripted store's failure: raised in place of one operation's result."""


class ScriptedStore:
    """A store that answers nowline's operations from a dict of records, logging each one.

    Records are ``id -> (document, metadata)``, in insertion order. ``fail`` picks the one
    operation to refuse (a predicate on the operation, checked in order; it fails once).
    Embedding is the identity: a text's "vector" is the text, and a query ranks records by
    the words they share with it.
    """

    def __init__(self, records: Mapping[str, tuple[str, dict[str, Any] | None]] = ()) -> None:
        """Hold a copy of ``records``."""
        self.records: dict[str, tuple[str, dict[str, Any] | None]] = copy.deepcopy(dict(records))
        self.log: list[Any] = []
        self.fail: Callable[[Any], bool] | None = None
        self.mark: str | None = None  # the generation mark (None: no companion yet)
        self.entries: dict[str, Any] = {}  # the journal's entries by id (journal.Entry)
        self.companion = "companion-1"  # the companion's id (a new one: deleted and made again)

    def execute(self, op: Any) -> Any:
        """Answer one operation (the driver's call), or raise :class:`StoreDown` once."""
        self.log.append(op)
        if self.fail is not None and self.fail(op):
            self.fail = None
            raise StoreDown(f"the store went away during {type(op).__name__}")
        answer: Callable[[Any], Any] = getattr(self, f"_{type(op).__name__.lower()}")
        return answer(op)

    def ops(self, kind: str) -> list[Any]:
        """Return the logged operations of one kind (``"Get"``, ``"Write"``...), in order."""
        return [op for op in self.log if type(op).__name__ == kind]

    # -- reads

    def _matching(self, where: Any, where_document: Any) -> list[str]:
        """Return the ids of the records a filter selects, in store order."""
        return [
            rid
            for rid, (doc, meta) in self.records.items()
            if _where(meta or {}, where) and _where_document(doc, where_document)
        ]

    def _get(self, op: Any) -> dict[str, Any]:
        ids = self._matching(op.where, op.where_document)
        if op.ids is not None:
            ids = [i for i in dict.fromkeys(op.ids) if i in ids]
        ids = ids[op.offset or 0 :][: op.limit]
        return self._rows(ids, op.include)

    def _rows(self, ids: list[str], include: tuple[str, ...]) -> dict[str, Any]:
        """Return a GetResult of these records with the fields ``include`` names."""
        docs = [self.records[i][0] for i in ids]
        metas = [copy.deepcopy(self.records[i][1]) for i in ids]
        return {
            "ids": ids,
            "documents": docs if "documents" in include else None,
            "metadatas": metas if "metadatas" in include else None,
            "embeddings": None,
            "uris": None,
            "included": list(include),
        }

    def _count(self, op: Any) -> int:
        return len(self.records)

    def _query(self, op: Any) -> dict[str, Any]:
        ranked = self._matching(op.where, op.where_document)
        out: dict[str, Any] = {"ids": [], "documents": [], "metadatas": [], "distances": []}
        for text in op.embeddings:
            words = set(text.lower().split())

            def distance(rid: str, words: set[str] = words) -> float:
                return 1.0 - len(words & set(self.records[rid][0].lower().split())) / len(words)

            ids = sorted(ranked, key=distance)[: op.n_results]
            rows = self._rows(ids, ("documents", "metadatas"))
            out["ids"].append(ids)
            out["documents"].append(rows["documents"])
            out["metadatas"].append(rows["metadatas"])
            out["distances"].append([distance(i) for i in ids])
        return out

    # -- writes

    def _write(self, op: Any) -> None:
        docs = op.documents or [None] * len(op.ids)
        metas = op.metadatas or [None] * len(op.ids)
        for rid, doc, patch in zip(op.ids, docs, metas, strict=True):
            if op.op == "add" and rid in self.records:
                continue  # chromadb ignores an add of an existing id
            if op.op == "update" and rid not in self.records:
                continue
            old_doc, old_meta = self.records.get(rid, (None, None))
            meta = dict(old_meta or {}) if op.op != "add" else {}
            for key, value in (patch or {}).items():
                if value is None:
                    meta.pop(key, None)
                else:
                    meta[key] = copy.deepcopy(value)
            self.records[rid] = (doc if doc is not None else old_doc, meta or None)

    def _delete(self, op: Any) -> None:
        ids = self._matching(op.where, op.where_document)
        if op.ids is not None:
            ids = [i for i in ids if i in op.ids]
        for rid in ids[: op.limit]:
            del self.records[rid]

    # -- the rest: no I/O of their own

    def _embed(self, op: Any) -> tuple[Any, Any]:
        texts = None if op.record_set is None else list(op.record_set["documents"])
        return texts, op.metadatas

    def _work(self, op: Any) -> Any:
        return op.fn(*op.args)

    def _background(self, op: Any) -> None:
        op.fn()

    def _lock(self, op: Any) -> None:
        return None

    def _modify(self, op: Any) -> None:
        return None

    def _readmark(self, op: Any) -> str | None:
        return self.mark

    def _writemark(self, op: Any) -> None:
        self.mark = op.value

    def _readjournal(self, op: Any) -> Any:
        if self.mark is None and not self.entries:
            return None
        return Journal(self.companion, dict(self.entries))

    def _writeentry(self, op: Any) -> None:
        self.entries[op.entry.id] = op.entry

    def _dropentries(self, op: Any) -> None:
        for eid in op.ids:
            self.entries.pop(eid, None)


def _where(meta: Mapping[str, Any], where: Any) -> bool:
    """Return whether a metadata matches a Chroma ``where`` (the operators nowline sends)."""
    if not where:
        return True
    for key, cond in where.items():
        if key == "$and":
            if not all(_where(meta, c) for c in cond):
                return False
            continue
        if key == "$or":
            if not any(_where(meta, c) for c in cond):
                return False
            continue
        value = meta.get(key)
        ops = cond if isinstance(cond, dict) else {"$eq": cond}
        for name, operand in ops.items():
            if name == "$eq":
                ok = key in meta and type(value) is type(operand) and value == operand
            elif name == "$in":
                ok = key in meta and value in operand
            elif name == "$contains":
                ok = isinstance(value, list) and operand in value
            else:
                raise NotImplementedError(f"the scripted store has no {name}")
            if not ok:
                return False
    return True


def _python_escape(match: re.Match[str]) -> str:
    """Return Python's escape of the code point that a Rust hex escape (x{HEX}) names."""
    return f"\\U{int(match[1], 16):08X}"


def _where_document(document: str | None, where_document: Any) -> bool:
    """Return whether a document matches a ``where_document`` (``$regex`` or ``$contains``)."""
    if not where_document:
        return True
    if document is None:
        return False
    if "$regex" in where_document:
        # Chroma's regex is Rust's: its \x{HEX} escapes are Python's \UXXXXXXXX.
        pattern = re.sub(r"\\x\{([0-9A-Fa-f]+)\}", _python_escape, where_document["$regex"])
        return re.search(pattern, document) is not None
    return str(where_document["$contains"]) in document


class Subject(Facade):
    """The facade of a wrapped collection, set up on a scripted store instead of chromadb's.

    ``asynchronous=True`` runs every path with nowline's async driver (the async collection's)
    instead of its blocking one.
    """

    def __init__(self, store: ScriptedStore, asynchronous: bool = False, **options: Any) -> None:
        """Load the store's corrections, as wrapping a collection does."""
        self._embedding_function = store._embed  # never called: the store embeds
        self._model = SimpleNamespace(configuration_json={}, name="memory")  # gives ``name``
        self._data_loader = None
        self._store = store
        self._asynchronous = asynchronous
        raw = SimpleNamespace(_client=object(), metadata=None, name=self.name, id=uuid.uuid4())
        options.setdefault("refresh_seconds", 3600)  # no listing by time: the log stays exact
        self.run(SimpleNamespace(flow=self._setup(raw, Options(**options)), finish=lambda r: r))

    def run(self, path: Any) -> Any:
        """Run a prepared path to its end with nowline's driver."""
        if not self._asynchronous:
            return path.finish(run_sync(path.flow, self._store))
        store = self._store

        class Awaited:
            async def execute(self, op: Any) -> Any:
                return store.execute(op)

        return path.finish(asyncio.run(run_async(path.flow, Awaited())))

    def remember(self, text: str, rid: str, metadata: dict[str, Any] | None = None) -> str:
        """Store a memory (``remember()``)."""
        return str(self.run(self._remember_path(RememberArgs(text, id=rid, metadata=metadata))))

    def correct(self, text: str, deprecates: list[str], rid: str) -> nowline.CorrectionReport:
        """Store a correction (``correct()``, no near-miss refusal: these stores are tiny)."""
        call = CorrectArgs(
            text, deprecates=deprecates, id=rid, max_reach=None, allow_unreached=True
        )
        path = self._correct_path(call)
        report: nowline.CorrectionReport = self.run(path)
        return report

    def recall(self, text: str, n_results: int = 3) -> nowline.Recall:
        """Recall the memories closest to ``text`` (``recall()``)."""
        recall: nowline.Recall = self.run(self._recall_path(RecallArgs(text, n_results=n_results)))
        return recall


UFO = {
    "m1": ("deploy from ufo-org/ufo-server on Fridays", {"team": "ops"}),
    "m2": ("the wiki lives at wiki.example.dev", {"team": "ops"}),
}
MOVE = "Moved from ufo-org/ufo-server to acme/ufo-server."
TIMES = {"nowline_time", "nowline_written", "nowline_changed"}
"""The metadata keys that hold when a record was written (they differ between two runs)."""


def _shown(recall: nowline.Recall, rid: str) -> list[str]:
    """Return the ids of the newest corrections a recalled record shows."""
    return [ref.id for hit in recall.hits if hit.id == rid for ref in hit.now]


# ----------------------------------------------------------------------------- reads


def test_a_query_whose_hit_names_a_deprecated_string_gets_its_lines() -> None:
    """A recalled memory that names a corrected string is historical and shows the correction."""
    store = ScriptedStore(UFO)
    subject = Subject(store)
    subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    recall = subject.recall("deploy ufo-server")
    hit = next(h for h in recall.hits if h.id == "m1")
    assert hit.role == "historical"
    assert _shown(recall, "m1") == ["c1"]
    assert MOVE in recall.render()
    assert [h.role for h in recall.hits if h.id == "m2"] == ["current"]


def test_a_correction_deleted_by_another_process_is_not_shown_once_the_mark_changed() -> None:
    """A changed generation mark makes the next read list the corrections: the deleted one goes.

    The memory's stored link still names it; the read shows the store's corrections.
    """
    store = ScriptedStore(UFO)
    subject = Subject(store, refresh_seconds=0)
    subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    del store.records["c1"]  # another process deleted it through nowline: a new mark
    store.mark = new_mark("done")
    store.log.clear()
    recall = subject.recall("deploy ufo-server")
    assert _shown(recall, "m1") == []
    assert [h.role for h in recall.hits if h.id == "m1"] == ["current"]
    assert store.ops("ReadMark") and store.ops("Get")[0].where == MARKED


def test_an_unchanged_mark_costs_a_read_no_listing() -> None:
    """A read in a store whose mark is unchanged reads the mark and lists nothing."""
    store = ScriptedStore(UFO)
    subject = Subject(store, refresh_seconds=0)
    subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    store.log.clear()
    subject.recall("deploy ufo-server")
    assert not [op for op in store.ops("Get") if op.where == MARKED]


def test_a_correction_written_around_nowline_is_found_when_a_read_returns_it() -> None:
    """A record with ``deprecates`` that a plain client stored is taken in the moment it is read."""
    store = ScriptedStore(UFO)
    subject = Subject(store)
    store.records["c1"] = (MOVE, {"deprecates": "ufo-org/ufo-server"})  # never listed: no mark
    first = subject.recall("deploy ufo-server", n_results=3)
    assert "c1" in [h.id for h in first.hits]
    assert _shown(first, "m1") == ["c1"]


# ---------------------------------------------------------------------------- writes


def test_a_correction_is_written_in_one_call_then_its_memories_are_linked() -> None:
    """The correction lands in one write; the memories it reaches get their links after it."""
    store = ScriptedStore(UFO)
    subject = Subject(store)
    store.log.clear()
    report = subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    writes = store.ops("Write")
    assert [(w.op, w.ids) for w in writes] == [("add", ["c1"]), ("update", ["m1"])]
    assert report.reached == 1
    assert store.records["m1"][1] is not None
    assert store.records["m1"][1]["nowline_by"] == ["c1"]
    assert store.records["m2"][1] == {"team": "ops"}


def test_a_write_catches_up_before_it_links_when_the_mark_changed() -> None:
    """A memory written after its correction was deleted elsewhere is stored without that link.

    The write reads the mark first; it changed, so the registry catches up before the plan.
    """
    store = ScriptedStore(UFO)
    subject = Subject(store, refresh_seconds=0)
    subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    subject.correct(
        "The wiki moved from wiki.example.dev to wiki.acme.dev.", ["wiki.example.dev"], "c2"
    )
    del store.records["c1"]  # deleted by another process through nowline
    store.mark = new_mark("done")
    subject.remember("build ufo-org/ufo-server with make and the wiki.example.dev page", "m3")
    add = next(w for w in store.ops("Write") if w.op == "add" and w.ids == ["m3"])
    assert add.metadatas is not None
    assert add.metadatas[0]["nowline_by"] == ["c2"]
    assert store.records["m3"][1] is not None
    assert store.records["m3"][1]["nowline_by"] == ["c2"]


def test_a_write_of_a_correction_is_between_two_marks() -> None:
    """A correction's write is preceded by a writing mark and followed by a done mark."""
    store = ScriptedStore(UFO)
    subject = Subject(store)
    store.log.clear()
    subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    kinds = [type(op).__name__ for op in store.log]
    first = kinds.index("WriteMark")
    assert kinds[first + 1] == "Write" and store.log[first + 1].ids == ["c1"]
    assert state_of(store.log[first].value) == "writing"
    assert kinds.count("WriteMark") == 2 and state_of(store.mark) == "done"
    store.log.clear()
    subject.remember("a memory that names nothing", "m9")
    assert not store.ops("WriteMark"), "a plain memory changes no mark"


def test_a_refused_correction_asks_nothing_of_the_store_after_its_reads() -> None:
    """A guard refuses before anything is embedded, locked or written."""
    store = ScriptedStore(UFO)
    subject = Subject(store)
    before = copy.deepcopy(store.records)
    store.log.clear()
    with pytest.raises(nowline.InvalidCorrection):
        subject.correct(MOVE, ["not/in-any-memory"], "c1")
    assert {type(op).__name__ for op in store.log} <= {"Get", "Count", "Work"}
    assert store.records == before


def test_a_store_error_on_the_write_leaves_nothing_written() -> None:
    """The store failing on the correction's own write: nothing stored, nothing more asked.

    The path stops at the failed write (no links are written for a correction the store does
    not hold), no line is shown, and the same write succeeds once the store is back.
    """
    store = ScriptedStore(UFO)
    subject = Subject(store)
    before = copy.deepcopy(store.records)
    store.fail = lambda op: type(op).__name__ == "Write"
    with pytest.raises(StoreDown):
        subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    assert type(store.log[-1]).__name__ == "Write"
    assert store.records == before
    assert _shown(subject.recall("deploy ufo-server"), "m1") == []
    assert subject.correct(MOVE, ["ufo-org/ufo-server"], "c1").reached == 1
    assert _shown(subject.recall("deploy ufo-server"), "m1") == ["c1"]


def test_a_store_error_while_linking_leaves_the_correction_whole_and_shown() -> None:
    """The store failing after the correction landed: it is stored whole and shown at once.

    The links of other memories are bookkeeping: the read-time check shows the line without
    them, and ``repair()`` stores them.
    """
    store = ScriptedStore(UFO)
    subject = Subject(store)
    store.fail = lambda op: type(op).__name__ == "Write" and op.op == "update"
    with pytest.raises(StoreDown):
        subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    document, meta = store.records["c1"]
    assert document == MOVE
    assert meta is not None
    assert meta["deprecates"] == ["ufo-org/ufo-server"]
    assert meta["nowline_correction"] is True
    assert store.records["m1"][1] == {"team": "ops"}  # not linked yet
    assert _shown(subject.recall("deploy ufo-server"), "m1") == ["c1"]
    report = subject.run(subject._repair_path())
    assert report.links_added == 1
    assert store.records["m1"][1] is not None
    assert store.records["m1"][1]["nowline_by"] == ["c1"]


def test_a_retracted_correction_stops_showing_and_unlinks_its_memories() -> None:
    """Retracting marks the correction retracted in one write, then removes its links."""
    store = ScriptedStore(UFO)
    subject = Subject(store)
    subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    store.log.clear()
    assert subject.run(subject._retract_path("c1")) is None
    assert [(w.op, w.ids) for w in store.ops("Write")] == [("update", ["c1"]), ("update", ["m1"])]
    meta = store.records["c1"][1]
    assert meta is not None
    assert meta["nowline_role"] == "retracted"
    assert "nowline_by" not in (store.records["m1"][1] or {})
    assert _shown(subject.recall("deploy ufo-server"), "m1") == []


def test_the_async_driver_asks_the_same_of_the_store() -> None:
    """One path, two drivers: the same operations in the same order, the same records after."""
    stores = [ScriptedStore(UFO), ScriptedStore(UFO)]
    subjects = [Subject(stores[0]), Subject(stores[1], asynchronous=True)]
    for store, subject in zip(stores, subjects, strict=True):
        store.log.clear()
        subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
        assert _shown(subject.recall("deploy ufo-server"), "m1") == ["c1"]
    sync_ops, async_ops = ([type(op).__name__ for op in store.log] for store in stores)
    assert "Write" in sync_ops
    assert sync_ops == async_ops
    sync_records, async_records = (
        {
            rid: (doc, {k: v for k, v in (meta or {}).items() if k not in TIMES})
            for rid, (doc, meta) in store.records.items()
        }
        for store in stores
    )
    assert sync_records == async_records


# ------------------------------------------------------------ each reached text judged once


def _counting_verdicts(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count, per record id, every time the write-time rules match a record's text.

    That is each verdict they ask (``verdict``) and each reach test (``direct_of``).
    """
    calls: Counter[str] = Counter()

    def counting(judge: Callable[..., Any]) -> Callable[..., Any]:
        def counted(record: Any, *args: Any, **kwargs: Any) -> Any:
            calls[record.id] += 1
            return judge(record, *args, **kwargs)

        return counted

    monkeypatch.setattr(links, "verdict", counting(links.verdict))
    monkeypatch.setattr(links, "direct_of", counting(links.direct_of))
    return calls


def test_a_correction_judges_each_memory_it_reaches_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A correct() matches each reached memory's text once: its reach is its links.

    The reach step judges every candidate against the registry as it will be after the
    write; the links stored after the write are those verdicts, not a second scan. A new
    correction's id can be in no stored ``nowline_by``, so no such read is made either.
    """
    records = {f"m{i}": (f"deploy {i} from ufo-org/ufo-server", {"team": "ops"}) for i in range(7)}
    records["near"] = ("deploy from ufo-org/ufo-server-hosted", {"team": "ops"})
    records["both"] = ("ufo-org/ufo-server docs at wiki.example.dev", None)
    store = ScriptedStore(records)
    subject = Subject(store)
    subject.correct("The wiki moved to wiki.acme.dev.", ["wiki.example.dev"], "c0")
    calls = _counting_verdicts(monkeypatch)
    store.log.clear()
    report = subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    reached = [f"m{i}" for i in range(7)] + ["both"]
    assert report.reached == len(reached)
    assert {rid: calls[rid] for rid in reached} == dict.fromkeys(reached, 1)
    assert calls["near"] <= 1  # a candidate the prefilter lets through, judged once at most
    assert not [op for op in store.ops("Get") if "nowline_by" in str(op.where)]
    for rid in reached:
        meta = store.records[rid][1] or {}
        assert meta["nowline_role"] == "historical"
        assert meta["nowline_by"] == (["c0", "c1"] if rid == "both" else ["c1"])
    assert "nowline_by" not in (store.records["near"][1] or {})


def _put_elsewhere(subject: Subject, store: ScriptedStore) -> None:
    """Write a correction as another thread of this process would: in the store and registry."""
    meta = {"deprecates": ["wiki.example.dev"], "nowline_correction": True, "nowline_time": 1.0}
    store.records["c0"] = ("The wiki moved to wiki.acme.dev.", meta)
    info = R.correction_info(R.Record("c0", *store.records["c0"]))
    assert info is not None
    subject._core.registry.put(info)


@pytest.mark.parametrize(
    "between",
    ["reach and the write", "the write and the links"],
)
def test_a_registry_change_before_the_links_are_stored_is_judged_again(
    between: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verdicts from the reach are reused only while the registry is as they were planned.

    Another thread puts a correction that also names a reached memory, once before this
    write's corrections enter the registry and once after (before the links are stored):
    either way the memory's stored links name both corrections, its text judged again.
    """
    store = ScriptedStore(
        {
            "m1": ("deploy from ufo-org/ufo-server, docs at wiki.example.dev", None),
            "m2": ("deploy from ufo-org/ufo-server", None),
        }
    )
    subject = Subject(store)
    calls = _counting_verdicts(monkeypatch)

    def meddle(op: Any) -> bool:
        kind = type(op).__name__
        if between == "reach and the write":
            hit = kind == "Write" and op.op == "add"
        else:
            hit = kind == "WriteMark" and state_of(op.value) == "done"
        if hit and "c0" not in store.records:
            _put_elsewhere(subject, store)
        return False

    store.fail = meddle  # it sees every operation before the store answers; it fails none
    report = subject.correct(MOVE, ["ufo-org/ufo-server"], "c1")
    assert "c0" in store.records, "the change was made"
    assert report.reached == 2
    assert (store.records["m1"][1] or {})["nowline_by"] == ["c0", "c1"]
    assert (store.records["m2"][1] or {})["nowline_by"] == ["c1"]
    assert calls["m1"] == 2 and calls["m2"] == 2  # the registry changed: both judged again


def test_the_store_is_counted_only_for_a_reach_no_store_size_allows() -> None:
    """A share-based limit allows at least ``REACH_FLOOR`` in any store: no Count below it.

    An absolute limit needs no size either, unless a reach passes it: then the refusal names
    the store's size.
    """
    store = ScriptedStore(UFO)
    subject = Subject(store)

    def correct(rid: str, max_reach: float | int) -> None:
        call = CorrectArgs(MOVE, deprecates=["ufo-org/ufo-server"], id=rid, max_reach=max_reach)
        subject.run(subject._correct_path(call))

    store.log.clear()
    correct("c1", 0.25)
    assert not store.ops("Count")
    subject.run(subject._retract_path("c1"))
    store.log.clear()
    with pytest.raises(nowline.CorrectionTooBroad, match=r"would reach 1 of 3 records"):
        correct("c2", 0)
    assert len(store.ops("Count")) == 1


def test_a_correction_new_in_the_write_costs_no_read_of_its_links() -> None:
    """No stored record can link to a correction id new in this write: its links are not read.

    A rename and its rename back written in one call: the second revives the first, whose
    links would be read again if it were an older correction; being new, it has none.
    """
    store = ScriptedStore(
        {
            "app": ("Clone github.com/acme/app for the mobile client.", None),
            "app2": ("acme/app2 builds on Fridays.", None),
        }
    )
    subject = Subject(store)
    store.log.clear()
    call = InsertArgs(
        ["there", "back"],
        documents=["acme/app was renamed to acme/app2.", "acme/app2 was renamed back to acme/app."],
        metadatas=[
            {"deprecates": ["acme/app"], "nowline_time": 2.0},
            {"deprecates": ["acme/app2"], "nowline_time": 3.0},
        ],
    )
    subject.run(subject._insert_path("add", call))
    assert not [op for op in store.ops("Get") if "nowline_by" in str(op.where)]
    assert "nowline_by" not in (store.records["app"][1] or {})  # revived: current
    assert (store.records["app2"][1] or {})["nowline_by"] == ["back"]
    # An edit of a stored correction reads the records that link to it.
    store.log.clear()
    call = InsertArgs(["back"], documents=["acme/app2 was renamed back to acme/app in May."])
    subject.run(subject._insert_path("update", call))
    assert [op for op in store.ops("Get") if "nowline_by" in str(op.where)]
