"""Shared fixtures: real Chroma stores in temp dirs and a deterministic fake embedder.

Two backends serve the ``raw_client`` fixture (and so ``client``, ``memory`` and ``scoped``):

* ``--backend=local`` (the default): a ``chromadb.PersistentClient`` on a fresh folder.
* ``--backend=http``: a ``chromadb.HttpClient`` on a fresh database of one Chroma server
  (``chroma run``) that this session starts on a free loopback port and stops at the end, also
  on failure. Only the modules in :data:`HTTP_SUITE` run; the others are deselected. In those
  modules ``chromadb.PersistentClient(path=store_path)`` is redirected to the test's server
  database, so tests that reopen "their" store reopen it over HTTP.

Tests that need a server whatever the backend use the ``chroma_server`` fixture directly.

With ``--backend=http`` the store fixtures of HTTP_SUITE also run on nowline's async collection:
the module-scoped ``io`` fixture is parametrised over :data:`IO_LAYERS`, and for ``"async"`` the
clients are ``chromadb.AsyncHttpClient`` objects presented with the sync API by
:mod:`tests.async_bridge` (one event loop in a background thread). ``nowline.wrap`` is replaced
for the run by :func:`tests.async_bridge.wrap`, which passes every other argument through
unchanged. Tests that cannot run async are listed, with the reason, in :data:`ASYNC_SKIP`.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pytest
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.utils.embedding_functions import register_embedding_function

import nowline
from tests import async_bridge

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
# No test may depend on the terminal it runs in: rich (and typer's error boxes) wrap at the
# terminal's width, else at COLUMNS, else at 80 columns, so a message that names a temp path
# wraps where that path is long. Every console of the run, in this process and in the CLI
# processes the tests start, is as wide as this (TERMINAL_WIDTH is read by typer at import).
TEST_COLUMNS = "1000"
_PYTEST_COLUMNS = shutil.get_terminal_size().columns  # pytest's own report keeps the real width
os.environ["COLUMNS"] = TEST_COLUMNS
os.environ["TERMINAL_WIDTH"] = TEST_COLUMNS

# chromadb's HttpClient shares one httpx connection pool between threads. httpcore 1.0.9's pool
# can close a connection it has already handed to another thread's request, when that
# connection's keep-alive (chromadb: 40 s) runs out in between; the request then fails with
# httpx.ReadError "[Errno 9] Bad file descriptor" (encode/httpcore#1110, open). The tests that
# read from threads over a server met it about once in ten runs. Connections that never expire
# take that path away; the pool still drops a connection the server has closed.
# docs/reliability.md ("Threads over HttpClient") gives users the same setting.
os.environ.setdefault("CHROMA_HTTP_KEEPALIVE_SECS", str(365 * 24 * 3600))


@register_embedding_function
class FakeEmbedding(EmbeddingFunction[Documents]):
    """Deterministic 32-dimensional embeddings: a hash of each word, summed and normalised.

    Texts that share words land close together, which is enough to test retrieval logic.
    """

    def __init__(self) -> None:
        """Nothing to load."""

    def __call__(self, input: Documents) -> Embeddings:
        """Embed each text as a normalised bag of hashed words."""
        out = []
        for text in input:
            v = np.zeros(32, dtype=np.float32)
            for word in text.lower().split():
                h = hashlib.sha256(word.encode("utf-8", "surrogatepass")).digest()
                v += np.frombuffer(h, dtype=np.uint8)[:32].astype(np.float32) - 127.5
            norm = float(np.linalg.norm(v))
            out.append(v / norm if norm else np.ones(32, dtype=np.float32) / np.sqrt(32))
        return out

    @staticmethod
    def name() -> str:
        """Return the registered name."""
        return "nowline-test-fake"

    def get_config(self) -> dict[str, Any]:
        """Return an empty config."""
        return {}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> FakeEmbedding:
        """Rebuild from config."""
        return FakeEmbedding()


@pytest.fixture
def store_path(tmp_path: Path, io: str) -> str:
    """Return a fresh folder for a persistent Chroma store.

    With --backend=http a PersistentClient of this folder opens the test's server database
    instead, through the ``io`` layer's client (see ``_persistent_client_follows_backend``).
    """
    return str(tmp_path / "store")


@pytest.fixture
def raw_client(
    request: pytest.FixtureRequest, store_path: str, io: str
) -> Iterator[chromadb.api.ClientAPI]:
    """Return a fresh store's client: a PersistentClient, or an HttpClient with --backend=http.

    With ``io == "async"`` the HttpClient is an AsyncHttpClient presented with the sync API.
    """
    if backend(request.config) == "http":
        database: ServerDatabase = request.getfixturevalue("http_database")
        if io == "async":
            yield database.async_client(request.getfixturevalue("bridge"))
        else:
            yield database.client()
        return
    client = chromadb.PersistentClient(path=store_path)
    yield client


@pytest.fixture
def client(raw_client: chromadb.api.ClientAPI) -> nowline.Client:
    """Return the fresh store's client wrapped by nowline."""
    return nowline.wrap(raw_client)


