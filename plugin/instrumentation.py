"""``nowline.instrument()``: every chromadb client created in the process comes back wrapped.

The module is not named ``instrument``: importing it would then replace the function
``nowline.instrument`` by the module of the same name.

Frameworks such as Haystack, AutoGen, agno and CrewAI build their own chromadb clients from a
path; :func:`instrument` reaches them the way tracing libraries instrument a process. It acts
where every client is built, not on the public names that build them:

* sync clients: every chromadb factory (``chromadb.Client``, ``EphemeralClient``,
  ``PersistentClient``, ``HttpClient``, ``CloudClient``, ``RustClient``) and
  ``Client.from_system`` construct ``chromadb.api.client.Client``. :func:`instrument` gives that
  class a metaclass whose ``__call__`` wraps the client it built, so a caller that holds an old
  reference (``from chromadb import PersistentClient`` before :func:`instrument`) is reached
  too, and ``chromadb.ClientCreator`` stays the class ``isinstance`` checks use;
* async clients: ``chromadb.AsyncHttpClient`` and ``AsyncClient.from_system_async`` finish
  building the client in ``chromadb.api.async_client.AsyncClient.create``, which is replaced by
  one that wraps its result.

Not reached: clients created before :func:`instrument`; instances of a subclass of chromadb's
``Client`` defined before :func:`instrument` (the subclass keeps its own metaclass); code that
kept a reference to ``AsyncClient.create`` itself before :func:`instrument`.
"""

from __future__ import annotations

import threading
from typing import Any

from chromadb.api.async_client import AsyncClient as ChromaAsyncClient
from chromadb.api.client import Client as ChromaClient
from typing_extensions import Unpack

from ._facade import Options
from .client import INSTRUMENTED, Client, WrapOptions, instrumented, wrap

__all__ = ["instrument", "instrumented", "uninstrument"]

_lock = threading.Lock()
# The keyword arguments of wrap() that instrument() was given; None while not instrumented.
_options: dict[str, Any] | None = None
# The metaclass chromadb's Client had before instrument(), and AsyncClient.create.
_original_meta: type | None = None
_original_create: Any = None


def _wrapped_now(client: Any) -> Any:
    """Wrap a client chromadb just built, with the options in force (once)."""
    from .aio import AsyncClient

    options = _options
    if options is None or isinstance(client, (Client, AsyncClient)):
        return client
    wrapped = wrap(client, **options)
    INSTRUMENTED.add(wrapped)
    return wrapped


class _Instrumented(type(ChromaClient)):  # type: ignore[misc]
    """The metaclass chromadb's ``Client`` has while instrumented: its clients come wrapped."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        """Build the client as chromadb does, then wrap it (nowline's own clients as they are)."""
        return _wrapped_now(super().__call__(*args, **kwargs))


async def _create(cls: Any, *args: Any, **kwargs: Any) -> Any:
    """``AsyncClient.create`` while instrumented: chromadb's, then wrapped.

    chromadb's own arguments are passed on as given, so the signature follows chromadb's.
    """
    return _wrapped_now(await _original_create.__func__(cls, *args, **kwargs))


def instrument(**options: Unpack[WrapOptions]) -> None:
    """Wrap every chromadb client created in this process from now on.

    Afterwards ``chromadb.PersistentClient(...)`` (and ``Client``, ``EphemeralClient``,
    ``HttpClient``, ``CloudClient``, ``await AsyncHttpClient(...)``) return the client as
    :func:`nowline.wrap` would, with these options, also when a library built it or imported
    the function before this call. Clients created earlier stay as they are.

    Calling it again changes nothing but the options: the latest call's options apply to the
    clients created after it; clients created before keep theirs, and no client is wrapped
    twice. ``nowline.wrap()`` of a client this wrapped returns a new wrapper of the same
    chromadb client with ``wrap()``'s own options.

    Args:
        **options: :func:`nowline.wrap`'s options (``scope_key``, ``embedding_function``,
            ``annotate``, ``max_reach``, ``refresh_seconds``, ``text_key``).

    Raises:
        InvalidInput: an option is invalid (checked now, not at the first client).
    """
    global _options, _original_meta, _original_create
    checked = Options(**options).as_kwargs()
    with _lock:
        _options = checked
        if _original_meta is None:
            _original_meta = type(ChromaClient)
            setattr(ChromaClient, "__class__", _Instrumented)  # noqa: B010
            _original_create = vars(ChromaAsyncClient)["create"]
            setattr(ChromaAsyncClient, "create", classmethod(_create))  # noqa: B010


def uninstrument() -> None:
    """Stop wrapping: chromadb clients created from now on are plain chromadb clients.

    Clients created while instrumented stay wrapped. Calling it when not instrumented does
    nothing.
    """
    global _options, _original_meta, _original_create
    with _lock:
        _options = None
        if _original_meta is not None:
            setattr(ChromaClient, "__class__", _original_meta)  # noqa: B010
            setattr(ChromaAsyncClient, "create", _original_create)  # noqa: B010
            _original_meta = None
            _original_create = None
