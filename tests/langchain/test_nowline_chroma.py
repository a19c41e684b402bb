"""NowlineChroma behaviour: now-lines through searches, retrievers and LCEL chains."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import chromadb
import pytest
from langchain_chroma import Chroma
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.prompts import PromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda, RunnablePassthrough

import nowline
from nowline.surfaces.langchain import NowlineChroma

RETRACTED = "this correction was withdrawn; do not rely on it."
UFO = "UFO core — Moved from metalcraftai/ufo to ufo-ai/ufo; do GitHub work in ufo-ai/ufo."
PR = "metalcraftai/ufo — PR #1705 passed review."
CLONE = "Clone with git clone https://github.com/metalcraftai/ufo.git"
HOSTED = "metalcraftai/ufo-hosted deploys every Friday."
NEW = "ufo-ai/ufo — release 0.9 tagged."
ALL = 10  # more than any store here holds, so every search returns every document


@pytest.fixture
def store() -> Iterator[NowlineChroma]:
    """Yield an empty NowlineChroma with fake LangChain embeddings on an in-memory client."""
    lc = NowlineChroma(
        collection_name=f"lc-{uuid.uuid4().hex}",
        embedding_function=DeterministicFakeEmbedding(size=16),
        client=chromadb.EphemeralClient(),
        relevance_score_fn=lambda distance: 1.0 / (1.0 + distance),
    )
    yield lc
    lc.delete_collection()


def _seed(store: NowlineChroma) -> None:
    """Store the seed memories, then the UFO correction through ``add_texts``."""
    store.add_texts(
        [PR, CLONE, HOSTED, NEW],
        metadatas=[{"topic": "pr"}, {"topic": "clone"}, {"topic": "hosted"}, {"topic": "new"}],
        ids=["pr", "clone", "hosted", "new"],
    )
    store.add_texts([UFO], metadatas=[{"deprecates": ["metalcraftai/ufo"]}], ids=["move"])


def _by_id(docs: list[Document]) -> dict[str, Document]:
    """Return documents keyed by id."""
    return {d.id or "": d for d in docs}


def _format(docs: list[Document]) -> str:
    """Format retrieved documents as a bulleted context block."""
    return "\n".join("- " + d.page_content for d in docs)


def _chain(store: NowlineChroma) -> Runnable[str, str]:
    """Build an LCEL chain: retriever, formatter and prompt template (no LLM)."""
    prompt = PromptTemplate.from_template("Relevant memory:\n{context}\n\nQuestion: {question}")
    retriever = store.as_retriever(search_kwargs={"k": ALL})
    return (
        {"context": retriever | RunnableLambda(_format), "question": RunnablePassthrough()}
        | prompt
        | RunnableLambda(lambda value: value.to_string())
    )


def _assert_prompt(text: str) -> None:
    """Assert the stale memories carry the now-line directly beneath and the rest do not."""
    assert f"- {PR}\n    now: {UFO}\n" in text
    assert f"- {CLONE}\n    now: {UFO}\n" in text
    assert f"- {HOSTED}\n" in text and f"- {HOSTED}\n    now:" not in text
    assert f"- {NEW}\n" in text and f"- {NEW}\n    now:" not in text
    assert text.count("    now: ") == 2


def test_chain_prompt_shows_now_line_beneath_stale_memory(store: NowlineChroma) -> None:
    """A prompt built from the retriever shows the correction under each stale memory only."""
    _seed(store)
    _assert_prompt(_chain(store).invoke("ufo pull request"))


@pytest.mark.asyncio
async def test_async_chain_prompt_shows_now_line(store: NowlineChroma) -> None:
    """The same chain run asynchronously shows the same now-lines."""
    _seed(store)
    _assert_prompt(await _chain(store).ainvoke("ufo pull request"))


def test_before_correction_nothing_is_annotated(store: NowlineChroma) -> None:
    """Without a correction, retrieved documents are exactly as stored."""
    store.add_texts([PR, HOSTED], metadatas=[{"topic": "pr"}, {"topic": "hosted"}], ids=["a", "b"])
    docs = _by_id(store.similarity_search("ufo", k=ALL))
    assert docs["a"] == Document(id="a", page_content=PR, metadata={"topic": "pr"})
    assert docs["b"] == Document(id="b", page_content=HOSTED, metadata={"topic": "hosted"})


def test_every_search_method_annotates(store: NowlineChroma) -> None:
    """Searches by text, by vector, with scores, with relevance and by MMR all annotate."""
    _seed(store)
    vector = DeterministicFakeEmbedding(size=16).embed_query("ufo")
    results = {
        "similarity_search": store.similarity_search("ufo", k=ALL),
        "with_score": [d for d, _ in store.similarity_search_with_score("ufo", k=ALL)],
        "by_vector": store.similarity_search_by_vector(vector, k=ALL),
        "relevance": [d for d, _ in store.similarity_search_with_relevance_scores("ufo", k=ALL)],
        "mmr": store.max_marginal_relevance_search("ufo", k=5, fetch_k=ALL),
        "mmr_retriever": store.as_retriever(
            search_type="mmr", search_kwargs={"k": 5, "fetch_k": ALL}
        ).invoke("ufo"),
    }
    for name, docs in results.items():
        got = _by_id(docs)
        assert len(got) == 5, name
        assert got["pr"].page_content == f"{PR}\n    now: {UFO}", name
        assert got["pr"].metadata == {
            "topic": "pr",
            "nowline_role": "historical",
            "nowline_by": ["move"],
            "nowline_now": ["move"],
        }, name
        assert got["hosted"].page_content == HOSTED, name
        assert got["hosted"].metadata == {"topic": "hosted"}, name
        assert got["move"].metadata == {"deprecates": ["metalcraftai/ufo"]}, name


def test_memory_added_after_correction_is_annotated(store: NowlineChroma) -> None:
    """A document added later that still names the old string gets the now-line."""
    _seed(store)
    store.add_documents([Document(page_content="Opened issue #12 on metalcraftai/ufo.", id="late")])
    late = _by_id(store.similarity_search("issue", k=ALL))["late"]
    assert late.page_content.endswith(f"\n    now: {UFO}")
    assert late.metadata["nowline_now"] == ["move"]


def test_add_documents_accepts_deprecates(store: NowlineChroma) -> None:
    """A Document whose metadata has ``deprecates`` is stored as a correction and links."""
    store.add_documents([Document(page_content=PR, id="pr")])
    store.add_documents(
        [Document(page_content=UFO, metadata={"deprecates": ["metalcraftai/ufo"]}, id="move")]
    )
    raw = store.nowline.raw.get(ids=["pr", "move"])
    meta = dict(zip(raw["ids"], raw["metadatas"] or [], strict=True))
    assert meta["pr"]["nowline_by"] == ["move"]
    assert meta["move"]["deprecates"] == ["metalcraftai/ufo"]


def test_get_by_ids_returns_stored_documents_untouched(store: NowlineChroma) -> None:
    """``get_by_ids`` returns stored texts without now-lines and the user's metadata."""
    _seed(store)
    docs = _by_id(store.get_by_ids(["pr", "move", "missing"]))
    assert sorted(docs) == ["move", "pr"]
    assert docs["pr"] == Document(id="pr", page_content=PR, metadata={"topic": "pr"})
    assert docs["move"] == Document(
        id="move", page_content=UFO, metadata={"deprecates": ["metalcraftai/ufo"]}
    )
    raw = store.get(ids=["pr"])
    assert raw["documents"] == [PR] and raw["metadatas"] == [{"topic": "pr"}]
    stored = store.nowline.raw.get(ids=["pr"])["metadatas"]
    assert stored is not None and stored[0]["nowline_by"] == ["move"]


