"""The seed scenario and the core behaviour on a real PersistentClient.

See the README's "Linking" and "What a stale hit shows".
"""

from __future__ import annotations

import chromadb
import pytest

import nowline
from nowline.render import PREFIXES
from tests.conftest import FakeEmbedding

UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
OLD = {
    "pr": "metalcraftai/ufo — PR #1705 passed review.",
    "slack": "Subscribed to #ufo-dev, the Slack channel for metalcraftai/ufo.",
    "clone": "Clone with git clone https://github.com/metalcraftai/ufo.git",
}
OTHER = {
    "hosted": "metalcraftai/ufo-hosted deploys every Friday.",
    "new": "ufo-ai/ufo — release 0.9 tagged.",
}


def _seed(memory: nowline.Collection) -> nowline.CorrectionReport:
    """Store the seed memories and the UFO correction."""
    for key, text in {**OLD, **OTHER}.items():
        memory.remember(text, id=key)
    return memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")


def _roles(recall: nowline.Recall) -> dict[str, str]:
    """Return {id: role} of a recall."""
    return {h.id: h.role for h in recall.hits}


def test_seed_scenario_roles_and_now_lines(memory: nowline.Collection) -> None:
    """Every memory naming the old repository is historical with the correction beneath it."""
    report = _seed(memory)
    assert report.id == "move" and report.reached == 3
    recall = memory.recall("ufo", n_results=10)
    roles = _roles(recall)
    assert {k: roles[k] for k in OLD} == dict.fromkeys(OLD, "historical")
    assert roles["hosted"] == roles["new"] == "current"
    assert roles["move"] == "transition"
    for hit in recall.hits:
        assert [c.id for c in hit.now] == (["move"] if hit.id in OLD else [])
    text = recall.render()
    assert f"- [outdated] {OLD['pr']}\n    now: {UFO}" in text
    # the sibling stays current, with no now-line: only the label of what the move leaves out
    after = text.split(f"- {OTHER['hosted']}\n", 1)[1]
    assert after.startswith(PREFIXES["not covered"]) and "metalcraftai/ufo-hosted" in after
    assert not after.split("\n- ", 1)[0].lstrip().startswith("now:")


def test_stored_links_reach_every_memory_not_only_retrieved_ones(
    memory: nowline.Collection,
) -> None:
    """Links are persisted in metadata for every matching record at correction time."""
    _seed(memory)
    got = memory.raw.get(include=["metadatas"])
    meta = dict(zip(got["ids"], got["metadatas"] or [], strict=True))
    for key in OLD:
        assert meta[key]["nowline_by"] == ["move"]
        assert meta[key]["nowline_role"] == "historical"
    assert "nowline_by" not in meta["hosted"] and "nowline_role" not in meta["hosted"]
    assert meta["move"]["nowline_role"] == "transition"
    historical = memory.get(where={"nowline_role": "historical"}, include=[])
    assert sorted(historical["ids"]) == sorted(OLD)
    live = memory.get(where={"nowline_role": {"$ne": "historical"}}, include=[])
    assert sorted(live["ids"]) == sorted([*OTHER, "move"])


def test_memory_written_after_correction_is_linked_at_write_time(
    memory: nowline.Collection,
) -> None:
    """A new memory that still names the old string gets the correction when written."""
    _seed(memory)
    memory.remember("Opened issue #12 on metalcraftai/ufo.", id="late")
    meta = memory.raw.get(ids=["late"])["metadatas"]
    assert meta is not None and meta[0]["nowline_by"] == ["move"]
    hit = next(h for h in memory.recall("issue ufo", n_results=10).hits if h.id == "late")
    assert hit.role == "historical" and [c.id for c in hit.now] == ["move"]


