"""A snapshot of the correction registry beside the store, so a new process starts fast.

Reading 100k corrections back from Chroma takes seconds, and every process that opens a store
pays it. A snapshot holds the registry as it was at a moment (its *mark*) in a JSON file:
beside a local store (``<store>/nowline/<collection id>.registry.json``) or, for a server, in
the user's cache folder (``$NOWLINE_CACHE_DIR``, else ``$XDG_CACHE_HOME/nowline``, else
``~/.cache/nowline``). A snapshot is a head start, never an authority: the process that loads
it refreshes from its mark (corrections changed since, by their stamps), continues its rolling
scan, and verifies every correction a read shows, so a correction changed or deleted since,
through nowline or around it, is caught within the same bounds as in a process that had been
running all along. A snapshot of another format, nowline version or collection is ignored.

JSON, not pickle: the file lives where other programs can write, and must never run code.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ._records import CorrectionInfo

__all__ = ["Saved", "path_for", "read", "save_at_exit", "state_of", "write"]

logger = logging.getLogger("nowline")

FORMAT = 1


@dataclass(frozen=True)
class Saved:
    """What a snapshot holds."""

    collection: str
    scope_key: str | None
    scope_keys: set[str]
    mark: float
    scan_offset: int
    infos: list[CorrectionInfo]


def path_for(api: Any, collection_id: str, persist_directory: str | None) -> str | None:
    """Return where a collection's snapshot lives, or None for an in-memory store."""
    name = f"{collection_id}.registry.json"
    if persist_directory is not None:
        return os.path.join(persist_directory, "nowline", name)
    base = getattr(api, "_api_url", None)
    if not isinstance(base, str):
        return None
    root = os.environ.get("NOWLINE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "nowline"
    )
    server = hashlib.sha256(base.encode("utf-8")).hexdigest()[:16]
    return os.path.join(root, server, name)


def _version() -> str:
    """Return nowline's version (a snapshot of another version is not read)."""
    from . import __version__

    return __version__


def state_of(registry: Any, fresh: Any, scope_key: str | None, scope_keys: Iterable[str]) -> Any:
    """Return the JSON-ready state to save for a registry and its freshness."""
    return {
        "format": FORMAT,
        "nowline": _version(),
        "scope_key": scope_key,
        "scope_keys": sorted(scope_keys),
        "mark": fresh.mark,
        "scan_offset": fresh.scan_offset,
        "infos": [
            [
                i.id,
                i.document,
                list(i.deprecates),
                list(i.about),
                i.time,
                i.written,
                list(i.scope) if isinstance(i.scope, tuple) else i.scope,
                i.retracted,
            ]
            for i in registry.infos()
        ],
    }


def write(path: str, state: dict[str, Any]) -> None:
    """Write a snapshot atomically (a reader sees the old file or the new one, never half)."""
    state = {**state, "collection": os.path.basename(path).split(".", 1)[0]}
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(state, fh, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:  # a read-only store or cache: starting slower is all it costs
        logger.debug("Could not write the registry snapshot %s.", path, exc_info=True)


def read(path: str) -> Saved | None:
    """Return the snapshot at ``path``, or None when it is missing or not this format."""
    try:
        with open(path, encoding="utf-8") as fh:
            state = json.load(fh)
        if state.get("format") != FORMAT or state.get("nowline") != _version():
            return None
        # tuple.__new__ skips the named tuple's own __new__ (a Python call per correction);
        # the fields are CorrectionInfo's, in order.
        new, info = tuple.__new__, CorrectionInfo
        infos = [
            new(
                info,
                (
                    str(row[0]),
                    str(row[1]),
                    tuple(row[2]),
                    tuple(row[3]),
                    float(row[4]),
                    float(row[5]),
                    tuple(_scope(row[6])) if isinstance(row[6], list) else row[6],
                    None if row[7] is None else float(row[7]),
                ),
            )
            for row in state["infos"]
        ]
        if any(len(row) != len(CorrectionInfo._fields) for row in state["infos"]):
            return None
        return Saved(
            collection=str(state["collection"]),
            scope_key=state["scope_key"],
            scope_keys=set(state["scope_keys"]),
            mark=float(state["mark"]),
            scan_offset=int(state["scan_offset"]),
            infos=infos,
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def _scope(value: list[Any]) -> list[Any]:
    """Return a scope token read back from JSON (a list value stays a tuple inside)."""
    if len(value) == 2 and value[0] == "list" and isinstance(value[1], list):
        return ["list", tuple(value[1])]
    return value


def save_at_exit(core: Any, path: str | None) -> None:
    """Write the snapshot when the process exits, if the registry changed since it was read.

    Only a weak reference to the wrapper's state is kept, so a wrapper that is dropped early
    costs nothing at exit.
    """
    if path is None:
        return
    import atexit
    import weakref

    ref = weakref.ref(core)
    loaded = core.registry.version

    def save() -> None:
        state = ref()
        if state is None or state.registry.version == loaded:
            return
        keys = {k for k in [state.scope_key] if isinstance(k, str)}
        write(path, state_of(state.registry, state.fresh, state.scope_key, keys))

    atexit.register(save)