def test_delete_of_correction_unlinks(store: NowlineChroma) -> None:
    """Deleting the correction makes its memories current again, in search and in storage."""
    _seed(store)
    store.delete(["move"])
    docs = _by_id(store.similarity_search("ufo", k=ALL))
    assert sorted(docs) == ["clone", "hosted", "new", "pr"]
    assert docs["pr"] == Document(id="pr", page_content=PR, metadata={"topic": "pr"})
    meta = store.get(ids=["pr"])["metadatas"]
    assert meta is not None and "nowline_by" not in meta[0] and "nowline_role" not in meta[0]


def test_retract_through_nowline_property(store: NowlineChroma) -> None:
    """``store.nowline.retract`` removes the now-line and marks the correction retracted."""
    _seed(store)
    store.nowline.retract("move")
    docs = _by_id(store.similarity_search("ufo", k=ALL))
    assert docs["pr"].page_content == PR
    assert docs["move"].metadata == {
        "deprecates": ["metalcraftai/ufo"],
        "nowline_role": "retracted",
    }
    assert docs["move"].page_content.endswith("\n    retracted: " + RETRACTED)


def test_nowline_correct_embeds_with_langchain_embeddings(store: NowlineChroma) -> None:
    """A correction written through ``store.nowline`` uses the store's LangChain embeddings."""
    store.add_texts([PR], ids=["pr"])
    report = store.nowline.correct(UFO, deprecates=["metalcraftai/ufo"], id="move")
    assert report.reached == 1
    got = store.get(ids=["move"], include=["embeddings"])
    expected = DeterministicFakeEmbedding(size=16).embed_documents([UFO])[0]
    assert got["embeddings"] is not None
    assert list(got["embeddings"][0]) == pytest.approx(expected, abs=1e-6)


