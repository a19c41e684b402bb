"""Bad input on every public method: a clear nowline or chroma error, and an unchanged store.

``tests/core/test_validate.py`` covers malformed ``deprecates`` and the first bad calls;
this matrix adds wrong types on every method, empty and huge values, NaN and out-of-range
times, unknown and duplicate ids, 1 MB documents, separator-only strings, strings that would
reach every record, and lone surrogates everywhere text goes in.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import chromadb
import chromadb.errors
import pytest

import nowline
from tests.conftest import FakeEmbedding, snapshot
from tests.reliability.invariants import links_match_reference, recall_matches_reference

FIX = "Moved from acme/app to acme/web."


def _seed(col: nowline.Collection) -> nowline.Collection:
    """Store two memories and one correction in ``col``."""
    col.remember("deploy acme/app now", id="m")
    col.remember("acme/app-hosted runs on Fridays", id="hosted")
    col.correct(FIX, deprecates=["acme/app"], id="c")
    return col


@pytest.fixture
def store(memory: nowline.Collection) -> nowline.Collection:
    """Return a store with two memories and one correction."""
    return _seed(memory)


@pytest.fixture(scope="module")
def matrix_store(module_client: chromadb.api.ClientAPI) -> nowline.Collection:
    """Return one seeded store for the whole matrix: each bad call must leave it unchanged."""
    raw = module_client.create_collection("matrix", embedding_function=FakeEmbedding())
    return _seed(nowline.wrap(raw))


@dataclass(frozen=True)
class Bad:
    """One bad call: method, arguments, the error expected and a regex of its message."""

    method: str
    kwargs: dict[str, Any]
    error: type[BaseException] | tuple[type[BaseException], ...]
    message: str
    args: tuple[Any, ...] = field(default=())


NAN, INF = math.nan, math.inf
CHROMA = (ValueError, TypeError, chromadb.errors.ChromaError)  # chroma's own errors
SURROGATE = "acme\ud800"
II = nowline.InvalidInput
IC = nowline.InvalidCorrection

BAD: dict[str, Bad] = {
    # remember: wrong types
    "remember-text-none": Bad("remember", {"text": None}, II, "Expected text"),
    "remember-text-bytes": Bad("remember", {"text": b"acme/app"}, II, "Expected text"),
    "remember-text-list": Bad("remember", {"text": ["a"]}, II, "Expected text"),
    "remember-id-list": Bad("remember", {"text": "a", "id": ["a"]}, II, "non-empty str"),
    "remember-metadata-str": Bad("remember", {"text": "a", "metadata": "k=v"}, II, "mapping"),
    "remember-metadata-pairs": Bad(
        "remember", {"text": "a", "metadata": [("k", "v")]}, II, "mapping"
    ),
    "remember-metadata-int-key": Bad("remember", {"text": "a", "metadata": {1: "v"}}, II, "str"),
    "remember-metadata-nested": Bad(
        "remember", {"text": "a", "metadata": {"k": {"x": 1}}}, CHROMA, "metadata value"
    ),
    "remember-metadata-empty-list": Bad(
        "remember", {"text": "a", "metadata": {"k": []}}, CHROMA, "non-empty"
    ),
    "remember-metadata-empty-key": Bad(
        "remember", {"text": "a", "metadata": {"": 1}}, CHROMA, "metadata"
    ),
    "remember-metadata-nan": Bad("remember", {"text": "a", "metadata": {"k": NAN}}, II, "finite"),
    "remember-metadata-neg-inf": Bad(
        "remember", {"text": "a", "metadata": {"k": -INF}}, II, "finite"
    ),
    # remember: times
    "observed-nan": Bad("remember", {"text": "a", "observed_at": NAN}, II, "usable time"),
    "observed-neg-inf": Bad("remember", {"text": "a", "observed_at": -INF}, II, "usable time"),
    "observed-nan-text": Bad("remember", {"text": "a", "observed_at": "nan"}, II, "usable time"),
    "observed-inf-text": Bad("remember", {"text": "a", "observed_at": "-inf"}, II, "usable time"),
    "observed-huge-negative": Bad(
        "remember", {"text": "a", "observed_at": -1e300}, II, "usable time"
    ),
    "observed-year-1": Bad(
        "remember", {"text": "a", "observed_at": "0001-01-01T00:00:00Z"}, II, "usable time"
    ),
    "observed-year-9999-end": Bad(
        "remember", {"text": "a", "observed_at": "9999-12-31T23:59:59Z"}, II, "usable time"
    ),
    "observed-month-13": Bad("remember", {"text": "a", "observed_at": "2024-13-45"}, II, "ISO"),
    "observed-empty": Bad("remember", {"text": "a", "observed_at": ""}, II, "ISO"),
    "observed-bool": Bad("remember", {"text": "a", "observed_at": True}, II, "bool"),
    "observed-object": Bad("remember", {"text": "a", "observed_at": object()}, II, "ISO 8601"),
    "observed-list": Bad("remember", {"text": "a", "observed_at": [2024]}, II, "ISO 8601"),
    "observed-in-metadata-nan": Bad(
        "remember", {"text": "a", "metadata": {"observed_at": "NaN"}}, II, "usable time"
    ),
    # remember: lone surrogates
    "remember-text-surrogate": Bad("remember", {"text": SURROGATE}, II, "surrogate"),
    "remember-metadata-value-surrogate": Bad(
        "remember", {"text": "a", "metadata": {"k": SURROGATE}}, II, "surrogate"
    ),
    # correct
    "correct-text-none": Bad("correct", {"text": None, "deprecates": ["acme/app"]}, II, "text"),
    "correct-text-empty": Bad(
        "correct",
        {"text": "", "deprecates": ["acme/app"], "allow_absent": True},
        IC,
        "needs a text",
    ),
    "correct-text-surrogate": Bad(
        "correct", {"text": "acme/app " + SURROGATE, "deprecates": ["acme/app"]}, II, "surrogate"
    ),
    "correct-deprecates-none": Bad("correct", {"text": FIX, "deprecates": None}, IC, "deprecates"),
    "correct-deprecates-bytes": Bad(
        "correct", {"text": FIX, "deprecates": b"acme/app"}, IC, "list of strings"
    ),
    "correct-deprecates-set": Bad(
        "correct", {"text": FIX, "deprecates": {"acme/app"}}, IC, "list of strings"
    ),
    "correct-deprecates-dots": Bad(
        "correct", {"text": "... x", "deprecates": ["..."]}, IC, "no letter or digit"
    ),
    "correct-deprecates-underscore": Bad(
        "correct", {"text": "_ x", "deprecates": ["_"]}, IC, "no letter or digit"
    ),
    "correct-deprecates-dashes": Bad(
        "correct", {"text": "-_- x", "deprecates": ["-_-"]}, IC, "no letter or digit"
    ),
    "correct-deprecates-zero-width": Bad(
        "correct", {"text": "x\u200b", "deprecates": ["\u200b\u200b"]}, IC, "no letter or digit"
    ),
    "correct-deprecates-ends-zero-width": Bad(
        "correct", {"text": FIX, "deprecates": ["acme/app\u200b"]}, IC, "ZERO WIDTH SPACE"
    ),
    "correct-deprecates-begins-bom": Bad(
        "correct", {"text": FIX, "deprecates": ["\ufeffacme/app"]}, IC, "begins with an invisible"
    ),
    "correct-deprecates-ends-nul": Bad(
        "correct", {"text": FIX, "deprecates": ["acme/app\x00"]}, IC, "invisible character"
    ),
    "correct-about-ends-word-joiner": Bad(
        "correct",
        {"text": FIX, "deprecates": ["acme/app"], "about": ["Acme\u2060"]},
        IC,
        "invisible character",
    ),
    "correct-replaced-by-ends-rtl-override": Bad(
        "correct",
        {"text": FIX, "deprecates": ["acme/app"], "replaced_by": ["acme/web\u202e"]},
        IC,
        "invisible character",
    ),
    "correct-deprecates-ideographic-space": Bad(
        "correct", {"text": "x", "deprecates": ["\u3000"]}, IC, "empty or whitespace"
    ),
    "correct-deprecates-nbsp": Bad(
        "correct", {"text": "x", "deprecates": ["\u00a0\t\n"]}, IC, "empty or whitespace"
    ),
    "correct-deprecates-punctuation-soup": Bad(
        "correct", {"text": "x", "deprecates": ["/:.,;!?()[]{}"]}, IC, "no letter or digit"
    ),
    "correct-max-reach-negative": Bad(
        "correct", {"text": FIX, "deprecates": ["acme/app"], "max_reach": -1}, II, ">= 0"
    ),
    "correct-max-reach-nan": Bad(
        "correct", {"text": FIX, "deprecates": ["acme/app"], "max_reach": NAN}, II, "share"
    ),
    "correct-max-reach-zero": Bad(
        "correct", {"text": FIX, "deprecates": ["acme/app"], "max_reach": 0.0}, II, "share"
    ),
    "correct-max-reach-bool": Bad(
        "correct", {"text": FIX, "deprecates": ["acme/app"], "max_reach": True}, II, "share"
    ),
    "correct-max-reach-text": Bad(
        "correct", {"text": FIX, "deprecates": ["acme/app"], "max_reach": "all"}, II, "share"
    ),
    "correct-observed-nan": Bad(
        "correct", {"text": FIX, "deprecates": ["acme/app"], "observed_at": NAN}, II, "usable"
    ),
    "correct-edit-drops-its-string": Bad(
        "update", {"ids": ["c"], "documents": ["Moved elsewhere."]}, IC, "does not mention"
    ),
    # recall
    "recall-text-none": Bad("recall", {"text": None}, II, "Expected text"),
    "recall-text-surrogate": Bad("recall", {"text": SURROGATE}, II, "surrogate"),
    "recall-n-negative": Bad("recall", {"text": "a", "n_results": -1}, II, "positive"),
    "recall-n-float": Bad("recall", {"text": "a", "n_results": 1.5}, II, "positive"),
    "recall-n-text": Bad("recall", {"text": "a", "n_results": "5"}, II, "positive"),
    "recall-n-bool": Bad("recall", {"text": "a", "n_results": True}, II, "positive"),
    "recall-as-of-nan": Bad("recall", {"text": "a", "as_of": NAN}, II, "usable time"),
    "recall-as-of-inf": Bad("recall", {"text": "a", "as_of": INF}, II, "usable time"),
    "recall-as-of-bool": Bad("recall", {"text": "a", "as_of": False}, II, "bool"),
    "recall-where-operator": Bad("recall", {"text": "a", "where": {"$bad": 1}}, CHROMA, "where"),
    "recall-where-document-type": Bad(
        "recall", {"text": "a", "where_document": {"$contains": 5}}, CHROMA, "str"
    ),
    # preview, retract, check, annotate, require_current
    "preview-none": Bad(
        "preview", {"deprecates": None}, IC, "needs deprecates, or the correction.s text"
    ),
    "preview-separators": Bad("preview", {"deprecates": ["--"]}, IC, "no letter or digit"),
    "preview-surrogate": Bad("preview", {"deprecates": [SURROGATE]}, IC, "surrogate"),
    "retract-none": Bad("retract", {"correction_id": None}, II, "str"),
    "retract-list": Bad("retract", {"correction_id": ["c"]}, II, "str"),
    "check-none": Bad("check", {"text": None}, II, "Expected text"),
    "check-surrogate": Bad("check", {"text": SURROGATE}, II, "surrogate"),
    "check-metadata-str": Bad("check", {"text": "a", "metadata": "bob"}, II, "mapping"),
    "annotate-int": Bad("annotate", {"text": 5}, II, "Expected text"),
    "require-current-int": Bad("require_current", {}, II, "Expected text", args=(5,)),
    # chromadb mirror
    "add-ids-none": Bad("add", {"ids": None, "documents": ["a"]}, CHROMA, "IDs"),
    "add-empty-id": Bad("add", {"ids": [""], "documents": ["a"]}, CHROMA, "ID"),
    "add-no-ids": Bad("add", {"ids": [], "documents": []}, CHROMA, "(?i)non-empty"),
    "add-embedding-dimension": Bad(
        "add", {"ids": ["e"], "embeddings": [[1.0, 2.0]], "documents": ["a"]}, CHROMA, "dim"
    ),
    "add-embedding-nan": Bad(
        "add", {"ids": ["e"], "embeddings": [[NAN] * 32], "documents": ["a"]}, CHROMA, "NaN"
    ),
    "add-deprecates-bool": Bad(
        "add", {"ids": ["k"], "documents": ["a"], "metadatas": [{"deprecates": True}]}, IC, "bool"
    ),
    "upsert-duplicate-ids": Bad(
        "upsert",
        {"ids": ["d", "d"], "documents": ["a", "b"]},
        chromadb.errors.DuplicateIDError,
        "unique",
    ),
    "update-duplicate-ids": Bad(
        "update",
        {"ids": ["m", "m"], "documents": ["a", "b"]},
        chromadb.errors.DuplicateIDError,
        "unique",
    ),
    "delete-duplicate-ids": Bad(
        "delete", {"ids": ["m", "m"]}, chromadb.errors.DuplicateIDError, "unique"
    ),
    "delete-nothing": Bad("delete", {}, CHROMA, "At least one"),
    "upsert-surrogate-document": Bad(
        "upsert", {"ids": ["u"], "documents": [SURROGATE]}, CHROMA, "surrogate"
    ),
    "get-int-ids": Bad("get", {"ids": [5]}, CHROMA, "str"),
    "get-bad-where": Bad("get", {"where": {"a": {"$bad": 1}}}, CHROMA, "operator"),
    "query-zero-results": Bad("query", {"query_texts": ["a"], "n_results": 0}, CHROMA, "zero"),
    "modify-bad-name": Bad("modify", {"name": "a"}, CHROMA, "name"),
}

# Cases that were core bugs when this suite was written (the reason says what was wrong).
FIXED_BUGS: dict[str, tuple[Bad, str]] = {
    "remember-id-surrogate": (
        Bad("remember", {"text": "a", "id": "id\ud800"}, II, "surrogate"),
        "core bug: a lone surrogate in an id reaches chromadb and fails with a bare "
        "UnicodeEncodeError ('utf-8' codec can't encode...) instead of InvalidInput",
    ),
    "remember-metadata-key-surrogate": (
        Bad("remember", {"text": "a", "metadata": {SURROGATE: 1}}, II, "surrogate"),
        "core bug: _clean_metadata checks values but not keys for lone surrogates; chromadb "
        "fails with a bare UnicodeEncodeError",
    ),
    "preview-metadata-str": (
        Bad("preview", {"deprecates": ["acme/app"], "metadata": "bob"}, II, "mapping"),
        "core bug: preview() does dict(metadata) unchecked; a str gives 'dictionary update "
        "sequence element #0 has length 1; 2 is required'",
    ),
    "correct-existing-id": (
        Bad("correct", {"text": FIX, "deprecates": ["acme/app"], "id": "m"}, II, "exists"),
        "core bug: correct(id=<existing id>) writes nothing (chromadb's add ignores the id) "
        "and still returns a CorrectionReport as if the correction were stored",
    ),
    "remember-existing-id": (
        Bad("remember", {"text": "other text", "id": "m"}, II, "exists"),
        "core bug: remember(id=<existing id>) writes nothing and returns the id as if stored",
    ),
}


def _call(col: nowline.Collection, bad: Bad) -> Any:
    """Call ``bad.method`` on ``col``."""
    return getattr(col, bad.method)(*bad.args, **bad.kwargs)


def _params() -> list[Any]:
    """Return every bad call as a pytest param, with the cases that once were core bugs."""
    out = [pytest.param(bad, id=name) for name, bad in BAD.items()]
    out += [pytest.param(bad, id=name) for name, (bad, _) in FIXED_BUGS.items()]
    return out


@pytest.mark.parametrize("bad", _params())
def test_bad_call_raises_a_clear_error_and_changes_nothing(
    matrix_store: nowline.Collection, bad: Bad
) -> None:
    """Each bad call raises the expected error naming the problem; the store is unchanged."""
    store = matrix_store
    before = snapshot(store)
    with pytest.raises(bad.error, match=bad.message) as info:
        _call(store, bad)
    assert type(info.value) is not AssertionError
    if isinstance(info.value, nowline.NowlineError):
        assert isinstance(info.value, (ValueError, KeyError, RuntimeError))
    assert len(str(info.value)) > 10, "the message must say what is wrong"
    assert snapshot(store) == before
    links_match_reference(store)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"scope_key": ""}, "scope_key"),
        ({"scope_key": 5}, "scope_key"),
        ({"scope_key": "nowline_user"}, "reserved"),
        ({"scope_key": "deprecates"}, "reserved"),
        ({"refresh_seconds": -1}, "refresh_seconds"),
        ({"refresh_seconds": NAN}, "refresh_seconds"),
        ({"refresh_seconds": "1"}, "refresh_seconds"),
        ({"max_reach": 1.5}, "share"),
        ({"max_reach": -3}, ">= 0"),
    ],
)
def test_bad_wrap_options_raise(
    store: nowline.Collection, options: dict[str, Any], message: str
) -> None:
    """wrap() with an unusable option raises InvalidInput and reads or writes nothing."""
    before = snapshot(store)
    with pytest.raises(nowline.InvalidInput, match=message):
        nowline.wrap(store.raw, **options)
    assert snapshot(store) == before


def test_unknown_ids_behave_as_chromadb(store: nowline.Collection) -> None:
    """update() and delete() of unknown ids do what chromadb does: nothing, and no error."""
    before = snapshot(store)
    store.update(ids=["nope"], documents=["acme/app elsewhere"])
    store.update(ids=["nope"], metadatas=[{"deprecates": ["acme/app"]}])
    store.delete(ids=["nope"])
    assert store.get(ids=["nope"])["ids"] == []
    assert snapshot(store) == before
    with pytest.raises(nowline.UnknownRecord, match="No record"):
        store.retract("nope")


def test_an_add_of_an_existing_correction_id_changes_nothing(store: nowline.Collection) -> None:
    """add() of an existing id is ignored as chromadb ignores it, corrections included."""
    before = snapshot(store)
    store.add(
        ids=["c"], documents=["Moved from acme/web to x/y."], metadatas=[{"deprecates": "acme/web"}]
    )
    store.add(
        ids=["m"], documents=["Moved from acme/web to x/y."], metadatas=[{"deprecates": "acme/web"}]
    )
    assert snapshot(store) == before
    recall_matches_reference(store)


def test_strings_that_would_reach_everything_are_refused_on_every_path(
    memory: nowline.Collection,
) -> None:
    """A correction naming a string in every record is refused via correct, add, update, upsert.

    Generic strings are refused on every path too, before their reach is even counted.
    """
    n = 300
    memory.add(
        ids=[f"r{i}" for i in range(n)],
        documents=[f"note {i} about the acme/memory store" for i in range(n)],
    )
    before = snapshot(memory)
    text = "the acme/memory store is now called acme/recall"
    old = ["acme/memory"]
    attempts = [
        lambda: memory.correct(text, deprecates=old),
        lambda: memory.correct(text, deprecates=["acme/recall-x", *old], allow_absent=True),
        lambda: memory.add(ids=["x"], documents=[text], metadatas=[{"deprecates": old}]),
        lambda: memory.upsert(ids=["x"], documents=[text], metadatas=[{"deprecates": old}]),
        lambda: memory.update(ids=["r0"], documents=[text], metadatas=[{"deprecates": old}]),
    ]
    for attempt in attempts:
        with pytest.raises(nowline.CorrectionTooBroad, match=rf"would reach \d+ of {n}") as info:
            attempt()
        assert info.value.reach >= n - 1 and info.value.limit == 100
        assert snapshot(memory) == before
    assert len(memory.preview(old)) == n  # preview reports it and writes nothing
    generic = [
        lambda: memory.correct("the memory is now called recall", deprecates=["memory"]),
        lambda: memory.add(
            ids=["y"], documents=["memory moved"], metadatas=[{"deprecates": "memory"}]
        ),
        lambda: memory.upsert(
            ids=["y"], documents=["the 2018 plan"], metadatas=[{"deprecates": "2018"}]
        ),
    ]
    for attempt in generic:
        with pytest.raises(nowline.GenericString, match="about=") as refused:
            attempt()
        assert isinstance(refused.value, ValueError)
    assert snapshot(memory) == before


def test_one_megabyte_documents_are_stored_linked_and_checked(memory: nowline.Collection) -> None:
    """A 1 MB memory is stored exactly, linked by a correction, recalled and checked quickly."""
    big = ("filler words " * 80_000)[:1_000_000] + " see acme/app"
    memory.remember(big, id="big")
    assert memory.get(ids=["big"])["documents"] == [big]
    report = memory.correct(FIX, deprecates=["acme/app"], id="c")
    assert report.reached == 1
    start = time.perf_counter()
    assert [t.correction.id for t in memory.check(big)] == ["c"]
    assert time.perf_counter() - start < 2.0
    assert recall_matches_reference(memory)["big"] == ("historical", ("c",))
    links_match_reference(memory)


def test_one_megabyte_correction_and_huge_n_results(memory: nowline.Collection) -> None:
    """A 1 MB correction text renders on one now-line; n_results far above count is fine."""
    memory.remember("deploy acme/app", id="m")
    text = "Moved from acme/app to acme/web.\n" + "detail " * 150_000
    memory.correct(text, deprecates=["acme/app"], id="c")
    recall = memory.recall("deploy", n_results=10**9)
    assert len(recall.hits) == 2
    block = recall.render()
    assert block.count("\n    now: ") == 1 and len(block) > 1_000_000


def test_lone_surrogates_never_reach_the_store(store: nowline.Collection) -> None:
    """Every text argument with a lone surrogate is refused and nothing is written.

    nowline's own checks name the surrogate; the chromadb verbs fail as chromadb fails on
    the same input (its binding refuses the text), and the store is unchanged either way.
    """
    before = snapshot(store)
    ours = [
        lambda: store.add(ids=["s"], documents=["a"], metadatas=[{"deprecates": [SURROGATE]}]),
        lambda: store.correct("x " + SURROGATE, deprecates=[SURROGATE], allow_absent=True),
        lambda: store.remember("deploy " + SURROGATE),
    ]
    for call in ours:
        with pytest.raises(ValueError, match="surrogate"):
            call()
    chromas = [
        lambda: store.add(ids=["s"], documents=[SURROGATE]),
        lambda: store.update(ids=["m"], documents=["deploy " + SURROGATE]),
        lambda: store.upsert(ids=["m"], documents=["a"], metadatas=[{"k": SURROGATE}]),
    ]
    for call in chromas:
        with pytest.raises((ValueError, TypeError)):
            call()
    assert snapshot(store) == before


def test_the_collections_max_reach_applies_to_correct(memory: nowline.Collection) -> None:
    """wrap(max_reach=None) lets correct() reach the whole store, as it lets add()."""
    n = 150
    memory.add(
        ids=[f"r{i}" for i in range(n)], documents=[f"use the acme/api {i}" for i in range(n)]
    )
    relaxed = nowline.wrap(memory.raw, max_reach=None)
    relaxed.add(
        ids=["x"], documents=["The acme/api is v2."], metadatas=[{"deprecates": ["acme/api"]}]
    )
    assert relaxed.correct("The acme/api is v3.", deprecates=["acme/api"], id="y").reached == n + 1
