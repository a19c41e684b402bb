"""Answer ``check()`` from a snapshot that the store's generation mark confirms, without chromadb.

``nowline hook`` runs before and after every tool call, and ``nowline check`` in scripts, so
their cost is the agent's latency. Where nothing changed since a process last wrote the
collection's snapshot (:mod:`nowline._io.snapshot`), the snapshot holds exactly what the
store's corrections are: these commands then answer from it, without importing chromadb or
loading a model, and without writing anything. :func:`confirmed` returns None on any doubt,
and the caller takes the full path (``open_collection`` and ``Collection.check``).

How the mark is read without chromadb, and why:

* **A local store.** Its folder holds ``chroma.sqlite3``, opened read-only (``mode=ro``: no
  lock file, no journal, no change) with the standard library. One query gives the
  collection's id by name (or the store's only collection), its metadata, and the mark its
  companion collection holds; the file the writer keeps beside the snapshot
  (:func:`nowline._io.mark.file_path`) must say the same. Reading chromadb's own tables
  (``collections``, ``databases``, ``collection_metadata``) ties this to chromadb's system
  schema, which has not changed since 0.4; a schema it does not find is a doubt.
* **A server.** One HTTP GET of Chroma's REST API with the standard library
  (``/api/v2/tenants/{tenant}/databases/{database}/collections``) lists the collections with
  their metadata, the companion's mark among them. chromadb's HTTP client would cost the
  whole chromadb import this path exists to avoid.

The corrections come from the snapshot (:func:`nowline._io.snapshot.open_index`), whose
index files the active corrections by key: only the corrections that can matter to the text
are read from it (:func:`nowline._rules.registry.closure`), so the cost of an answer does not
grow with the number of corrections. The answer is the one
``Collection.check`` gives: the rules are the registry's and
:func:`nowline._rules.assembly.trips_of`, and no automaton over every correction is built.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ._io import mark as M
from ._io import snapshot as S
from ._rules import records as R
from ._rules.records import Scoped
from .models import Trip
from .stores import Store

__all__ = ["SNAPSHOT_WRITE_ENV", "Confirmed", "confirmed"]

SNAPSHOT_WRITE_ENV = S.WRITE_ENV
"""Set to ``0``, this process writes no snapshot (``nowline hook`` sets it: it only reads)."""

_DEFAULT_TENANT = "default_tenant"
_DEFAULT_DATABASE = "default_database"
_TIMEOUT = 2.0  # seconds for the server's answer; slower is a doubt


@dataclass(frozen=True)
class Confirmed:
    """A collection's corrections, as a snapshot that the store's mark confirms.

    Attributes:
        collection: the collection's name.
        scope_key: the scope key the collection is checked with (the one given, else the one
            key its corrections carry, else None), as ``open_collection`` settles it.
        scope_keys: the scope keys the collection's corrections carry.
    """

    collection: str
    scope_key: str | None
    scope_keys: frozenset[str]
    index: S.Index

    def scope_metadata(self, scope: str | None) -> dict[str, Any] | Literal[False] | None:
        """Return the metadata that selects ``scope``, or False where the full path must decide.

        The full path types a scope value as the store holds it, which needs the store: a
        value that could be a number or a boolean is a doubt. A store whose corrections carry
        scope keys while no scope is given, or several keys, is a doubt too (the full path
        says what is missing).
        """
        if scope is None:
            return None if self.scope_key is None and not self.scope_keys else False
        if self.scope_key is None or self.scope_keys - {self.scope_key}:
            return False
        try:
            parsed = json.loads(scope)
        except ValueError:
            return {self.scope_key: scope}
        return {self.scope_key: scope} if isinstance(parsed, str) else False

    def check(self, text: str, metadata: Mapping[str, Any] | None = None) -> list[Trip]:
        """Return what ``Collection.check(text, metadata=metadata)`` returns, from the snapshot."""
        from ._rules.assembly import trips_of
        from ._rules.registry import closure

        return trips_of(closure(self.index, text), text, Scoped(metadata))


def confirmed(
    store: Store, collection: str | None = None, *, scope_key: str | None = None
) -> Confirmed | None:
    """Return a collection's corrections if its snapshot is confirmed by the store's mark.

    Nothing is created or changed, and chromadb is not imported. None means: take the full
    path (no snapshot, another mark, a mark that says a write is under way, a collection the
    store does not have or does not name alone, a server that does not answer at once, any
    setting this path does not read).

    Args:
        store: the local folder or the server.
        collection: the collection's name (None: the store's only collection).
        scope_key: the scope key given on the command line, if any.
    """
    try:
        found = _local(store, collection) if store.path is not None else _served(store, collection)
    except Exception:  # any failure here is a doubt: the full path says what is wrong
        return None
    if found is None:
        return None
    name, _, metadata, mark, snapshot_path = found
    legacy = (metadata or {}).get(R.SCOPE_KEY)
    if legacy is not None or M.state_of(mark) != M.DONE or snapshot_path is None:
        return None
    index = S.open_index(snapshot_path)
    if index is None:
        return None
    if index.mark != mark:  # a collection's index holds its id (open_index checks it)
        index.close()
        return None
    keys = index.scope_keys
    key = scope_key or (next(iter(keys)) if len(keys) == 1 else None)
    return Confirmed(collection=name, scope_key=key, scope_keys=keys, index=index)


_Found = tuple[str, str, dict[str, Any] | None, str | None, str | None]
"""A collection's name, id, metadata, the mark its companion holds, and its snapshot's path."""


def _pick(names: list[str], collection: str | None) -> str | None:
    """Return the collection asked for, or the store's only one (companions left out)."""
    visible = [n for n in names if not M.is_companion(n)]
    if collection is not None:
        return collection if collection in visible else None
    return visible[0] if len(visible) == 1 else None


