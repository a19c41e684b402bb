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
import importlib.abc
import sys
from typing import TYPE_CHECKING, Any

from ._version import VERSION

if TYPE_CHECKING:
    from ._io.drive import drive, drive_async
    from ._rules.guards import validate_correction
    from ._rules.times import to_epoch
    from ._rules.validate import (
        DEFAULT_MAX_REACH,
        MAX_PHRASE_LENGTH,
        REACH_FLOOR,
        check_metadata,
        check_scope_key,
        reach_limit,
        reserved_key,
        scope_needed,
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
        MissingExtra,
        NewValue,
        NowlineError,
        OutOfRange,
        PersonName,
        Repeated,
        SnapshotDamaged,
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
        NotCovered,
        Occurrence,
        Recall,
        RepairReport,
        Role,
        Trip,
        stale_message,
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
    "MissingExtra",
    "NewValue",
    "NotCovered",
    "NowlineError",
    "Occurrence",
    "OutOfRange",
    "PersonName",
    "Recall",
    "RepairReport",
    "Repeated",
    "Role",
    "SnapshotDamaged",
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

__version__ = VERSION

_HOMES = {
    "DEFAULT_MAX_REACH": "._rules.validate",
    "MAX_PHRASE_LENGTH": "._rules.validate",
    "REACH_FLOOR": "._rules.validate",
    "AsyncClient": ".aio",
    "AsyncCollection": ".aio",
    "Client": ".client",
    "wrap": ".client",
    "WrapOptions": ".client",
    "trip_metadata": "._rules.assembly",
    "Collection": ".collection",
    "MiniLMEmbeddingFunction": ".embedding",
    "embedding_function": ".embedding",
    "in_scope": "._rules.records",
    "instrument": ".instrumentation",
    "uninstrument": ".instrumentation",
    "stale_message": ".models",
    "to_epoch": "._rules.times",
    "connect": ".stores",
    "drive": "._io.drive",
    "drive_async": "._io.drive",
    "open_collection": ".stores",
    "validate_correction": "._rules.guards",
    **dict.fromkeys(
        ["check_metadata", "check_scope_key", "reach_limit", "reserved_key", "scope_needed"],
        "._rules.validate",
    ),
}


_MOVED = {
    "nowline.ingest": "nowline.requests",  # the one request layer, no longer a surface
    **{
        f"nowline.{name}": f"nowline.surfaces.{name}"
        for name in (
            "cli",
            "github_events",
            "hook",
            "jsonl",
            "langchain",
            "mcp_server",
            "prompts",
            "scan",
            "serve",
            "tools",
        )
    },
}
"""The surfaces' import paths before they moved to :mod:`nowline.surfaces`, which keep working."""


class _MovedSurfaces(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a surface by its old path (``nowline.cli``) as the module itself, not a copy.

    A meta path finder and loader: ``import nowline.cli`` gives the module object of
    ``nowline.surfaces.cli`` (one module under two names, so a patch of either is seen by both).
    """

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        """Return a spec for an old surface path; None for every other module."""
        if fullname not in _MOVED:
            return None
        import importlib.util

        return importlib.util.spec_from_loader(fullname, _MOVED_LOADER)

    def create_module(self, spec: Any) -> None:
        """Let the import system create a placeholder (replaced in :meth:`exec_module`)."""
        return None

    def exec_module(self, module: Any) -> None:
        """Put the surface's own module where the import system reads the result from."""
        sys.modules[module.__name__] = importlib.import_module(_MOVED[module.__name__])


_MOVED_LOADER = _MovedSurfaces()
if not any(isinstance(finder, _MovedSurfaces) for finder in sys.meta_path):
    sys.meta_path.append(_MOVED_LOADER)


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