def test_invalid_correction_is_refused_and_nothing_written(store: NowlineChroma) -> None:
    """A deprecated string absent from the correction's text raises; nothing is stored."""
    store.add_texts([PR], ids=["pr"])
    with pytest.raises(nowline.InvalidCorrection):
        store.add_texts(["UFO moved."], metadatas=[{"deprecates": ["metalcraftai/ufo"]}])
    assert store.nowline.count() == 1


def test_update_document_from_search_stores_no_annotation(store: NowlineChroma) -> None:
    """Writing back a retrieved (annotated) document stores the original text only."""
    _seed(store)
    hit = _by_id(store.similarity_search("ufo", k=ALL))["pr"]
    store.update_document("pr", hit)
    raw = store.get(ids=["pr"])
    assert raw["documents"] == [PR]
    assert raw["metadatas"] is not None and raw["metadatas"][0]["topic"] == "pr"
    assert _by_id(store.similarity_search("ufo", k=ALL))["pr"].page_content.count("now:") == 1


def test_scope_key_keeps_corrections_in_their_scope() -> None:
    """With ``scope_key``, one user's correction never annotates another user's memory."""
    store = NowlineChroma(
        collection_name=f"sc-{uuid.uuid4().hex}",
        embedding_function=DeterministicFakeEmbedding(size=16),
        client=chromadb.EphemeralClient(),
        scope_key="user_id",
    )
    store.add_texts(
        [PR, PR, PR],
        metadatas=[{"user_id": "alice"}, {"user_id": "bob"}, {}],
        ids=["alice-pr", "bob-pr", "nobody-pr"],
    )
    store.add_texts(
        [UFO], metadatas=[{"user_id": "alice", "deprecates": ["metalcraftai/ufo"]}], ids=["c"]
    )
    docs = _by_id(store.similarity_search("ufo", k=ALL))
    assert docs["alice-pr"].page_content == f"{PR}\n    now: {UFO}"
    assert docs["bob-pr"].page_content == PR and "nowline_role" not in docs["bob-pr"].metadata
    assert docs["nobody-pr"].page_content == PR
    bob_only = store.similarity_search("ufo", k=ALL, filter={"user_id": "bob"})
    assert [d.page_content for d in bob_only] == [PR]
    store.delete_collection()


def test_persistent_store_reopens_with_links(tmp_path: Path) -> None:
    """A store built with ``persist_directory`` keeps its links for a later instance."""
    path = str(tmp_path / "store")
    emb = DeterministicFakeEmbedding(size=16)
    first = NowlineChroma("memory", embedding_function=emb, persist_directory=path)
    _seed(first)
    again = NowlineChroma("memory", embedding_function=emb, persist_directory=path)
    docs = _by_id(again.similarity_search("ufo", k=ALL))
    assert docs["pr"].page_content == f"{PR}\n    now: {UFO}"


def test_second_instance_in_process_sees_new_corrections(tmp_path: Path) -> None:
    """Two stores on one persistent collection see each other's corrections."""
    path = str(tmp_path / "store")
    emb = DeterministicFakeEmbedding(size=16)
    writer = NowlineChroma("memory", embedding_function=emb, persist_directory=path)
    reader = NowlineChroma("memory", embedding_function=emb, persist_directory=path)
    _seed(writer)
    docs = _by_id(reader.similarity_search("ufo", k=ALL))
    assert docs["pr"].page_content == f"{PR}\n    now: {UFO}"


def test_annotate_false_keeps_page_content_and_labels_metadata() -> None:
    """With ``annotate=False`` page_content is as stored and the metadata still says why."""
    store = NowlineChroma(
        collection_name=f"na-{uuid.uuid4().hex}",
        embedding_function=DeterministicFakeEmbedding(size=16),
        client=chromadb.EphemeralClient(),
        annotate=False,
    )
    _seed(store)
    pr = _by_id(store.similarity_search("ufo", k=ALL))["pr"]
    assert pr.page_content == PR
    assert pr.metadata["nowline_role"] == "historical" and pr.metadata["nowline_now"] == ["move"]
    store.delete_collection()


def test_from_texts_passes_nowline_options() -> None:
    """``from_texts`` builds a NowlineChroma and forwards nowline's keyword options."""
    store = NowlineChroma.from_texts(
        [PR, UFO],
        embedding=DeterministicFakeEmbedding(size=16),
        metadatas=[{"user_id": "a"}, {"user_id": "a", "deprecates": ["metalcraftai/ufo"]}],
        ids=["pr", "move"],
        client=chromadb.EphemeralClient(),
        collection_name=f"ft-{uuid.uuid4().hex}",
        scope_key="user_id",
    )
    assert isinstance(store, NowlineChroma) and store.nowline.scope_key == "user_id"
    assert _by_id(store.similarity_search("ufo", k=ALL))["pr"].metadata["nowline_now"] == ["move"]
    store.delete_collection()


