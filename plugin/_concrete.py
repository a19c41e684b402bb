"""The wrapped client's own class: nowline's client put in front of chromadb's concrete class.

``nowline.wrap(chromadb.PersistentClient(...))`` must be an instance of
``chromadb.api.client.Client`` too, because libraries check that class (langchain-chroma's
tests, mem0's pydantic config). :func:`client_class` builds, once per concrete class, a
subclass whose method order puts nowline's client first and the concrete class after it. The
instance is made by nowline's ``__init__`` alone: the concrete ``__init__`` never runs, so no
second chromadb system is opened and no reference count is taken.

Everything the concrete class has that nowline's client does not name (``close``, ``_server``,
``_system``, ``_admin_client``, ``_closed``, ``from_system``, ...) is a :class:`_Through`
descriptor on the subclass: read, written and deleted on the wrapped client, so the state lives
in one place and class defaults of the concrete class (``_closed = False``) never shadow the
wrapped client's values.
"""

from __future__ import annotations

import threading
from typing import Any, TypeVar

from chromadb.api import AsyncClientAPI, ClientAPI

__all__ = ["client_class"]

_Base = TypeVar("_Base", bound=type)

_classes: dict[tuple[type, type], type] = {}
_lock = threading.Lock()


class _Through:
    """An attribute of the concrete client class, kept on the wrapped client."""

    __slots__ = ("_name", "_owner")

    def __init__(self, name: str, owner: type) -> None:
        """Forward ``name``; class-level reads go to ``owner`` (the concrete class)."""
        self._name = name
        self._owner = owner

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        """Read the attribute from the wrapped client (or from the concrete class)."""
        if obj is None:
            return getattr(self._owner, self._name)
        return getattr(obj._client, self._name)

    def __set__(self, obj: Any, value: Any) -> None:
        """Set the attribute on the wrapped client."""
        setattr(obj._client, self._name, value)

    def __delete__(self, obj: Any) -> None:
        """Delete the attribute from the wrapped client."""
        delattr(obj._client, self._name)


def _concrete_names(base: type, concrete: type) -> list[str]:
    """Return the attributes (and annotated instance attributes) ``concrete`` adds to ``base``."""
    shared = set(base.__mro__)
    names: set[str] = set()
    for klass in concrete.__mro__:
        if klass in shared:
            continue
        names.update(vars(klass))
        names.update(vars(klass).get("__annotations__", {}))
    known = set(dir(base)) | {"_client", "_options"}
    return sorted(
        name
        for name in names
        if name not in known and not (name.startswith("__") and name.endswith("__"))
    )


def client_class(base: _Base, concrete: type) -> _Base:
    """Return the subclass of ``base`` (nowline's client) and ``concrete`` (chromadb's).

    Args:
        base: ``nowline.Client`` or ``nowline.AsyncClient``.
        concrete: the class of the client being wrapped, e.g. ``chromadb.api.client.Client``.

    Returns:
        A cached subclass of both, or ``base`` itself when ``concrete`` cannot be mixed in
        (it is not a real subclass of ``base``'s chromadb API, or the classes do not combine).
    """
    api = ClientAPI if issubclass(base, ClientAPI) else AsyncClientAPI  # what ``base`` implements
    if concrete is api or not issubclass(concrete, api) or issubclass(concrete, base):
        return base
    key = (base, concrete)
    with _lock:
        found = _classes.get(key)
        if found is None:
            namespace: dict[str, Any] = {
                name: _Through(name, concrete) for name in _concrete_names(base, concrete)
            }
            namespace["__module__"] = base.__module__
            namespace["__doc__"] = base.__doc__
            namespace["__qualname__"] = (
                f"{base.__qualname__}[{concrete.__module__}.{concrete.__qualname__}]"
            )
            try:
                found = type(base)(base.__name__, (base, concrete), namespace)
            except TypeError:  # a layout or metaclass conflict: keep the API class only
                found = base
            _classes[key] = found
    return found  # type: ignore[return-value]