def _local(store: Store, collection: str | None) -> _Found | None:
    """Read a local store's collections and mark from ``chroma.sqlite3``, read-only."""
    import sqlite3
    from urllib.parse import quote

    assert store.path is not None
    database = os.path.join(store.path, "chroma.sqlite3")
    if not os.path.isfile(database):
        return None
    uri = f"file:{quote(os.path.abspath(database))}?mode=ro"
    with sqlite3.connect(uri, uri=True, timeout=_TIMEOUT) as conn:
        rows = conn.execute(
            "SELECT c.id, c.name FROM collections c JOIN databases d ON d.id = c.database_id "
            "WHERE d.name = ? AND d.tenant_id = ?",
            (_DEFAULT_DATABASE, _DEFAULT_TENANT),
        ).fetchall()
        ids = {str(name): str(cid) for cid, name in rows}
        name = _pick(list(ids), collection)
        if name is None:
            return None
        cid = ids[name]
        companion = ids.get(M.companion_name(cid))
        metadata = dict(
            conn.execute(
                "SELECT key, str_value FROM collection_metadata WHERE collection_id = ?",
                (cid,),
            ).fetchall()
        )
        mark = None
        if companion is not None:
            got = conn.execute(
                "SELECT str_value FROM collection_metadata WHERE collection_id = ? AND key = ?",
                (companion, M.MARK_KEY),
            ).fetchone()
            mark = got[0] if got else None
    if M.read_file(M.file_path(store.path, cid)) != mark:
        return None  # the file beside the snapshot must agree with the store
    return name, cid, metadata or None, mark, S.path_for(None, cid, store.path)


# chromadb settings that tune its connection pool only: one GET reads the same without them
# (docs/reliability.md advises the first for threads that share an HttpClient)
_POOL_ONLY = frozenset(
    {
        "CHROMA_HTTP_KEEPALIVE_SECS",
        "CHROMA_HTTP_MAX_CONNECTIONS",
        "CHROMA_HTTP_MAX_KEEPALIVE_CONNECTIONS",
    }
)


def _served(store: Store, collection: str | None) -> _Found | None:
    """Read a server's collections and mark with one HTTP GET of its REST API."""
    import urllib.request
    from urllib.parse import quote, urlsplit

    if any(k.upper().startswith("CHROMA_") and k.upper() not in _POOL_ONLY for k in os.environ):
        return None  # chromadb's client would read settings from these (names in any case)
    assert store.url is not None
    parts = urlsplit(store.url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/"):
        return None
    if parts.username or parts.password or parts.query or parts.fragment:
        return None
    port = parts.port or (443 if parts.scheme == "https" else 80)
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    api = f"{parts.scheme}://{host}:{port}/api/v2"  # chromadb's _api_url for this URL
    tenant = store.tenant or _DEFAULT_TENANT
    database = store.database or _DEFAULT_DATABASE
    url = f"{api}/tenants/{quote(tenant, safe='')}/databases/{quote(database, safe='')}/collections"
    headers = {"Accept": "application/json"}
    if store.token is not None:
        if store.token_header == "Authorization":
            headers["Authorization"] = f"Bearer {store.token}"
        else:
            headers[store.token_header] = store.token
    request = urllib.request.Request(url, headers=headers, method="GET")
    with urllib.request.urlopen(request, timeout=_TIMEOUT) as response:
        listed = json.loads(response.read())
    if not isinstance(listed, list):
        return None
    by_name = {
        c["name"]: c for c in listed if isinstance(c, dict) and isinstance(c.get("name"), str)
    }
    name = _pick(list(by_name), collection)
    if name is None:
        return None
    found = by_name[name]
    cid = str(found["id"])
    companion = by_name.get(M.companion_name(cid)) or {}
    meta = companion.get("metadata")
    mark = meta.get(M.MARK_KEY) if isinstance(meta, dict) else None
    metadata = found.get("metadata") if isinstance(found.get("metadata"), dict) else None

    class _Api:  # what snapshot.path_for reads of a chromadb HTTP client
        _api_url = api

    return name, cid, metadata, mark if isinstance(mark, str) else None, S.path_for(_Api, cid, None)