def test_foreign_write_is_annotated_at_read_time_and_linked_by_repair(
    memory: nowline.Collection,
) -> None:
    """A record written by a plain chromadb client is annotated on read; repair() links it."""
    _seed(memory)
    memory.raw.add(
        ids=["foreign"],
        documents=["Foreign note: CI for METALCRAFTAI/UFO is red."],
        embeddings=FakeEmbedding()(["Foreign note: CI for METALCRAFTAI/UFO is red."]),
    )
    hit = next(h for h in memory.recall("ci ufo", n_results=10).hits if h.id == "foreign")
    assert hit.role == "historical" and [c.id for c in hit.now] == ["move"]
    assert memory.get(ids=["foreign"])["metadatas"] == [None]
    report = memory.repair()
    assert report.links_added == 1 and report.updated >= 1
    assert (memory.raw.get(ids=["foreign"])["metadatas"] or [{}])[0]["nowline_by"] == ["move"]
    again = memory.repair()
    assert again.updated == 0 and again.links_added == again.links_removed == 0


def test_chain_resolves_to_newest_and_retract_restores(memory: nowline.Collection) -> None:
    """C2 deprecating a string of C1 shows C2 under C1's memories; retracting C2 brings C1 back."""
    _seed(memory)
    memory.correct(
        "UFO moved again: ufo-ai/ufo is now ufo-org/ufo.", deprecates=["ufo-ai/ufo"], id="again"
    )
    hits = {h.id: h for h in memory.recall("ufo", n_results=10).hits}
    assert [c.id for c in hits["pr"].now] == ["again"]
    assert hits["move"].role == "historical" and [c.id for c in hits["move"].now] == ["again"]
    assert hits["new"].role == "historical"
    assert hits["again"].role == "transition"
    memory.retract("again")
    hits = {h.id: h for h in memory.recall("ufo", n_results=10).hits}
    assert [c.id for c in hits["pr"].now] == ["move"]
    assert hits["move"].role == "transition" and hits["new"].role == "current"
    assert hits["again"].role == "retracted" and hits["again"].now == []
    got = memory.raw.get(ids=["again", "move", "new"])
    meta = dict(zip(got["ids"], got["metadatas"] or [], strict=True))
    assert meta["again"]["nowline_retracted"] > 0
    assert "nowline_by" not in meta["move"] and "nowline_by" not in meta["new"]


def test_several_corrections_give_one_now_line_each(memory: nowline.Collection) -> None:
    """A memory reached by two unrelated corrections shows both, oldest first."""
    memory.remember("Ask Dana about metalcraftai/ufo in #ops.", id="m")
    memory.correct(
        "Dana left; ask Lee instead of Dana.", deprecates=["Dana"], allow_generic=True, id="c1"
    )
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="c2")
    hit = next(h for h in memory.recall("ops", n_results=10).hits if h.id == "m")
    assert [c.id for c in hit.now] == ["c1", "c2"]
    block = nowline.Recall(query="q", hits=[hit]).render()
    assert block.count("\n    now: ") == 2


def test_two_links_to_one_chain_show_one_now_line(memory: nowline.Collection) -> None:
    """Two links whose chains meet in one newest correction show it once."""
    memory.remember("metalcraftai/ufo and ufo-ai/ufo both build.", id="m")
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="c1")
    memory.correct("ufo-ai/ufo is now ufo-org/ufo.", deprecates=["ufo-ai/ufo"], id="c2")
    hit = next(h for h in memory.recall("build", n_results=10).hits if h.id == "m")
    assert [c.id for c in hit.now] == ["c2"]


def test_as_of_reads_as_the_store_knew_things_then(memory: nowline.Collection) -> None:
    """Before the correction's time the old memory is current and the correction is absent."""
    memory.remember(OLD["pr"], id="pr", observed_at="2024-01-10")
    memory.correct(UFO, deprecates=["metalcraftai/ufo"], id="move", observed_at="2024-06-01")
    memory.remember("metalcraftai/ufo — PR #1800 opened.", id="late", observed_at="2024-07-01")
    then = memory.recall("ufo pr", n_results=10, as_of="2024-03-01")
    assert [(h.id, h.role) for h in then.hits] == [("pr", "current")]
    assert then.as_of is not None
    now = {h.id: h.role for h in memory.recall("ufo pr", n_results=10).hits}
    assert now == {"pr": "historical", "move": "transition", "late": "historical"}
    mid = {h.id: h.role for h in memory.recall("ufo pr", n_results=10, as_of=1717300000).hits}
    assert mid == {"pr": "historical", "move": "transition"}


