"""The store opener (``nowline.stores``): one place that opens a folder or a server.

A missing store is never created unless asked, a file is no store, the collection errors are
typed, ``~`` is expanded, and no surface keeps an opener of its own.
"""

from __future__ import annotations

from pathlib import Path

import chromadb
import pytest

import nowline
from nowline.stores import Store, open_collection
from tests.cli.conftest import invoke_json
from tests.conftest import FakeEmbedding


def test_opening_a_missing_store_creates_nothing(tmp_path: Path) -> None:
    """StoreNotFound (a ValueError) is raised and no folder is made; create=True makes one."""
    target = tmp_path / "absent"
    with pytest.raises(nowline.StoreNotFound) as caught:
        open_collection(str(target))
    assert isinstance(caught.value, ValueError) and caught.value.path == str(target)
    assert not target.exists()
    made = open_collection(str(target), create=True)
    assert made.name == "memory" and (target / "chroma.sqlite3").is_file()


def test_a_file_is_not_a_store(tmp_path: Path) -> None:
    """A path that is a file raises StoreNotFound, even with create=True."""
    afile = tmp_path / "file"
    afile.write_text("x", encoding="utf-8")
    with pytest.raises(nowline.StoreNotFound):
        open_collection(str(afile), create=True)


def test_collection_errors_are_typed(tmp_path: Path) -> None:
    """No such collection, none at all and several unnamed each raise their own ValueError."""
    path = str(tmp_path / "s")
    client = chromadb.PersistentClient(path=path)
    with pytest.raises(nowline.CollectionNotFound) as empty:
        open_collection(path)
    assert empty.value.name is None and empty.value.names == []
    client.create_collection("one", embedding_function=FakeEmbedding())
    client.create_collection("two", embedding_function=FakeEmbedding())
    with pytest.raises(nowline.AmbiguousCollection) as several:
        open_collection(path)
    assert several.value.names == ["one", "two"]
    with pytest.raises(nowline.CollectionNotFound) as missing:
        open_collection(path, "three")
    assert missing.value.names == ["one", "two"] and isinstance(missing.value, ValueError)
    assert open_collection(path, "two").name == "two"


def test_a_tilde_path_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Store("~/x") is the folder under HOME, for the opener and every CLI command."""
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Store("~/mem").path == str(tmp_path / "mem")
    open_collection("~/mem", create=True).remember("Kept under HOME.")
    assert invoke_json("stats", "~/mem")["records"] == 1
    assert not Path("~").exists()


def test_the_store_opener_is_the_only_one() -> None:
    """The memory tools keep no opener of their own: nowline.stores is the one opener."""
    from nowline.surfaces import tools

    assert not hasattr(tools, "connect") and not hasattr(tools, "open_collection")
    assert nowline.open_collection is open_collection
