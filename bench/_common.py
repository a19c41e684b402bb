"""Helpers shared by the wrapper benchmarks: stores, embeddings, timing, reports, machine info.

Nothing here measures anything by itself. The caveats of each measurement are stated in the
docstring of the script that makes it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import chromadb
import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.config import Settings
from tqdm import tqdm

__all__ = [
    "DATA_ROOT",
    "PHASES",
    "REPO_ROOT",
    "RESULTS_DIR",
    "CachedEmbedding",
    "HashEmbedding",
    "Stopwatch",
    "add_common_args",
    "chunks",
    "command_line",
    "default_data",
    "embed_all",
    "fmt_ratio",
    "fmt_s",
    "instrument",
    "machine_info",
    "md_table",
    "new_client",
    "new_collection",
    "paged_get",
    "paged_ids",
    "portable",
    "progress",
    "real_model",
    "run_header",
    "split_url",
    "summarize",
    "timed",
    "uninstrument",
    "write_report",
]

REPO_ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = REPO_ROOT / "bench" / "results"
DATA_ROOT = REPO_ROOT.parent / "shared" / "data"


# ------------------------------------------------------------------------ command line


def add_common_args(parser: argparse.ArgumentParser, *, seed: int) -> None:
    """Add ``--smoke``, ``--out`` and ``--seed`` to a benchmark's parser."""
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="tiny sizes and a cheap hash embedding instead of the model: runs in seconds",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=RESULTS_DIR,
        help=f"folder for the JSON and markdown results (default: {RESULTS_DIR})",
    )
    parser.add_argument("--seed", type=int, default=seed, help=f"random seed (default {seed})")


def default_data(relative: str) -> Path | None:
    """Return ``../shared/data/<relative>`` next to the repository when it exists, else None."""
    path = DATA_ROOT / relative
    return path if path.exists() else None


# ------------------------------------------------------------------------------ server


def _free_port() -> int:
    """Return a loopback TCP port that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def chroma_server(folder: Path) -> Iterator[tuple[str, int]]:
    """Run ``chroma run`` on a free loopback port with its data in ``folder``; yield host, port."""
    beside = Path(sys.executable).parent / "chroma"
    cli = str(beside) if beside.exists() else shutil.which("chroma")
    if cli is None:
        raise SystemExit("the chroma CLI is missing; it comes with chromadb")
    port = _free_port()
    log = open(folder / "server.log", "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [cli, "run", "--path", str(folder / "data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"chroma run did not start; see {folder / 'server.log'}")
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1
                ) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


# ------------------------------------------------------------------------------ stores


def new_client(path: str | Path) -> Any:
    """Return a chromadb PersistentClient at ``path`` (telemetry off)."""
    return chromadb.PersistentClient(path=str(path), settings=Settings(anonymized_telemetry=False))


def split_url(url: str) -> tuple[str, int]:
    """Return (host, port) of a ``--url`` of the form ``http://host:port``, or exit saying so."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname or parts.port is None:
        raise SystemExit(f"--url must look like http://localhost:8000, not {url!r}")
    return parts.hostname, parts.port


def new_collection(client: Any, name: str) -> Any:
    """Create a cosine collection with no embedding function (embeddings are always given)."""
    return client.create_collection(
        name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
    )


def paged_ids(collection: Any, where: Mapping[str, Any] | None = None) -> list[str]:
    """Return the ids of every record matching ``where``, read in pages (Chroma caps a read)."""
    out: list[str] = []
    offset = 0
    while True:
        page = collection.get(where=where, limit=5000, offset=offset, include=[])
        out.extend(page["ids"])
        if len(page["ids"]) < 5000:
            return out
        offset += 5000


