"""``deprecates`` and ``about`` given as a JSON array string are read as the list (DESIGN §13)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chromadb
import pytest

import nowline
from nowline._rules.records import json_string_list, stored_phrases
from nowline._rules.validate import parse_about, parse_deprecates
from tests.conftest import FakeEmbedding

STALE = "metalcraftai/ufo PR #1705 passed review."
SIBLING = "metalcraftai/ufo-hosted deploys on Fridays."
FIX = "UFO core moved from metalcraftai/ufo to ufo-ai/ufo."


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('["metalcraftai/ufo"]', ["metalcraftai/ufo"]),
        (' ["a/b", "c/d"] ', ["a/b", "c/d"]),
        ("[]", []),
        ("metalcraftai/ufo", None),
        ("[draft] metalcraftai/ufo", None),
        ("[1, 2]", None),
        ('["a", 1]', None),
        ('{"a": 1}', None),
        (["a"], None),
        (None, None),
    ],
)
def test_json_string_list(value: object, expected: list[str] | None) -> None:
    """Only a JSON array string holding strings alone is read as a list."""
    assert json_string_list(value) == expected


def test_the_strict_parsers_read_a_json_array_string() -> None:
    """parse_deprecates and parse_about take a JSON array string as the list it holds."""
    assert parse_deprecates('["metalcraftai/ufo", " ufo-cli "]') == ("metalcraftai/ufo", "ufo-cli")
    assert parse_about('["UFO core"]') == ("UFO core",)


def test_a_plain_string_stays_one_string() -> None:
    """A string that is not a JSON array of strings is one deprecated string, as before."""
    assert parse_deprecates("metalcraftai/ufo") == ("metalcraftai/ufo",)
    assert parse_deprecates("[draft] metalcraftai/ufo") == ("[draft] metalcraftai/ufo",)
    assert parse_about("[1, 2]") == ("[1, 2]",)


def test_an_empty_json_array_is_refused_as_an_empty_list() -> None:
    """'[]' is an empty deprecates list, refused as such."""
    with pytest.raises(nowline.InvalidCorrection, match="empty"):
        parse_deprecates("[]")


def test_the_lenient_reader_reads_a_json_array_string() -> None:
    """stored_phrases reads a stored JSON array string as its strings."""
    assert stored_phrases('["metalcraftai/ufo", ""]') == ("metalcraftai/ufo",)
    assert stored_phrases("metalcraftai/ufo") == ("metalcraftai/ufo",)
    assert stored_phrases('["a", 1]') == ('["a", 1]',)


def _documents(collection: Any) -> dict[str, str]:
    """Return id -> document of a query for the stale memory."""
    found = collection.query(query_texts=["ufo PR review"], n_results=3)
    return dict(zip(found["ids"][0], found["documents"][0], strict=True))


def test_a_flattened_correction_reaches_the_stale_memory(tmp_path: Path) -> None:
    """A correction whose deprecates arrives as '["metalcraftai/ufo"]' annotates the stale hit."""
    client = nowline.wrap(chromadb.PersistentClient(path=str(tmp_path / "s")))
    memory = client.create_collection("agent", embedding_function=FakeEmbedding())
    memory.add(ids=["pr", "hosted"], documents=[STALE, SIBLING])
    memory.add(ids=["fix"], documents=[FIX], metadatas=[{"deprecates": '["metalcraftai/ufo"]'}])
    documents = _documents(memory)
    assert documents["pr"].endswith(f"now: {FIX}")
    assert documents["hosted"] == SIBLING
    stored = memory.get(ids=["fix"])["metadatas"]
    assert stored is not None and stored[0]["deprecates"] == ["metalcraftai/ufo"]


def test_a_flattened_correction_written_around_nowline_is_read(tmp_path: Path) -> None:
    """A JSON array string stored by plain chromadb is read as the list once wrapped."""
    raw = chromadb.PersistentClient(path=str(tmp_path / "s"))
    plain = raw.create_collection("agent", embedding_function=FakeEmbedding())
    plain.add(
        ids=["pr", "hosted", "fix"],
        documents=[STALE, SIBLING, FIX],
        metadatas=[{"n": 1}, {"n": 2}, {"deprecates": '["metalcraftai/ufo"]'}],
    )
    documents = _documents(nowline.wrap(raw.get_collection("agent")))
    assert documents["pr"].endswith(f"now: {FIX}")
    assert documents["hosted"] == SIBLING
