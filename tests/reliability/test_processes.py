"""One writer process per local store (the README's "Reliability"): the second writer is refused."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import chromadb
import numpy as np
import pytest

import nowline

WRITER = textwrap.dedent(
    """
    import sys, time
    import chromadb, numpy as np, nowline
    col = nowline.wrap(chromadb.PersistentClient(path=sys.argv[1]).get_or_create_collection(
        "shared", embedding_function=None), embedding_function=nowline.embedding_function())
    rng = np.random.default_rng(int(sys.argv[2]))
    try:
        for i in range(int(sys.argv[3])):
            ids = [f"{sys.argv[2]}-{i}-{j}" for j in range(20)]
            col.add(ids=ids, embeddings=rng.standard_normal((20, 8)).astype("float32"),
                    documents=[f"memory {x}" for x in ids])
            if i == 0:
                print("writing", flush=True)
            time.sleep(0.05)
    except nowline.StoreBusy as exc:
        print("busy:", exc, flush=True)
        sys.exit(3)
    print("done", flush=True)
    """
)


def _start(path: str, seed: int, rounds: int) -> subprocess.Popen[str]:
    """Start a writer process."""
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, path, str(seed), str(rounds)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_second_writer_process_is_refused_and_store_stays_healthy(store_path: str) -> None:
    """Two processes writing to one path: one is refused with the remedy; the store is intact."""
    first = _start(store_path, 1, 40)
    assert first.stdout is not None and first.stdout.readline().strip() == "writing"
    second = _start(store_path, 2, 5)
    out, err = second.communicate(timeout=120)
    assert second.returncode == 3, err
    assert "chroma run" in out and "HttpClient" in out
    out1, err1 = first.communicate(timeout=120)
    assert first.returncode == 0 and "done" in out1, err1

    col = chromadb.PersistentClient(path=store_path).get_collection("shared")
    assert col.count() == 40 * 20
    got = col.get(include=["embeddings"])
    assert len(got["ids"]) == 800 and got["embeddings"] is not None
    vectors = np.asarray(got["embeddings"])
    assert vectors.shape == (800, 8) and np.isfinite(vectors).all()
    sample = list(range(0, 800, 40))
    res = col.query(query_embeddings=vectors[sample], n_results=1, include=[])
    assert [r[0] for r in res["ids"]] == [got["ids"][i] for i in sample]


def test_lock_is_released_when_the_writer_exits(store_path: str) -> None:
    """After the writer process ends, another process can write."""
    first = _start(store_path, 1, 1)
    first.communicate(timeout=120)
    assert first.returncode == 0
    col = nowline.wrap(
        chromadb.PersistentClient(path=store_path).get_collection("shared"),
        embedding_function=nowline.embedding_function(),
    )
    col.add(ids=["x"], embeddings=[[0.5] * 8], documents=["x"])
    assert col.count() == 21


def test_same_process_may_open_many_wrappers(store_path: str) -> None:
    """Several wrappers on one path in one process share the lock."""
    client = chromadb.PersistentClient(path=store_path)
    a = nowline.wrap(
        client.get_or_create_collection("col-a", embedding_function=None),
        embedding_function=nowline.embedding_function(),
    )
    b = nowline.wrap(
        client.get_or_create_collection("col-b", embedding_function=None),
        embedding_function=nowline.embedding_function(),
    )
    a.add(ids=["1"], embeddings=[[1.0, 0.0]], documents=["one"])
    b.add(ids=["1"], embeddings=[[1.0, 0.0]], documents=["one"])
    assert a.count() == b.count() == 1


@pytest.mark.parametrize("kind", ["StoreBusy"])
def test_store_busy_is_a_runtime_error(kind: str) -> None:
    """StoreBusy is a NowlineError and a RuntimeError."""
    err = getattr(nowline, kind)
    assert issubclass(err, nowline.NowlineError) and issubclass(err, RuntimeError)