def paged_get(collection: Any, **kwargs: Any) -> list[tuple[str, Any, Any]]:
    """Return (id, document, metadata) of every matching record, read in pages of 5,000.

    As nowline reads (Chroma has no cursor, and evaluates a filter again at every offset): the
    first page with the filter, the other ids in one pass without data, their rows by id.
    """
    include = ["documents", "metadatas"]
    page = collection.get(limit=5000, include=include, **kwargs)
    out = list(zip(page["ids"], page["documents"], page["metadatas"], strict=True))
    if len(out) < 5000:
        return out
    rest = collection.get(offset=5000, include=[], **kwargs)["ids"]
    for ids in chunks(rest, 5000):
        page = collection.get(ids=list(ids), include=include)
        out.extend(zip(page["ids"], page["documents"], page["metadatas"], strict=True))
    return out


def update_in_batches(collection: Any, ids: Sequence[str], metadatas: Sequence[Any]) -> None:
    """Update metadatas in batches of 5,000 (a local store refuses more than 5,461 at once)."""
    for lo in range(0, len(ids), 5000):
        collection.update(ids=list(ids[lo : lo + 5000]), metadatas=list(metadatas[lo : lo + 5000]))


def chunks(seq: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    """Yield consecutive slices of ``seq`` of at most ``size`` items."""
    for i in range(0, len(seq), size):
        yield seq[i : i + size]


# -------------------------------------------------------------------------- embeddings


class HashEmbedding(EmbeddingFunction[Documents]):
    """A cheap deterministic stand-in for a sentence model (for ``--smoke`` runs).

    Each lowercased word is hashed to a random-looking vector; a text is the normalised sum
    of its words' vectors, so texts that share words land close together. It needs no model,
    loads in no time and is useless for judging retrieval quality.
    """

    def __init__(self, dim: int = 384) -> None:
        """Create the function for vectors of ``dim`` dimensions."""
        self.dim = dim
        self._cache: dict[str, np.ndarray] = {}

    def _word(self, word: str) -> np.ndarray:
        """Return the vector of one word."""
        vec = self._cache.get(word)
        if vec is None:
            seed = int.from_bytes(hashlib.sha256(word.encode("utf-8", "replace")).digest()[:8])
            vec = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            self._cache[word] = vec
        return vec

    def __call__(self, input: Documents) -> Embeddings:
        """Embed each text as the normalised sum of its hashed words."""
        out = []
        for text in input:
            v = np.zeros(self.dim, dtype=np.float32)
            for word in re.findall(r"\w+", text.lower()):
                v += self._word(word)
            norm = float(np.linalg.norm(v))
            out.append(v / norm if norm else np.full(self.dim, 1 / math.sqrt(self.dim), "f4"))
        return out

    @staticmethod
    def name() -> str:
        """Return a name (the function is never persisted in a collection's config)."""
        return "nowline-bench-hash"

    def get_config(self) -> dict[str, Any]:
        """Return the dimension."""
        return {"dim": self.dim}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> HashEmbedding:
        """Rebuild from a config."""
        return HashEmbedding(int(config.get("dim", 384)))


class CachedEmbedding(EmbeddingFunction[Documents]):
    """Look texts up in a table of precomputed vectors; embed the rest with ``fallback``.

    Lets a wrapped collection's ``recall(text)`` reuse the exact query vectors that the bare
    collection is queried with, so both sides see the same embeddings and the model runs once.
    """

    def __init__(self, table: Mapping[str, np.ndarray], fallback: EmbeddingFunction[Any]) -> None:
        """Create the function over ``table``, falling back to ``fallback``."""
        self.table = table
        self.fallback = fallback
        self.misses = 0

    def __call__(self, input: Documents) -> Embeddings:
        """Return the stored vector of each text, embedding the unknown ones."""
        missing = [t for t in input if t not in self.table]
        extra: dict[str, np.ndarray] = {}
        if missing:
            self.misses += len(missing)
            extra = dict(zip(missing, self.fallback(missing), strict=True))
        return [self.table[t] if t in self.table else extra[t] for t in input]

    @staticmethod
    def name() -> str:
        """Return a name (the function is never persisted in a collection's config)."""
        return "nowline-bench-cached"

    def get_config(self) -> dict[str, Any]:
        """Return an empty config."""
        return {}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> CachedEmbedding:
        """Not supported: the table lives in memory only."""
        raise NotImplementedError("CachedEmbedding is not persisted")


def real_model() -> tuple[EmbeddingFunction[Any], float]:
    """Return nowline's offline MiniLM embedding function, loaded, and the load time (s)."""
    import nowline

    ef = nowline.embedding_function()
    start = time.perf_counter()
    ef(["warm up the model"])
    return ef, time.perf_counter() - start


def embed_all(
    ef: EmbeddingFunction[Any], texts: Sequence[str], *, desc: str, batch: int = 256
) -> np.ndarray:
    """Embed ``texts`` in batches behind a progress bar; return a float32 matrix."""
    parts: list[np.ndarray] = []
    with progress(total=len(texts), desc=desc, unit="text") as bar:
        for part in chunks(texts, batch):
            parts.append(np.asarray(ef(list(part)), dtype=np.float32))
            bar.update(len(part))
    return np.concatenate(parts) if parts else np.zeros((0, 384), dtype=np.float32)


# ------------------------------------------------------------------------------ timing


class Stopwatch:
    """A ``with`` block that records its wall time in ``seconds``."""

    def __init__(self) -> None:
        """Start unset."""
        self.seconds = 0.0
        self._start = 0.0

    def __enter__(self) -> Stopwatch:
        """Start the clock."""
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop the clock."""
        self.seconds = time.perf_counter() - self._start


def timed(fn: Callable[[], Any]) -> float:
    """Run ``fn`` once and return its wall time in seconds."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


PHASES = ("find", "persist", "write", "embed", "read", "query")
"""What a write's time is split into: the Chroma operations nowline's paths yield.

``find``: the candidate read (the ``$regex`` prefilter) and the matcher; ``persist``: the
metadata updates that store links; ``write``: the caller's records; ``embed``: embedding;
``read``: other reads; ``query``: nearest-neighbour queries.
"""


def _phase(op: Any) -> str:
    """Return the phase an operation of ``nowline._io.ops`` belongs to."""
    kind = type(op).__name__
    if kind == "Get":
        return "find" if op.where_document is not None else "read"
    if kind == "Work":
        return "find"
    if kind == "Write":
        return "persist" if op.op == "update" else "write"
    if kind == "Embed":
        return "embed"
    if kind == "Query":
        return "query"
    return "read"


def instrument(collection: Any, phases: dict[str, float]) -> None:
    """Add the time of every Chroma operation of ``collection`` to its phase in ``phases``.

    It wraps the collection's store driver (``nowline._io.execute``), so the paths are timed
    exactly as they run.
    """
    store = collection._store
    execute = store.execute

    def timed_execute(op: Any) -> Any:
        start = time.perf_counter()
        try:
            return execute(op)
        finally:
            name = _phase(op)
            phases[name] = phases.get(name, 0.0) + time.perf_counter() - start

    store.execute = timed_execute


def uninstrument(collection: Any) -> None:
    """Remove the wrapper that :func:`instrument` added."""
    collection._store.__dict__.pop("execute", None)


def summarize(values: Sequence[float]) -> dict[str, float]:
    """Return n, mean, p50, p95, min and max of ``values``."""
    if not values:
        return {"n": 0}
    arr = np.asarray(values, dtype=float)
    return {
        "n": len(values),
        "mean": float(arr.mean()),
        "p50": float(np.percentile(arr, 50)),
        "p95": float(np.percentile(arr, 95)),
        "min": float(arr.min()),
        "max": float(arr.max()),
    }


def progress(iterable: Iterable[Any] | None = None, **kwargs: Any) -> Any:
    """Return a tqdm progress bar on stderr (quiet with ``NOWLINE_BENCH_QUIET=1``)."""
    kwargs.setdefault("mininterval", 1.0)
    kwargs.setdefault("leave", False)
    kwargs.setdefault("dynamic_ncols", True)
    if os.environ.get("NOWLINE_BENCH_QUIET") == "1":
        kwargs["disable"] = True
    return tqdm(iterable, **kwargs)


# ----------------------------------------------------------------------------- reports


def fmt_s(seconds: float | None) -> str:
    """Format a duration: ms below one second, s above."""
    if seconds is None or (isinstance(seconds, float) and math.isnan(seconds)):
        return "–"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def fmt_ratio(value: float | None) -> str:
    """Format a ratio as ``1.23x``."""
    return "–" if value is None else f"{value:.2f}x"


def md_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """Return a GitHub markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _package(name: str) -> str | None:
    """Return an installed distribution's version, or None."""
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def machine_info() -> dict[str, Any]:
    """Return what a reader needs to judge the numbers: machine, load, versions."""
    try:
        load = list(os.getloadavg())
    except OSError:
        load = None
    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpus": os.cpu_count(),
        "load_average_at_start": load,
        "python": sys.version.split()[0],
        "packages": {
            p: _package(p)
            for p in ("nowline", "chromadb", "numpy", "torch", "sentence-transformers")
        },
    }