@pytest.fixture
def memory(client: nowline.Client) -> nowline.Collection:
    """Return an empty wrapped collection with the fake embedder."""
    return client.create_collection("memory", embedding_function=FakeEmbedding())


@pytest.fixture
def scoped(client: nowline.Client) -> nowline.Collection:
    """Return an empty wrapped collection scoped by ``user_id``."""
    raw = client.raw.create_collection("scoped", embedding_function=FakeEmbedding())
    return nowline.wrap(raw, scope_key="user_id")


def snapshot(collection: Any) -> dict[str, Any]:
    """Return every record of a collection as stored (bookkeeping too), sorted by id."""
    collection = getattr(collection, "raw", collection)  # a wrapper hides its bookkeeping
    got = collection.get(include=["documents", "metadatas"])
    rows = sorted(zip(got["ids"], got["documents"], got["metadatas"], strict=True))
    return {"count": collection.count(), "rows": rows}


def strip_nowline(meta: Any) -> Any:
    """Return a metadata without nowline's bookkeeping keys (None when nothing is left)."""
    if meta is None:
        return None
    rest = {k: v for k, v in meta.items() if not k.startswith("nowline_")}
    return rest or None


# --------------------------------------------------------------------------- backends

BACKENDS = ("local", "http")

HTTP_SUITE = (
    "tests/surface/test_seed.py",
    "tests/core/test_validate.py",
    "tests/surface/test_dropin.py",
    "tests/core/test_guard.py",
    "tests/core/test_scope.py",
    "tests/core/test_undo.py",
    "tests/reliability/test_bad_input.py",
    "tests/reliability/test_forgery.py",
    "tests/reliability/test_state_machine.py",
    "tests/regressions/test_review_faults.py",
    "tests/core/test_assembly.py",
    "tests/core/test_generic_anchors.py",
    "tests/surface/test_conformance.py",
    "tests/reliability/test_paging.py",
)
"""The modules that ``--backend=http`` runs against a Chroma server (paths from the repo root)."""

HTTP_SKIP = {
    "tests/surface/test_seed.py::test_unknown_embedding_function_is_refused": "a subprocess "
    "writes a local store at store_path; the test is about that local store",
}
"""Tests of HTTP_SUITE that are inherently local: skipped with --backend=http, with the reason."""

IO_LAYERS = ("sync", "async")
"""The I/O layers the store fixtures of HTTP_SUITE run on with --backend=http."""

ASYNC_SKIP = {
    "tests/surface/test_dropin.py::test_wrap_client_lists_wrapped_collections": "asserts the "
    "sync classes (nowline.Collection); tests/surface/test_async_surface.py asserts the async ones",
    "tests/surface/test_conformance.py::test_wrapped_objects_are_chromadb_objects": "asserts the "
    "sync classes (ClientAPI, Collection); tests/surface/test_async_surface.py asserts the async "
    "ones",
    "tests/surface/test_conformance.py::test_a_method_nowline_does_not_name_passes_through": (
        "patches chromadb's sync classes; tests/surface/test_async_surface.py patches the async "
        "ones"
    ),
}
"""Tests of HTTP_SUITE that cannot run on the async layer (``path::function``), with reasons."""