def test_include_historical_false_fills_with_next_hits(memory: nowline.Collection) -> None:
    """Leaving historical hits out still returns n_results current hits when there are some."""
    _seed(memory)
    recall = memory.recall("ufo", n_results=3, include_historical=False)
    assert len(recall.hits) == 3
    assert {h.role for h in recall.hits} <= {"current", "transition"}


def test_persistence_across_clients(store_path: str, memory: nowline.Collection) -> None:
    """A new client on the same path recalls the same roles and now-lines with no rebuild."""
    _seed(memory)
    before = memory.recall("ufo", n_results=10)
    reopened = nowline.wrap(chromadb.PersistentClient(path=store_path)).get_collection("memory")
    after = reopened.recall("ufo", n_results=10)
    assert [(h.id, h.role, [c.id for c in h.now]) for h in after.hits] == [
        (h.id, h.role, [c.id for c in h.now]) for h in before.hits
    ]
    assert isinstance(reopened.embedding_function, FakeEmbedding)


def test_recall_serialises_to_json(memory: nowline.Collection) -> None:
    """The evidence packet round-trips through JSON."""
    _seed(memory)
    recall = memory.recall("ufo", n_results=4)
    again = nowline.Recall.model_validate_json(recall.model_dump_json())
    assert again == recall
    assert again.render() == recall.render()


def test_preview_writes_nothing(memory: nowline.Collection) -> None:
    """preview() names the records a correction would reach and changes nothing."""
    for key, text in {**OLD, **OTHER}.items():
        memory.remember(text, id=key)
    before = memory.get(include=["documents", "metadatas"])
    assert sorted(memory.preview(["metalcraftai/ufo"])) == sorted(OLD)
    assert sorted(memory.preview("ufo-ai/ufo")) == ["new"]
    assert memory.get(include=["documents", "metadatas"]) == before


def test_update_of_document_relinks(memory: nowline.Collection) -> None:
    """Updating a historical memory's text so it no longer names the old string makes it current."""
    _seed(memory)
    memory.update(ids=["pr"], documents=["ufo-ai/ufo — PR #1705 passed review."])
    meta = (memory.raw.get(ids=["pr"])["metadatas"] or [{}])[0]
    assert "nowline_by" not in meta and "nowline_role" not in meta
    memory.update(ids=["hosted"], documents=["metalcraftai/ufo deploys every Friday."])
    meta = (memory.raw.get(ids=["hosted"])["metadatas"] or [{}])[0]
    assert meta["nowline_by"] == ["move"]


def test_delete_of_correction_unlinks(memory: nowline.Collection) -> None:
    """Deleting a correction through the wrapper makes its memories current again."""
    _seed(memory)
    memory.delete(ids=["move"])
    hits = memory.recall("ufo", n_results=10).hits
    assert {h.role for h in hits} == {"current"}
    got = memory.raw.get(include=["metadatas"])
    assert all("nowline_by" not in (m or {}) for m in got["metadatas"] or [])


def test_correction_through_add_metadata(memory: nowline.Collection) -> None:
    """A plain add() with deprecates in metadata (one string or a list) is a correction."""
    memory.add(ids=["m"], documents=[OLD["pr"]])
    memory.add(ids=["c"], documents=[UFO], metadatas=[{"deprecates": "metalcraftai/ufo"}])
    got = memory.raw.get(ids=["c", "m"])
    meta = dict(zip(got["ids"], got["metadatas"] or [], strict=True))
    assert meta["c"]["deprecates"] == ["metalcraftai/ufo"]
    assert meta["m"]["nowline_by"] == ["c"]