def write_report(
    out: Path, name: str, data: dict[str, Any], markdown: str, *, echo: bool = True
) -> tuple[Path, Path]:
    """Write ``<out>/<name>.json`` and ``<out>/<name>.md``; print the markdown."""
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / f"{name}.json"
    md_path = out / f"{name}.md"
    json_path.write_text(json.dumps(data, indent=2, sort_keys=False, default=_json_default) + "\n")
    md_path.write_text(markdown.rstrip() + "\n")
    if echo:
        print(markdown)
        print(f"\nwrote {json_path} and {md_path}")
    return json_path, md_path


def _json_default(value: Any) -> Any:
    """Serialise numpy scalars and paths."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def run_header(title: str, info: Mapping[str, Any], command: str, seconds: float) -> str:
    """Return the markdown lines that open a report: title, command, machine, duration."""
    pk = info["packages"]
    load = info.get("load_average_at_start")
    load_s = ", ".join(f"{x:.1f}" for x in load) if load else "n/a"
    return (
        f"# {title}\n\n"
        f"`{command}` — {seconds:.0f} s on {info['cpus']} CPUs ({info['machine']}), "
        f"load average at start {load_s}; chromadb {pk['chromadb']}, "
        f"nowline {pk['nowline']}, Python {info['python']}, {info['date']}.\n"
    )


def portable(value: str | Path) -> str:
    """Return a path as a reader of the results can follow it: never this machine's.

    A path in the repository is relative to it (``bench/results``); a dataset's is
    ``<data>/`` and its path in the data folder (``<data>/locomo/locomo10.json``); any other
    absolute path was local to the run (a model, a temporary folder) and is shown as
    ``<local>/`` and its last part. A relative path that climbs out of the working folder
    (``../shared/data/...``) is resolved first; any other value is kept.
    """
    path = Path(value)
    if not path.is_absolute() and ".." in path.parts and path.exists():
        path = path.resolve()
    if not path.is_absolute():
        return str(value)
    for base, prefix in ((REPO_ROOT, ""), (DATA_ROOT, "<data>/")):
        try:
            return prefix + str(path.relative_to(base))
        except ValueError:
            continue
    return f"<local>/{path.name}"


def command_line() -> str:
    """Return the command that started this process, its paths as :func:`portable` gives them."""
    words = [portable(Path(sys.argv[0]).resolve())]
    for arg in sys.argv[1:]:
        option, sep, value = arg.partition("=")
        words.append(
            f"{option}={portable(value)}" if sep and option.startswith("--") else portable(arg)
        )
    return " ".join([".venv/bin/python", *words])
