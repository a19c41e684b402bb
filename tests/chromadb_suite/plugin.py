"""Pytest plugin: run chromadb's own shipped test suite with every client wrapped by nowline.

Load it with ``-p tests.chromadb_suite.plugin`` (see ``run.py`` and README.md in this folder).
chromadb's tests and their ``conftest.py`` are used as installed, never copied or patched. The
plugin acts at the fixture level only:

* every fixture whose value is a chromadb client (``chromadb.api.ClientAPI``, e.g. chromadb's
  ``client`` fixture or ``test_api.py``'s ``local_persist_api``) is replaced, for the test that
  asked for it, by ``nowline.wrap(value)``;
* the ``client_factories`` fixture keeps working, but the clients it creates come back wrapped.

It does this through the ``pytest_fixture_setup`` hook, because chromadb's conftest is closer to
its tests than any plugin, so a plugin fixture of the same name would never be chosen. Fixture
teardown still runs on the raw client (the value the fixture generator yielded).

Mode (``--nowline-mode`` or ``NOWLINE_SUITE_MODE``):

* ``wrap`` (default): clients are ``nowline.wrap(client)``.
* ``off``: nothing is wrapped; the same selection runs on bare chromadb (the baseline).
* ``diagnostic``: as ``wrap``, plus a local shim that hands any attribute the wrapped client
  lacks to the raw client, and any attribute a wrapped collection lacks to the raw collection
  of the same name. DIAGNOSTIC ONLY: it shows the collection-level failures behind the
  missing client methods; it is not how nowline behaves and its numbers prove nothing about
  drop-in fidelity.

Only ``nowline.wrap`` is used from nowline, so the harness does not depend on its internals.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import weakref
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

# chromadb's conftest reads these at import time; the plugin is imported before it.
# CHROMA_RUST_BINDINGS_TEST_ONLY limits the `system` fixture to the two in-process engines
# chromadb 1.x ships (the Rust bindings, ephemeral and persistent): no server is started.
os.environ.setdefault("CHROMA_RUST_BINDINGS_TEST_ONLY", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import hypothesis
import pytest
from hypothesis.internal.conjecture import providers as _hypothesis_providers

from .differences import listed_reason, read_differences

MODES = ("wrap", "off", "diagnostic")
PROFILE = "nowline-suite"

# Fixtures that start a Chroma server (HTTP, auth, SSL) or need a cluster. Any test whose
# fixture closure holds one of them is deselected: this harness runs in-process engines only.
SERVER_FIXTURES = frozenset(
    {
        "api_wrong_cred",
        "api_with_authn_rbac_authz",
        "api_with_server_auth",
        "async_integration",
        "basic_http_client",
        "client_ssl",
        "http_client",
        "integration",
        "system_auth",
        "system_authn_rbac_authz",
        "system_http_server",
        "system_ssl",
        "system_wrong_auth",
    }
)

# Engines of chromadb's `system` fixture that run in this process; NOWLINE_SUITE_ENGINES
# (a comma-separated subset of "ephemeral,persistent") narrows the run to some of them.
ENGINES = {"ephemeral": "rust_sqlite_ephemeral", "persistent": "rust_sqlite_persistent"}


def _engines() -> frozenset[str]:
    """Return the fixture names of the engines chosen by NOWLINE_SUITE_ENGINES."""
    chosen = os.environ.get("NOWLINE_SUITE_ENGINES", "ephemeral,persistent")
    names = [name.strip() for name in chosen.split(",") if name.strip()]
    unknown = sorted(set(names) - set(ENGINES))
    if unknown or not names:
        raise ValueError(f"NOWLINE_SUITE_ENGINES={chosen!r}: choose from {sorted(ENGINES)}")
    return frozenset(ENGINES[name] for name in names)


IN_PROCESS_SYSTEMS = _engines()


def _env_int(name: str, default: int) -> int:
    """Read a positive integer from the environment, or return the default."""
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


# The Hypothesis budget. Tests without their own `max_examples` take these; chromadb's own
# per-test settings (e.g. test_add_small's 20 examples under its "fast" preset) still apply.
MAX_EXAMPLES = _env_int("NOWLINE_SUITE_MAX_EXAMPLES", 10)
STATEFUL_STEPS = _env_int("NOWLINE_SUITE_STATEFUL_STEPS", 10)
# A test that runs longer than this (seconds) fails with SuiteTimeout instead of stalling
# the run; 0 turns the limit off.
TEST_TIMEOUT = _env_int("NOWLINE_SUITE_TEST_TIMEOUT", 120)
# Shrinking a failing example can take minutes per test; the harness reports the first failing
# example unless NOWLINE_SUITE_SHRINK=1 (then Hypothesis shrinks it, as chromadb's CI does).
SHRINK = os.environ.get("NOWLINE_SUITE_SHRINK") == "1"

# Hypothesis draws string constants from the source of every "local" module (one outside
# site-packages) and mixes them into the data it generates. nowline is such a module here, so
# the suite wrote nowline's own key names as metadata ({"deprecates": True}, {"nowline_...":
# 5.8e5}), and what it generated changed with every edit of nowline: a test failed, for
# reasons of data alone, after a change that had nothing to do with it (four tests, in turn).
# The suite should generate chromadb's workload, the same in every mode and from one commit to
# the next: nowline's package and this harness are not mined. (Hypothesis's internal hook; on
# a version without it, nothing changes.)
_MINED_NOT = tuple(
    str(Path(root).resolve())
    for root in (
        *getattr(importlib.import_module("nowline"), "__path__", ()),
        Path(__file__).parent,
    )
)
_is_local_module_file = getattr(_hypothesis_providers, "is_local_module_file", None)


def _mined(path: str) -> bool:
    """Whether Hypothesis may draw constants from the module at ``path`` (above)."""
    assert _is_local_module_file is not None
    if str(Path(path).resolve()).startswith(_MINED_NOT):
        return False
    return bool(_is_local_module_file(path))


if _is_local_module_file is not None:
    _hypothesis_providers.is_local_module_file = _mined

hypothesis.settings.register_profile(
    PROFILE,
    max_examples=MAX_EXAMPLES,
    stateful_step_count=STATEFUL_STEPS,
    deadline=None,
    # Same examples every run (a stable before/after table); no example database, so a
    # failure found in one mode is not replayed in another.
    derandomize=True,
    database=None,
    print_blob=False,
    phases=[
        phase
        for phase in hypothesis.Phase
        if SHRINK or phase not in (hypothesis.Phase.shrink, hypothesis.Phase.explain)
    ],
    suppress_health_check=list(hypothesis.HealthCheck),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the ``--nowline-mode`` option."""
    group = parser.getgroup("nowline-suite", "chromadb suite through nowline")
    group.addoption(
        "--nowline-mode",
        choices=MODES,
        default=os.environ.get("NOWLINE_SUITE_MODE", "wrap"),
        help="wrap: clients are nowline.wrap(client) (default); off: bare chromadb "
        "(baseline); diagnostic: wrap plus a pass-through of attributes the wrapped client "
        "or collection lacks (diagnostic only).",
    )
    group.addoption(
        "--nowline-differences",
        choices=("apply", "ignore"),
        default=os.environ.get("NOWLINE_SUITE_DIFFERENCES", "apply"),
        help="apply (default): mark the tests listed in DIFFERENCES.md as expected failures; "
        "ignore: report every outcome as it is.",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    """Load the suite's Hypothesis profile once chromadb's conftest has loaded its own.

    chromadb's conftest calls ``settings.load_profile`` at import time, which happens before
    collection; test modules read ``settings.default`` when they are imported, during it.
    """
    hypothesis.settings.load_profile(PROFILE)


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Show the mode, the engines and the Hypothesis budget in the run's header."""
    return [
        f"nowline-suite: mode={config.getoption('--nowline-mode')} "
        f"engines={sorted(IN_PROCESS_SYSTEMS)} max_examples={MAX_EXAMPLES} "
        f"stateful_step_count={STATEFUL_STEPS} shrink={SHRINK} timeout={TEST_TIMEOUT}s preset="
        f"{os.environ.get('PROPERTY_TESTING_PRESET', 'fast')}"
    ]


@pytest.hookimpl(tryfirst=True)
def pytest_itemcollected(item: pytest.Item) -> None:
    """Give each item the ``_nodeid`` attribute chromadb's conftest still writes to.

    chromadb's ``pytest_itemcollected`` appends ``[single-region]`` to ``item._nodeid``, an
    attribute pytest 9 no longer has; reading it fails the whole collection. With the attribute
    present its rename is a no-op, and node ids stay as pytest makes them.
    """
    if not hasattr(item, "_nodeid"):
        item._nodeid = item.nodeid  # type: ignore[attr-defined]


def _mark_listed(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests DIFFERENCES.md lists as expected failures.

    Environment entries fail without nowline too (a missing model download, a missing
    optional library): non-strict, in every mode, since nowline may well make them pass.
    Deliberate differences fail only through nowline: strict, so a fixed one is noticed, and
    only when clients are wrapped.
    """
    if config.getoption("--nowline-differences") == "ignore":
        return
    sections = read_differences()
    wrapped = config.getoption("--nowline-mode") != "off"
    for item in items:
        reason = listed_reason(item.nodeid, sections["environment"])
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=f"environment: {reason}", strict=False))
            continue
        reason = listed_reason(item.nodeid, sections["deliberate"]) if wrapped else None
        if reason is not None:
            # A difference that only some generated data reaches cannot be strict.
            strict = not reason.startswith("[data-dependent]")
            item.add_marker(pytest.mark.xfail(reason=f"nowline: {reason}", strict=strict))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect tests that need a server, auth, SSL or another engine; mark listed ones."""
    keep: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        system = callspec.params.get("system") if callspec is not None else None
        if names & SERVER_FIXTURES or (system is not None and system not in IN_PROCESS_SYSTEMS):
            dropped.append(item)
        else:
            keep.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
    _mark_listed(config, items)


# Client methods that return collections; in diagnostic mode their results are passed through
# too, so a collection attribute nowline lacks (e.g. get_model) falls back to chromadb's.
_COLLECTION_METHODS = frozenset(
    {"create_collection", "get_collection", "get_or_create_collection", "list_collections"}
)


class _PassThrough:
    """DIAGNOSTIC ONLY: a wrapped object that hands attributes it lacks to a chromadb one.

    ``fallback`` returns the chromadb object to ask: the raw client, or, for a collection, the
    raw client's ``get_collection(name)`` looked up afresh on each miss.
    """

    def __init__(self, wrapped: Any, fallback: Callable[[], Any], raw_client: Any) -> None:
        """Keep the wrapped object and the way to its chromadb counterpart."""
        object.__setattr__(self, "_suite_wrapped", wrapped)
        object.__setattr__(self, "_suite_fallback", fallback)
        object.__setattr__(self, "_suite_raw_client", raw_client)

    def __getattr__(self, name: str) -> Any:
        """Return the wrapped object's attribute, else the chromadb object's."""
        wrapped = object.__getattribute__(self, "_suite_wrapped")
        try:
            value = getattr(wrapped, name)
        except AttributeError:
            return getattr(object.__getattribute__(self, "_suite_fallback")(), name)
        if name in _COLLECTION_METHODS and callable(value):
            return self._collections_passed_through(value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        """Set attributes on the wrapped object."""
        setattr(object.__getattribute__(self, "_suite_wrapped"), name, value)

    def __eq__(self, other: object) -> bool:
        """Compare as the wrapped object does."""
        if isinstance(other, _PassThrough):
            other = object.__getattribute__(other, "_suite_wrapped")
        return bool(object.__getattribute__(self, "_suite_wrapped") == other)

    def __hash__(self) -> int:
        """Hash as the wrapped object does."""
        return hash(object.__getattribute__(self, "_suite_wrapped"))

    def _collections_passed_through(self, method: Callable[..., Any]) -> Callable[..., Any]:
        """Return ``method`` with its collection results passed through as well."""
        raw_client = object.__getattribute__(self, "_suite_raw_client")

        def one(collection: Any) -> Any:
            """Pass one wrapped collection through to the raw collection of the same name."""
            return _PassThrough(
                collection, lambda: raw_client.get_collection(collection.name), raw_client
            )

        def call(*args: Any, **kwargs: Any) -> Any:
            """Call the wrapped method; pass its collections through."""
            result = method(*args, **kwargs)
            if isinstance(result, list):
                return [one(c) for c in result]
            return one(result)

        return call


def _wrapper_for(config: pytest.Config) -> Callable[[Any], Any] | None:
    """Return the function that wraps a raw client in this mode, or None for ``off``."""
    mode = config.getoption("--nowline-mode")
    if mode == "off":
        return None
    import nowline

    if mode == "wrap":
        return nowline.wrap

    def wrap_with_passthrough(raw: Any) -> Any:
        """Wrap, then let missing client attributes fall through to the raw client."""
        return _PassThrough(nowline.wrap(raw), lambda: raw, raw)

    return wrap_with_passthrough


# Clients this plugin produced: a fixture that hands one on is not wrapped twice.
_produced: weakref.WeakSet[Any] = weakref.WeakSet()


def _remember(value: Any) -> None:
    """Remember a client this plugin wrapped (objects without weak references are skipped)."""
    with contextlib.suppress(TypeError):
        _produced.add(value)


def _is_produced(value: Any) -> bool:
    """Tell whether ``value`` is a client this plugin already wrapped."""
    try:
        return value in _produced
    except TypeError:
        return False


def _count_wrap(request: pytest.FixtureRequest, fixture: str) -> None:
    """Record on the test item that a client of ``fixture`` went through nowline."""
    node = request.node
    props = node.user_properties
    props.append(("nowline_wrapped", fixture))


def _wrap_factories(factories: Any, wrap: Callable[[Any], Any], request: Any) -> None:
    """Make chromadb's ClientFactories return wrapped clients (teardown keeps the raw ones)."""
    for method in ("create_client", "create_client_from_system"):
        original = getattr(factories, method)

        def wrapped_method(
            *args: Any, _original: Callable[..., Any] = original, **kwargs: Any
        ) -> Any:
            """Create the client as chromadb does, then wrap it."""
            client = wrap(_original(*args, **kwargs))
            _remember(client)
            _count_wrap(request, "client_factories")
            return client

        setattr(factories, method, wrapped_method)


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: Any, request: pytest.FixtureRequest
) -> Generator[Any, Any, Any]:
    """Replace each client a fixture produces by ``nowline.wrap(client)``."""
    result = yield
    wrap = _wrapper_for(request.config)
    if wrap is None or result is None or _is_produced(result):
        return result
    from chromadb.api import AdminAPI, ClientAPI

    if fixturedef.argname == "client_factories":
        _wrap_factories(result, wrap, request)
        return result
    if isinstance(result, ClientAPI) and not isinstance(result, AdminAPI):
        wrapped = wrap(result)
        _remember(wrapped)
        _count_wrap(request, fixturedef.argname)
        # pytest hands other requesters the cached value: cache the wrapped client too.
        cached = fixturedef.cached_result
        if cached is not None and cached[0] is result:
            fixturedef.cached_result = (wrapped, *cached[1:])
        return wrapped
    return result


class SuiteTimeout(Exception):
    """A test of the suite ran past ``NOWLINE_SUITE_TEST_TIMEOUT`` seconds."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    """Fail a test that runs past the time limit (SIGALRM, main thread, POSIX only)."""
    if TEST_TIMEOUT <= 0 or not hasattr(signal, "SIGALRM"):
        return (yield)

    def expire(signum: int, frame: Any) -> None:
        """Raise in the test's frame when the alarm fires."""
        raise SuiteTimeout(f"test ran past {TEST_TIMEOUT}s (NOWLINE_SUITE_TEST_TIMEOUT)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, TEST_TIMEOUT)
    try:
        return (yield)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
