"""nowline: corrections for agent memory in Chroma.

Wrap a chromadb collection; every recalled memory that names an outdated string then arrives
with its correction directly beneath it. Nothing is deleted.

>>> import nowline  # doctest: +SKIP
>>> memory = nowline.wrap(chromadb.PersistentClient("mem")).get_or_create_collection("agent")
>>> memory.correct("Moved from acme/app to acme-labs/app.", deprecates=["acme/app"])

The public names load lazily, so ``import nowline.matchers`` (or ``nowline.errors``) loads no
chromadb, pydantic or numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._drive import drive, drive_async
    from ._guard import stale_message
    from ._time import to_epoch
    from ._validate import (
        DEFAULT_MAX_REACH,
        MAX_PHRASE_LENGTH,
        REACH_FLOOR,
        check_metadata,
        check_scope_key,
        reach_limit,
        reserved_key,
        scope_needed,
        validate_correction,
    )
    from .aio import AsyncClient, AsyncCollection
    from .client import Client, wrap
    from .collection import Collection
    from .embedding import MiniLMEmbeddingFunction, embedding_function
    from .errors import (
        AbsentString,
        AmbiguousCollection,
        CollectionNotFound,
        CorrectionTooBroad,
        EmbeddingUnavailable,
        GenericString,
        InvalidCorrection,
        InvalidInput,
        InvalidPhrase,
        NowlineError,
        OutOfRange,
        StaleReference,
        StoreBusy,
        StoreNotFound,
        UnknownRecord,
        Unreached,
    )
    from .instrumentation import instrument, uninstrument
    from .models import (
        CorrectionChange,
        CorrectionRef,
        CorrectionReport,
        CorrectionSummary,
        Hit,
        Occurrence,
        Recall,
        RepairReport,
        Role,
        Trip,
    )
    from .stores import connect, open_collection

__all__ = [
    "DEFAULT_MAX_REACH",
    "MAX_PHRASE_LENGTH",
    "REACH_FLOOR",
    "AbsentString",
    "AmbiguousCollection",
    "AsyncClient",
    "AsyncCollection",
    "Client",
    "Collection",
    "CollectionNotFound",
    "CorrectionChange",
    "CorrectionRef",
    "CorrectionReport",
    "CorrectionSummary",
    "CorrectionTooBroad",
    "EmbeddingUnavailable",
    "GenericString",
    "Hit",
    "InvalidCorrection",
    "InvalidInput",
    "InvalidPhrase",
    "MiniLMEmbeddingFunction",
    "NowlineError",
    "Occurrence",
    "OutOfRange",
    "Recall",
    "RepairReport",
    "Role",
    "StaleReference",
    "StoreBusy",
    "StoreNotFound",
    "Trip",
    "UnknownRecord",
    "Unreached",
    "WrapOptions",
    "__version__",
    "check_metadata",
    "check_scope_key",
    "connect",
    "drive",
    "drive_async",
    "embedding_function",
    "in_scope",
    "instrument",
    "open_collection",
    "reach_limit",
    "reserved_key",
    "scope_needed",
    "stale_message",
    "to_epoch",
    "trip_metadata",
    "uninstrument",
    "validate_correction",
    "wrap",
]

__version__ = "0.2.0"

_HOMES = {
    "DEFAULT_MAX_REACH": "._validate",
    "MAX_PHRASE_LENGTH": "._validate",
    "REACH_FLOOR": "._validate",
    "AsyncClient": ".aio",
    "AsyncCollection": ".aio",
    "Client": ".client",
    "wrap": ".client",
    "WrapOptions": ".client",
    "trip_metadata": "._assembly",
    "Collection": ".collection",
    "MiniLMEmbeddingFunction": ".embedding",
    "embedding_function": ".embedding",
    "in_scope": "._records",
    "instrument": ".instrumentation",
    "uninstrument": ".instrumentation",
    "stale_message": "._guard",
    "to_epoch": "._time",
    "connect": ".stores",
    "drive": "._drive",
    "drive_async": "._drive",
    "open_collection": ".stores",
    "validate_correction": "._validate",
    **dict.fromkeys(
        ["check_metadata", "check_scope_key", "reach_limit", "reserved_key", "scope_needed"],
        "._validate",
    ),
}


def _home(name: str) -> str | None:
    """Return the module a public name comes from: its home above, else errors or models.

    Every public name of ``nowline.errors`` is public here; the other names of ``__all__``
    that the table does not place are the result models of ``nowline.models``.
    """
    if name in _HOMES:
        return _HOMES[name]
    if name not in __all__:
        return None
    errors = importlib.import_module(".errors", __name__)
    return ".errors" if name in errors.__all__ else ".models"


def __getattr__(name: str) -> Any:
    """Load a public name from its module at first use (PEP 562)."""
    home = _home(name)
    if home is None:
        raise AttributeError(f"module 'nowline' has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """List the public names."""
    return sorted(__all__)