def test_reset_collection_wraps_the_new_collection(store: NowlineChroma) -> None:
    """After ``reset_collection`` the store is empty and still annotates new writes."""
    _seed(store)
    before = store.nowline
    store.reset_collection()
    assert store.nowline is not before and store.nowline.count() == 0
    _seed(store)
    assert _by_id(store.similarity_search("ufo", k=ALL))["pr"].page_content.endswith(UFO)


def test_deleted_collection_raises_chromas_error() -> None:
    """Using a store after ``delete_collection`` raises Chroma's own error."""
    store = NowlineChroma(
        collection_name=f"del-{uuid.uuid4().hex}", client=chromadb.EphemeralClient()
    )
    store.delete_collection()
    with pytest.raises(ValueError, match="reset_collection"):
        store.similarity_search("ufo")


def test_deleted_collection_leaves_no_metadata_behind() -> None:
    """A collection created after ``delete_collection`` inherits no ``deprecates`` or links."""
    client = chromadb.EphemeralClient()
    emb = DeterministicFakeEmbedding(size=16)
    old = NowlineChroma(f"old-{uuid.uuid4().hex}", embedding_function=emb, client=client)
    _seed(old)
    old.delete_collection()
    new = NowlineChroma(f"new-{uuid.uuid4().hex}", embedding_function=emb, client=client)
    new.add_texts([PR, HOSTED, NEW, CLONE, UFO], ids=["a", "b", "c", "d", "e"])
    metas = new.nowline.raw.get()["metadatas"] or []
    assert all(set(m) == {"nowline_time"} for m in metas), metas
    assert new.get()["metadatas"] == [None] * 5
    assert all(d.page_content.count("now:") == 0 for d in new.similarity_search("ufo", k=ALL))
    new.delete_collection()


def test_fork_returns_a_wrapped_store(
    store: NowlineChroma, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fork`` (hosted Chroma only) returns a NowlineChroma with the same options."""
    _seed(store)

    def fake_fork(self: chromadb.Collection, new_name: str) -> chromadb.Collection:
        """Copy the records into a new collection, as a hosted fork would."""
        got = self.get(include=["documents", "metadatas", "embeddings"])
        copy = chromadb.EphemeralClient().create_collection(new_name)
        copy.add(
            ids=got["ids"],
            documents=got["documents"],
            metadatas=got["metadatas"],
            embeddings=got["embeddings"],
        )
        return copy

    monkeypatch.setattr(chromadb.Collection, "fork", fake_fork)
    forked = store.fork(f"fork-{uuid.uuid4().hex}")
    assert isinstance(forked, NowlineChroma) and forked._client is store._client
    assert _by_id(forked.similarity_search("ufo", k=ALL))["pr"].page_content.endswith(UFO)
    forked.delete_collection()


def test_hybrid_search_is_refused(store: NowlineChroma) -> None:
    """``hybrid_search`` raises rather than return stale hits without now-lines."""
    with pytest.raises(NotImplementedError, match="similarity_search"):
        store.hybrid_search(chromadb.Search())


def test_invalid_nowline_option_fails_at_construction() -> None:
    """A bad nowline option raises nowline's InvalidInput when the store is built."""
    with pytest.raises(nowline.InvalidInput):
        NowlineChroma(
            collection_name=f"bad-{uuid.uuid4().hex}",
            client=chromadb.EphemeralClient(),
            scope_key="nowline_role",
        )


def test_constructor_mirrors_chroma() -> None:
    """Every ``Chroma.__init__`` parameter exists with the same kind and default."""
    ours = inspect.signature(NowlineChroma.__init__).parameters
    theirs = inspect.signature(Chroma.__init__).parameters
    for name, param in theirs.items():
        assert name in ours, name
        assert (ours[name].kind, ours[name].default) == (param.kind, param.default), name
    extras = [p for n, p in ours.items() if n not in theirs]
    assert {p.name for p in extras} == {"scope_key", "annotate", "max_reach", "refresh_seconds"}
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in extras)


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without langchain-chroma, importing nowline.surfaces.langchain names the extra to install."""
    monkeypatch.setitem(sys.modules, "langchain_chroma", None)
    monkeypatch.delitem(sys.modules, "nowline.surfaces.langchain", raising=False)
    with pytest.raises(ImportError, match=r"pip install -c constraints.txt -e '\.\[langchain\]'"):
        importlib.import_module("nowline.surfaces.langchain")


def test_importing_nowline_does_not_import_langchain() -> None:
    """``import nowline`` loads no LangChain module."""
    code = (
        "import sys, nowline; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0].startswith('langchain') "
        "or m == 'nowline.surfaces.langchain'); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
