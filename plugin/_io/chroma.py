"""What nowline needs to know about a chromadb client and collection (no request is sent).

Whether a client's store lives in this process (and its folder) or on a server (and its URL),
the largest batch it accepts, and the embedding function chromadb would use for a collection,
with nowline's offline model in place of chromadb's download-at-first-use default.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, cast

from chromadb.api.types import DefaultEmbeddingFunction, EmbeddingFunction

from ..errors import InvalidInput

__all__ = ["choose_embedding_function", "local_store", "max_batch_size", "server_url"]


def local_store(api: Any) -> tuple[bool, str | None]:
    """Return whether a client's store lives in this process, and its folder if persistent.

    An in-memory store is private to this process; a persistent local store is shared by
    every process that opens its folder; a server's store is reached over HTTP.
    """
    settings = getattr(getattr(api, "_system", None), "settings", None)
    if settings is None or type(api).__name__ not in ("RustBindingsAPI", "SegmentAPI"):
        return False, None
    if not getattr(settings, "is_persistent", False):
        return True, None
    path = getattr(settings, "persist_directory", None)
    return True, (str(path) if path else None)


def server_url(api: Any) -> str | None:
    """Return the URL of a client's Chroma server (None: not a server's client).

    Sync and async clients of one server in one process, whatever their settings otherwise,
    give the same URL, so their wrappers of one collection share its change counter.
    """
    url = getattr(api, "_api_url", None)
    return url if isinstance(url, str) and url else None


def max_batch_size(api: Any, default: int = 1000) -> int:
    """Return the largest batch a store accepts (chromadb's ``get_max_batch_size``)."""
    method = getattr(api, "get_max_batch_size", None)
    if method is None or inspect.iscoroutinefunction(method):
        return default  # an async API: the async collection asks it when it loads
    try:
        return max(1, int(method()))
    except Exception:  # an API that cannot tell
        return default


def choose_embedding_function(
    collection: Any, name: str, offline_default: Callable[[], EmbeddingFunction[Any]]
) -> EmbeddingFunction[Any] | None:
    """Return the function chromadb would embed a collection's records with, offline.

    chromadb's order: the collection's own function unless it is the default; else the one
    its configuration persists; else the one its schema persists; else its own (the default,
    or None). Wherever that lands on chromadb's download-at-first-use default
    (all-MiniLM-L6-v2 in ONNX), nowline's offline copy of the same model is used instead.

    Raises:
        InvalidInput: the persisted function cannot be built in this process.
    """
    own = collection._embedding_function
    chosen: Any = None
    if own is not None and not isinstance(own, DefaultEmbeddingFunction):
        chosen = own
    else:
        try:
            config = collection.configuration
            chosen = config.get("embedding_function") if config else None
            if chosen is None:
                chosen = _schema_function(collection.schema)
        except ValueError as exc:  # chromadb cannot build the persisted function here
            raise InvalidInput(
                f"The collection {name!r} embeds with a function this process cannot build "
                f"({exc}). Import the module that registers it before opening the collection, "
                "or pass embedding_function= to nowline.wrap(); embedding with another model "
                "would make its vectors meaningless."
            ) from None
        if chosen is None:
            chosen = own
    if isinstance(chosen, DefaultEmbeddingFunction):
        return offline_default()
    return cast("EmbeddingFunction[Any] | None", chosen)


def _schema_function(schema: Any) -> Any:
    """Return the embedding function a collection's schema persists, or None."""
    if schema is None:
        return None
    override = schema.keys.get("#embedding")
    for value_types in (override, schema.defaults):
        float_list = getattr(value_types, "float_list", None)
        index = getattr(float_list, "vector_index", None)
        function = getattr(getattr(index, "config", None), "embedding_function", None)
        if function is not None:
            return function
    return None