ASYNC_XFAIL: dict[str, str] = {}
"""Known divergences of the async layer (strict), each pinned in tests/regressions/."""

HTTP_XFAIL: dict[str, str] = {}
"""Known divergences on the server backend (strict: an XPASS fails, so fixed ones get removed)."""

SERVER_START_SECONDS = 60.0


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--backend``: which Chroma client the store fixtures give."""
    parser.addoption(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local: PersistentClient stores (default); http: run HTTP_SUITE against a "
        "Chroma server started for the session (chroma run), through chromadb.HttpClient.",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register this suite's markers (the run uses --strict-markers)."""
    config.addinivalue_line("markers", "server: starts a Chroma server (chroma run) on loopback")


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Keep pytest's own report at the real terminal's width (COLUMNS is the tests')."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter._tw.fullwidth = _PYTEST_COLUMNS


def backend(config: pytest.Config) -> str:
    """Return the backend this run uses: ``local`` or ``http``."""
    return str(config.getoption("--backend", default="local"))


def _relative(config: pytest.Config, path: Path) -> str:
    """Return a test file's path from the repository root ("" when outside it)."""
    try:
        return path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return ""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """With ``--backend=http``, run the store tests of HTTP_SUITE on both I/O layers."""
    if backend(metafunc.config) != "http" or "io" not in metafunc.fixturenames:
        return
    if _relative(metafunc.config, metafunc.definition.path) in HTTP_SUITE:
        metafunc.parametrize("io", IO_LAYERS, indirect=True, scope="module")


@pytest.fixture(scope="module")
def io(request: pytest.FixtureRequest) -> str:
    """Return the I/O layer of the store fixtures: ``"sync"`` unless parametrised."""
    return str(getattr(request, "param", "sync"))


@pytest.fixture(scope="session")
def bridge() -> Iterator[async_bridge.Bridge]:
    """Start the event loop that runs the async layer's calls; stop it at the end."""
    loop = async_bridge.Bridge()
    try:
        yield loop
    finally:
        loop.close()


@pytest.fixture(scope="session", autouse=True)
def _wrap_takes_synced_objects(request: pytest.FixtureRequest) -> Iterator[None]:
    """With --backend=http, let ``nowline.wrap`` take the async layer's synced objects."""
    if backend(request.config) != "http":
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(nowline, "wrap", async_bridge.wrap)
        yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``--backend=http``, keep only the modules of HTTP_SUITE (the rest are local-only)."""
    if backend(config) != "http":
        return
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        rel = _relative(config, item.path)
        (keep if rel in HTTP_SUITE else drop).append(item)
        node = f"{rel}::{item.name}"
        function = f"{rel}::{getattr(item, 'originalname', item.name)}"  # without [params]
        for key in dict.fromkeys((node, function)):
            if key in HTTP_SKIP:
                item.add_marker(pytest.mark.skip(reason=HTTP_SKIP[key]))
            if key in HTTP_XFAIL:
                item.add_marker(pytest.mark.xfail(strict=True, reason=HTTP_XFAIL[key]))
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("io") == "async":
            if function in ASYNC_SKIP:
                item.add_marker(pytest.mark.skip(reason=f"sync only: {ASYNC_SKIP[function]}"))
            if function in ASYNC_XFAIL:
                item.add_marker(pytest.mark.xfail(strict=True, reason=ASYNC_XFAIL[function]))
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _chroma_cli() -> str:
    """Return the ``chroma`` command of the running environment."""
    beside = Path(sys.executable).parent / "chroma"
    found = str(beside) if beside.exists() else shutil.which("chroma")
    if found is None:
        pytest.fail("The chroma CLI is not installed; it comes with chromadb (make setup).")
    return found


@dataclass
class ChromaServer:
    """A Chroma server process that this test session started on a loopback port."""

    path: Path
    host: str = "127.0.0.1"
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    _admin: Any = field(default=None, repr=False)

    def start(self, port: int | None = None) -> ChromaServer:
        """Start ``chroma run`` on a free port (or ``port``); wait for its heartbeat (three tries).

        A given port is the one a stopped server used: the checker restarts a store there.
        """
        problem = ""
        for attempt in range(3):
            self.port = port or _free_port()
            self.log = self.path.parent / f"{self.path.name}-server-{attempt}.log"
            with open(self.log, "wb") as out:
                self.process = subprocess.Popen(
                    [
                        _chroma_cli(),
                        "run",
                        "--path",
                        str(self.path),
                        "--host",
                        self.host,
                        "--port",
                        str(self.port),
                    ],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
                    start_new_session=True,
                )
            atexit.register(self.stop)
            problem = self._wait_for_heartbeat()
            if not problem:
                return self
            self.stop()
        pytest.fail(f"The Chroma server did not start: {problem}")

    def _wait_for_heartbeat(self) -> str:
        """Return "" once the server answers its heartbeat, else what went wrong."""
        url = f"http://{self.host}:{self.port}/api/v2/heartbeat"
        deadline = time.monotonic() + SERVER_START_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                tail = self.log.read_text(errors="replace")[-2000:] if self.log else ""
                return f"it exited with {self.process.returncode}:\n{tail}"
            with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1) as resp:
                if resp.status == 200:
                    return ""
            time.sleep(0.1)
        return f"no heartbeat at {url} within {SERVER_START_SECONDS} s"

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s). Safe to call twice."""
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def client(self, database: str = chromadb.DEFAULT_DATABASE) -> chromadb.api.ClientAPI:
        """Return a chromadb HttpClient on one of the server's databases."""
        return chromadb.HttpClient(host=self.host, port=self.port, database=database)

    def new_database(self) -> str:
        """Create a database with a fresh name and return the name."""
        name = f"t{uuid.uuid4().hex}"
        self._admin_client().create_database(name)
        return name

    def _admin_client(self) -> Any:
        """Return an AdminClient with the settings of this server's HttpClient."""
        if self._admin is None:
            self._admin = chromadb.AdminClient(self.client()._system.settings)
        return self._admin


@dataclass(frozen=True)
class ServerDatabase:
    """One database of the session's Chroma server, private to one test."""

    server: ChromaServer
    name: str

    def client(self) -> chromadb.api.ClientAPI:
        """Return an HttpClient on this database."""
        return self.server.client(self.name)

    def async_client(self, bridge: async_bridge.Bridge) -> Any:
        """Return an AsyncHttpClient on this database, presented with the sync API."""
        return bridge.http_client(self.server.host, self.server.port, self.name)


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChromaServer]:
    """Start one Chroma server for the session; it is stopped at the end, also on failure."""
    server = ChromaServer(path=tmp_path_factory.mktemp("chroma-server") / "data").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def http_database(chroma_server: ChromaServer) -> ServerDatabase:
    """Return a fresh, empty database on the session's server.

    It is never deleted: with chromadb 1.5.9, deleting a collection or database leaves its
    list-valued metadata behind, and the next record written anywhere on the server inherits
    it (chroma-core/chroma#7594). The server's folder goes away with the session instead.
    """
    return ServerDatabase(chroma_server, chroma_server.new_database())


@pytest.fixture(autouse=True)
def _persistent_client_follows_backend(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --backend=http, open the test's server database where a test opens its store_path."""
    if backend(request.config) != "http" or "store_path" not in request.fixturenames:
        return
    store_path: str = request.getfixturevalue("store_path")
    database: ServerDatabase = request.getfixturevalue("http_database")
    real: Callable[..., chromadb.api.ClientAPI] = chromadb.PersistentClient
    layer = request.getfixturevalue("io") if "io" in request.fixturenames else "sync"
    loop = request.getfixturevalue("bridge") if layer == "async" else None

    def persistent_client(path: Any = "./chroma", *args: Any, **kwargs: Any) -> Any:
        if os.fspath(path) == store_path:
            return database.client() if loop is None else database.async_client(loop)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(chromadb, "PersistentClient", persistent_client)