def test_scope_keeps_corrections_apart(scoped: nowline.Collection) -> None:
    """A correction of user A never reaches user B's memory, even one naming its string."""
    scoped.remember(OLD["pr"], id="a", metadata={"user_id": "alice"})
    scoped.remember(OLD["pr"] + " (bob)", id="b", metadata={"user_id": "bob"})
    scoped.remember(OLD["pr"] + " (nobody)", id="n")
    report = scoped.correct(
        UFO, deprecates=["metalcraftai/ufo"], id="c", metadata={"user_id": "alice"}
    )
    assert report.reached == 1
    roles = {h.id: h.role for h in scoped.recall("ufo", n_results=10).hits}
    assert roles == {"a": "historical", "b": "current", "n": "current", "c": "transition"}
    assert scoped.preview(["metalcraftai/ufo"], metadata={"user_id": "bob"}) == ["b"]
    assert scoped.preview(["metalcraftai/ufo"]) == ["n"]
    scoped.repair()
    roles = {h.id: h.role for h in scoped.recall("ufo", n_results=10).hits}
    assert roles == {"a": "historical", "b": "current", "n": "current", "c": "transition"}


def test_two_wrappers_in_one_process_see_each_others_corrections(
    raw_client: chromadb.api.ClientAPI,
) -> None:
    """A second wrapper of the same collection sees corrections written through the first."""
    a = nowline.wrap(raw_client.create_collection("shared", embedding_function=FakeEmbedding()))
    b = nowline.wrap(raw_client.get_collection("shared", embedding_function=FakeEmbedding()))
    a.remember(OLD["pr"], id="pr")
    b.remember("warm up b's registry", id="warm")
    a.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    hit = next(h for h in b.recall("ufo", n_results=5).hits if h.id == "pr")
    assert hit.role == "historical" and [c.id for c in hit.now] == ["move"]
    b.remember("metalcraftai/ufo issue #3", id="late")
    assert (b.raw.get(ids=["late"])["metadatas"] or [{}])[0]["nowline_by"] == ["move"]
    a.retract("move")
    assert {h.role for h in b.recall("ufo", n_results=5).hits if h.id != "move"} == {"current"}


def test_deleted_collection_leaves_no_metadata_behind(client: nowline.Client) -> None:
    """A collection created after a deleted one never inherits its deprecates (chroma#7594)."""
    old = client.create_collection("old-one", embedding_function=FakeEmbedding())
    old.correct(UFO, deprecates=["metalcraftai/ufo"], id="c")
    client.delete_collection("old-one")
    new = client.create_collection("new-one", embedding_function=FakeEmbedding())
    new.remember("plain note", id="n1")
    meta = (new.raw.get(ids=["n1"])["metadatas"] or [{}])[0]
    assert "deprecates" not in meta and "nowline_by" not in meta


def test_scope_key_is_remembered_by_the_collection(
    store_path: str, scoped: nowline.Collection
) -> None:
    """A scoped correction keeps its scope in any wrapper; another key may not write there."""
    scoped.remember("note acme/app", id="n", metadata={"user_id": "alice"})
    scoped.correct(
        "Moved from acme/app to acme/web.", deprecates=["acme/app"], metadata={"user_id": "alice"}
    )
    raw = chromadb.PersistentClient(path=store_path).get_collection(
        "scoped", embedding_function=FakeEmbedding()
    )
    plain = nowline.wrap(raw)
    assert plain.scope_key is None and plain.scope_keys == {"user_id"}
    assert [t.correction.id for t in plain.check("acme/app", metadata={"user_id": "bob"})] == []
    other = nowline.wrap(raw, scope_key="tenant")
    with pytest.raises(nowline.InvalidInput, match="'user_id'"):
        other.correct("Moved from acme/api to acme/v2.", deprecates=["acme/api"])


def test_unknown_embedding_function_is_refused(store_path: str) -> None:
    """Opening a collection whose embedding function cannot be built raises, never swaps it."""
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, '.'); from tests.conftest import FakeEmbedding; "
        "import chromadb; chromadb.PersistentClient(sys.argv[1]).create_collection("
        "'memory', embedding_function=FakeEmbedding())"
    )
    subprocess.run([sys.executable, "-c", code, store_path], check=True, capture_output=True)
    from chromadb.utils.embedding_functions import known_embedding_functions

    saved = known_embedding_functions.pop("nowline-test-fake")
    try:
        client = nowline.wrap(chromadb.PersistentClient(path=store_path))
        with pytest.raises(nowline.InvalidInput, match="nowline-test-fake"):
            client.get_collection("memory")
    finally:
        known_embedding_functions["nowline-test-fake"] = saved
