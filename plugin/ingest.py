"""Corrections from connected systems: one request shape, its audience, and storing it once.

A correction that arrives from another system (a GitHub webhook, a JSON endpoint, a file of
exported events) is first turned into a :class:`CorrectionRequest`: its text, its deprecated
strings, its anchors, its time and its provenance (``source``, ``source_id``, ``source_url``).
:class:`Audience` says, from explicit configuration only, which scope of a scoped store it is
stored in. :func:`store` writes it through the public ``Collection.correct()`` with its
provenance in the metadata, at most once per ``(source, source_id)``: the record id is derived
from that pair (:func:`correction_id`), so a redelivery finds the stored correction instead
of writing a second one, and two writers racing on one delivery cannot both store it.

The receiver (``nowline serve``) and the offline import (``nowline import --from
github-events``) share every rule here; they only move bytes.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from ._records import BY
from ._time import to_epoch
from .errors import InvalidInput

if TYPE_CHECKING:
    from chromadb.api.types import Where

    from .collection import Collection

__all__ = [
    "API_SOURCE",
    "MAX_SOURCE_ID",
    "MAX_TEXT",
    "MAX_URL",
    "Audience",
    "CorrectionRequest",
    "Stored",
    "correction_id",
    "parse_correction",
    "store",
]

API_SOURCE = "api"
"""The ``source`` of a correction posted to the JSON endpoint without one."""

MAX_TEXT = 4000
"""The longest correction text accepted from another system (characters)."""

MAX_SOURCE_ID = 200
"""The longest ``source`` or ``source_id`` accepted (characters)."""

MAX_URL = 2000
"""The longest ``source_url`` accepted (characters)."""

_NAMESPACE = uuid.UUID("5b0d3f4e-6c1a-4a52-9f57-6e6f776c696e")  # nowline's, fixed forever

ScopeValue = str | int | bool


def correction_id(source: str, source_id: str) -> str:
    """Return the record id of the correction from ``(source, source_id)``: always the same.

    A UUID (version 5) of the pair, so the same event stored twice names one record.
    """
    return str(uuid.uuid5(_NAMESPACE, f"{source}\n{source_id}"))


@dataclass(frozen=True)
class CorrectionRequest:
    """A correction another system asks to store, with where it came from.

    Attributes:
        text: the correction's text (what its now-line shows).
        deprecates: the exact outdated strings.
        source: the system it came from (``github``, ``api``, ...).
        about: its anchors, if any.
        observed_at: when the change happened (ISO 8601 text or epoch seconds), or None for
            the moment it is stored.
        source_id: the event's id in that system (a delivery id); with it the correction is
            stored at most once.
        source_url: a page about the change (the repository's page).
        scope: the scope value the request itself names (the JSON endpoint), or None.
        owner: the account the change belongs to (GitHub: the owner of the old name), which
            an :class:`Audience` may map to a scope.
    """

    text: str
    deprecates: tuple[str, ...]
    source: str
    about: tuple[str, ...] = ()
    observed_at: str | float | None = None
    source_id: str | None = None
    source_url: str | None = None
    scope: ScopeValue | None = None
    owner: str | None = None

    @property
    def id(self) -> str | None:
        """Return the record id (derived from source and source_id), or None without one."""
        return None if self.source_id is None else correction_id(self.source, self.source_id)

    def provenance(self) -> dict[str, str]:
        """Return the provenance metadata stored with the correction."""
        meta = {"source": self.source}
        if self.source_id is not None:
            meta["source_id"] = self.source_id
        if self.source_url is not None:
            meta["source_url"] = self.source_url
        return meta


@dataclass(frozen=True)
class Audience:
    """Which scope a received correction goes to: explicit configuration, never a guess.

    Attributes:
        scope_key: the store's scope key, or None for a store without scopes.
        default: the scope of everything received (``--scope``), or None.
        owners: scope per account (``--scope-for OWNER=VALUE``); GitHub logins compare
            case-insensitively. An owner's own scope wins over ``default``.
    """

    scope_key: str | None = None
    default: ScopeValue | None = None
    owners: Mapping[str, ScopeValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Check the configuration once, at start."""
        if self.scope_key is None and (self.default is not None or self.owners):
            raise InvalidInput(
                "A scope was given for a store without a scope key: give the scope key too "
                "(the metadata key whose value the scope is, e.g. --scope-key user_id)."
            )
        folded = [owner.casefold() for owner in self.owners]
        if len(set(folded)) != len(folded):
            raise InvalidInput("An owner is mapped to a scope twice; give each owner once.")

    def metadata(self, request: CorrectionRequest) -> dict[str, ScopeValue] | None:
        """Return the scope metadata to store ``request`` with (None on an unscoped store).

        Raises:
            InvalidInput: the store is scoped and the configuration names no scope for this
                request, or the request names a scope the configuration does not allow.
        """
        if self.scope_key is None:
            if request.scope is not None:
                raise InvalidInput("This store has no scopes; leave the scope out.")
            return None
        mapped = {k.casefold(): v for k, v in self.owners.items()}
        configured = self.default
        if request.owner is not None and request.owner.casefold() in mapped:
            configured = mapped[request.owner.casefold()]
        if request.scope is not None:
            if configured is not None and request.scope != configured:
                raise InvalidInput(
                    f"This receiver stores into {self.scope_key}={configured!r} only; leave "
                    f"{self.scope_key!r} out or give that value."
                )
            return {self.scope_key: request.scope}
        if configured is None:
            whom = f" for the owner {request.owner!r}" if request.owner is not None else ""
            raise InvalidInput(
                f"No audience is configured{whom}: this store keeps scopes apart by "
                f"{self.scope_key!r}, so start the receiver with --scope VALUE (everything "
                "received) or --scope-for OWNER=VALUE, or give the scope in the request."
            )
        return {self.scope_key: configured}


@dataclass(frozen=True)
class Stored:
    """What storing a request did.

    Attributes:
        id: the correction's record id.
        reached: how many records it supersedes (for one stored before: how many records
            store a link to it now, as ``CorrectionSummary.reach`` counts them).
        created: False when the same ``(source, source_id)`` was already stored.
    """

    id: str
    reached: int
    created: bool


def _text(value: object, what: str, limit: int, *, required: bool = False) -> str | None:
    """Return a checked string field, or None when it is absent and optional."""
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string.")
    if not value.strip():
        raise InvalidInput(f"{what} is empty.")
    if len(value) > limit:
        raise InvalidInput(f"{what} is longer than {limit} characters.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} contains a lone surrogate (\\ud800-\\udfff).") from None
    return value


def _strings(value: object, what: str) -> tuple[str, ...]:
    """Return a list-of-strings field (one string is a list of one) as given."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise InvalidInput(f"{what} must be a string or a list of strings.")
    return tuple(items)


_FIELDS = (
    "body",
    "deprecates",
    "about",
    "observed_at",
    "source",
    "source_id",
    "source_url",
)


def parse_correction(obj: object, scope_key: str | None) -> CorrectionRequest:
    """Return the request a JSON correction (the receiver's ``/corrections``) asks for.

    The object has ``body`` and ``deprecates``, and optionally ``about``, ``observed_at``,
    ``source`` (default ``api``), ``source_id``, ``source_url`` and, on a scoped store, the
    scope key's value. Nothing else is accepted. The correction's own guards (absent and
    generic strings, reach) run when it is stored.

    Raises:
        InvalidInput: a field is missing, unknown or of the wrong type.
    """
    if not isinstance(obj, dict):
        raise InvalidInput('Send a JSON object: {"body": ..., "deprecates": [...]}.')
    allowed = set(_FIELDS) | ({scope_key} if scope_key is not None else set())
    unknown = sorted(str(k) for k in obj if k not in allowed)
    if unknown:
        raise InvalidInput(
            f"Unknown field {unknown[0]!r}; the fields are {', '.join(sorted(allowed))}."
        )
    if "deprecates" not in obj:
        raise InvalidInput("deprecates is missing: give the exact outdated strings.")
    observed = obj.get("observed_at")
    if observed is not None:
        if isinstance(observed, bool) or not isinstance(observed, (str, int, float)):
            raise InvalidInput("observed_at must be ISO 8601 text or epoch seconds.")
        if isinstance(observed, float) and not math.isfinite(observed):
            raise InvalidInput("observed_at must be a finite number.")
        to_epoch(observed)
    scope: ScopeValue | None = None
    if scope_key is not None and obj.get(scope_key) is not None:
        value = obj[scope_key]
        if not isinstance(value, (str, int, bool)) or (isinstance(value, str) and not value):
            raise InvalidInput(f"{scope_key} must be a non-empty string, an integer or a boolean.")
        scope = value
    source = _text(obj.get("source", API_SOURCE), "source", MAX_SOURCE_ID, required=True)
    assert source is not None
    text = _text(obj.get("body"), "body", MAX_TEXT, required=True)
    assert text is not None
    return CorrectionRequest(
        text=text,
        deprecates=_strings(obj["deprecates"], "deprecates"),
        about=_strings(obj["about"], "about") if obj.get("about") is not None else (),
        observed_at=observed,
        source=source,
        source_id=_text(obj.get("source_id"), "source_id", MAX_SOURCE_ID),
        source_url=_text(obj.get("source_url"), "source_url", MAX_URL),
        scope=scope,
    )


def _already(
    col: Collection, request: CorrectionRequest, scope: Mapping[str, Any] | None
) -> Stored | None:
    """Return the stored correction of the request's ``(source, source_id)``, or None."""
    cid = request.id
    if cid is None:
        return None
    got = col.get(ids=[cid], include=["metadatas"])
    if not got["ids"]:
        return None
    metas = got["metadatas"] or []
    meta = (metas[0] if metas else None) or {}
    if meta.get("source") != request.source or meta.get("source_id") != request.source_id:
        raise InvalidInput(
            f"The record {cid!r} exists but was not stored from {request.source} "
            f"{request.source_id!r}; nothing was written."
        )
    linked = col.get(where=cast("Where", {BY: {"$contains": cid}}), include=[])
    return Stored(id=cid, reached=len(linked["ids"]), created=False)


def store(
    col: Collection,
    request: CorrectionRequest,
    scope: Mapping[str, Any] | None = None,
    *,
    max_reach: float | int | Literal["default"] | None = "default",
) -> Stored:
    """Store ``request`` as a correction with its provenance, once per source and source id.

    Args:
        col: the nowline collection.
        request: what to store.
        scope: the scope metadata (from :meth:`Audience.metadata`), or None.
        max_reach: the reach limit, as ``Collection.correct()`` takes it (default: the
            collection's).

    Returns:
        The correction's id and reach; ``created`` is False when the same ``(source,
        source_id)`` was stored before (nothing new was written).

    Raises:
        InvalidCorrection: the correction breaks a guard (absent or generic string, reach);
            nothing was written.
        InvalidInput: another argument is unusable; nothing was written.
    """
    found = _already(col, request, scope)
    if found is not None:
        return found
    try:
        report = col.correct(
            request.text,
            deprecates=list(request.deprecates),
            about=list(request.about) or None,
            id=request.id,
            metadata={**request.provenance(), **(scope or {})},
            observed_at=request.observed_at,
            max_reach=max_reach,
            # A forge's event is authoritative: a rename whose old name no memory holds yet
            # is still stored (the near-miss guard is for corrections a person or model typed).
            allow_unreached=request.source == "github",
        )
    except InvalidInput:
        # Another writer (a second receiver, an import) may have stored it since the check.
        found = _already(col, request, scope)
        if found is not None:
            return found
        raise
    return Stored(id=report.id, reached=report.reached, created=True)
