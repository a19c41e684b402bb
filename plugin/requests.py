"""The one request layer: what arrives from outside, typed, on the core's own validators.

A memory or a correction reaches nowline from a program (``Collection.correct()``), and from
outside: a model's tool call, a line of a JSON Lines file, the body of an HTTP request, the
command line's options. Each of those names the same things in its own words (a tool's ``body``
is a line's ``text``). Here every one of them becomes one typed request, a
:class:`MemoryRequest` or a :class:`CorrectionRequest`, parsed by the core's own validators
(a correction's strings and anchors, times, metadata, the limits), so no rule is checked twice,
or differently, by two surfaces. A surface is a field map over it: a :class:`Form` says which
fields it takes and how it spells them, and :func:`nowline.terms.using` words every refusal in
its terms (``--allow-absent`` on the command line, ``allow_absent=True`` in Python).

The rules that every surface shares are here too, so that the surfaces carry none of their own:

* **the scope rule**: a collection whose corrections are scoped serves one scope at a time
  (:func:`scope_needed`), and a scope value given as text is the value the store holds
  (:func:`scope_value`: ``42`` and ``"42"`` are one user where the store holds one of them);
* **stored once**: a correction from another system is stored at most once per
  ``(source, source_id)`` (:func:`store`, :func:`correction_id`), in the scope its
  :class:`Audience` names;
* **the limits**: one page size (:data:`PAGE`), the most strings a correction may name
  (:data:`MAX_PHRASES`), text lengths, and one check of a reach limit (:func:`parse_max_reach`).

>>> from nowline.requests import LINE, parse_line  # doctest: +SKIP
>>> parse_line({"text": "Moved from a/b to c/d.", "deprecates": ["a/b"]})
CorrectionRequest(text='Moved from a/b to c/d.', deprecates=('a/b',), ...)
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from ._io.drive import drive, drive_async
from ._io.reads import PAGE
from ._rules.assembly import trip_metadata
from ._rules.guards import validate_correction
from ._rules.records import BY, OBSERVED_AT, in_scope
from ._rules.times import now, to_epoch
from ._rules.validate import (
    DEFAULT_MAX_REACH,
    MAX_PHRASE_LENGTH,
    MAX_PHRASES,
    REACH_FLOOR,
    check_max_reach,
    check_metadata,
    check_scope_key,
    json_kind,
    parse_about,
    parse_deprecates,
    parse_replaced_by,
    reach_limit,
    reserved_key,
    scope_needed,
    text_field,
)
from .errors import InvalidInput

if TYPE_CHECKING:
    from chromadb.api.types import Where

    from .collection import Collection

__all__ = [
    "API_SOURCE",
    "BODY",
    "DEFAULT_MAX_REACH",
    "LINE",
    "MAX_PHRASES",
    "MAX_PHRASE_LENGTH",
    "MAX_SOURCE_ID",
    "MAX_TEXT",
    "MAX_URL",
    "PAGE",
    "REACH_FLOOR",
    "Audience",
    "CorrectionRequest",
    "Form",
    "MemoryRequest",
    "ScopeValue",
    "Stored",
    "check_metadata",
    "check_scope_key",
    "correction_id",
    "drive",
    "drive_async",
    "in_scope",
    "json_kind",
    "now",
    "parse_correction",
    "parse_line",
    "parse_max_reach",
    "reach_limit",
    "reserved_key",
    "scope_needed",
    "scope_value",
    "store",
    "to_epoch",
    "trip_metadata",
    "validate_correction",
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

ScopeValue = str | int | float | bool
"""A scope value as a store holds it (a metadata value)."""

Time = str | int | float
"""A time as given: ISO 8601 text or epoch seconds."""


# ------------------------------------------------------------------------- requests


@dataclass(frozen=True)
class MemoryRequest:
    """A memory to store, as a surface received it, validated.

    Attributes:
        text: the memory's text.
        id: the record id to use, or None for a new one.
        metadata: the user metadata (checked: :func:`check_metadata`), or None.
        observed_at: when the fact was observed, as given, or None.
    """

    text: str
    id: str | None = None
    metadata: dict[str, Any] | None = None
    observed_at: Time | None = None


@dataclass(frozen=True)
class CorrectionRequest:
    """A correction to store, as a surface received it, validated; with where it came from.

    Attributes:
        text: the correction's text (what its now-line shows).
        deprecates: the exact outdated strings, stripped and de-duplicated.
        about: its anchors, if any.
        replaced_by: its new values, if given (else nowline reads them from ``text``).
        id: the record id to use: as given; else, with ``source_id``, the one derived from
            the source (:func:`correction_id`, so the same event names one record); else None
            for a new one.
        metadata: the user metadata to store with it, or None.
        observed_at: when the change happened, as given, or None for the moment it is stored.
        source: the system it came from (``github``, ``api``, ...), or None (typed by hand).
        source_id: the event's id in that system; with it the correction is stored once.
        source_url: a page about the change.
        scope: the scope value the request itself names (the JSON endpoint), or None.
        owner: the account the change belongs to (GitHub: the old name's owner), which an
            :class:`Audience` may map to a scope.
        allow_absent: accept deprecated strings that do not occur in ``text``.
        allow_generic: accept a generic string without an anchor.
        allow_person: accept a person's full name without an anchor.
        allow_unreached: store it even where it reaches nothing while the store names a near
            miss.
        max_reach: the reach limit, as ``Collection.correct()`` takes it.
    """

    text: str
    deprecates: tuple[str, ...]
    about: tuple[str, ...] = ()
    replaced_by: tuple[str, ...] | None = None
    id: str | None = None
    metadata: dict[str, Any] | None = None
    observed_at: Time | None = None
    source: str | None = None
    source_id: str | None = None
    source_url: str | None = None
    scope: ScopeValue | None = None
    owner: str | None = None
    allow_absent: bool = False
    allow_generic: bool = False
    allow_person: bool = False
    allow_unreached: bool = False
    max_reach: float | int | Literal["default"] | None = "default"

    def __post_init__(self) -> None:
        """Check the strings with the core's rules (the same as ``Collection.correct()``)."""
        object.__setattr__(self, "deprecates", parse_deprecates(list(self.deprecates)))
        object.__setattr__(self, "about", parse_about(list(self.about)))
        if self.replaced_by is not None:
            object.__setattr__(self, "replaced_by", parse_replaced_by(list(self.replaced_by)))
        if self.id is None and self.source_id is not None:
            object.__setattr__(self, "id", correction_id(self.source or API_SOURCE, self.source_id))

    def provenance(self) -> dict[str, str]:
        """Return the provenance metadata stored with the correction (empty when typed)."""
        meta = {} if self.source is None else {"source": self.source}
        if self.source_id is not None:
            meta["source_id"] = self.source_id
        if self.source_url is not None:
            meta["source_url"] = self.source_url
        return meta


def correction_id(source: str, source_id: str) -> str:
    """Return the record id of the correction from ``(source, source_id)``: always the same.

    A UUID (version 5) of the pair, so the same event stored twice names one record.
    """
    return str(uuid.uuid5(_NAMESPACE, f"{source}\n{source_id}"))


# ---------------------------------------------------------------------------- forms


@dataclass(frozen=True)
class Form:
    """How one surface spells the fields of a request: its own name -> the request's field.

    Attributes:
        name: what the surface calls a whole request in messages ("line", "body").
        fields: the surface's field names -> the request's (``body`` -> ``text``).
    """

    name: str
    fields: Mapping[str, str]

    def spelled(self, field_name: str) -> str:
        """Return the surface's name of a request field."""
        return next((k for k, v in self.fields.items() if v == field_name), field_name)


LINE = Form(
    "line",
    {k: k for k in ("text", "id", "metadata", "observed_at", "deprecates", "about", "replaced_by")},
)
"""A line of a JSON Lines import: ``text`` and optionally ``id``, ``metadata``,
``observed_at``, ``deprecates`` (a correction), ``about`` and ``replaced_by``."""

BODY = Form(
    "body",
    {
        "body": "text",
        "deprecates": "deprecates",
        "about": "about",
        "replaced_by": "replaced_by",
        "observed_at": "observed_at",
        "source": "source",
        "source_id": "source_id",
        "source_url": "source_url",
    },
)
"""The JSON body of the receiver's ``/corrections`` (and the scope key, on a scoped store)."""


def _fields(obj: object, form: Form, extra: Iterable[str] = ()) -> dict[str, Any]:
    """Return the request fields of a surface's object; refuse unknown ones, by their names."""
    if not isinstance(obj, dict):
        raise InvalidInput(f"The {form.name} is not a JSON object ({{...}}).")
    allowed = set(form.fields) | set(extra)
    unknown = sorted(str(k) for k in obj if k not in allowed)
    if unknown:
        raise InvalidInput(
            f"Unknown field {unknown[0]!r}; the fields are {', '.join(sorted(allowed))}."
        )
    return {form.fields.get(k, k): v for k, v in obj.items()}


def _optional_text(value: object, what: str, limit: int) -> str | None:
    """Return an optional text field, checked (None stays None)."""
    return None if value is None else text_field(value, what, limit=limit)


def _time(value: object, what: str) -> Time | None:
    """Return a time field as given, once it is known to be a time (None stays None)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InvalidInput(f"{what} must be ISO 8601 text or epoch seconds.")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(f"{what} must be a finite number.")
    to_epoch(value, what=what)
    return value


def _strings(value: object, what: str) -> list[str]:
    """Return a field of strings as a list (one string is a list of one), types checked."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise InvalidInput(f"{what} must be a string or a list of strings.")
    return cast(list[str], items)


def _optional_strings(value: object, what: str) -> tuple[str, ...] | None:
    """Return an optional field of strings (None stays None)."""
    return None if value is None else tuple(_strings(value, what))


def _scope(value: object, key: str) -> ScopeValue:
    """Return the scope value a request names for ``key``, checked."""
    if isinstance(value, float) or not isinstance(value, (str, int, bool)) or value == "":
        raise InvalidInput(f"{key} must be a non-empty string, an integer or a boolean.")
    return value


def parse_correction(
    obj: object, scope_key: str | None = None, *, form: Form = BODY
) -> CorrectionRequest:
    """Return the correction a surface's JSON object asks for (the receiver's body by default).

    The object has the form's text field and ``deprecates``, and optionally ``about``,
    ``replaced_by``,
    ``observed_at``, ``source`` (default ``api``), ``source_id``, ``source_url`` and, on a
    scoped store, the scope key's value. Nothing else is accepted. The guards that need a
    store (absent and generic strings are checked here; reach and near misses) run when it
    is stored.

    Raises:
        InvalidInput: a field is missing, unknown or unusable (named as the form spells it).
    """
    given = _fields(obj, form, [scope_key] if scope_key is not None else [])
    text_name = form.spelled("text")
    if "deprecates" not in given:
        raise InvalidInput("deprecates is missing: give the exact outdated strings.")
    scope = None
    if scope_key is not None and given.get(scope_key) is not None:
        scope = _scope(given[scope_key], scope_key)
    source = given.get("source", API_SOURCE)
    return CorrectionRequest(
        text=text_field(given.get("text"), text_name, limit=MAX_TEXT),
        deprecates=tuple(_strings(given["deprecates"], "deprecates")),
        about=tuple(_strings(given["about"], "about")) if given.get("about") is not None else (),
        replaced_by=_optional_strings(given.get("replaced_by"), "replaced_by"),
        observed_at=_time(given.get(OBSERVED_AT), "observed_at"),
        source=text_field(source, "source", limit=MAX_SOURCE_ID),
        source_id=_optional_text(given.get("source_id"), "source_id", MAX_SOURCE_ID),
        source_url=_optional_text(given.get("source_url"), "source_url", MAX_URL),
        scope=scope,
    )


def parse_line(
    obj: object,
    *,
    allow_absent: bool = False,
    allow_generic: bool = False,
    allow_person: bool = False,
) -> MemoryRequest | CorrectionRequest:
    """Return what a line of a JSON Lines import asks for: a memory, or a correction.

    A line with ``deprecates`` (at the top or in its metadata) is a correction, checked as
    ``correct()`` checks one without a store (:func:`validate_correction`): its strings and
    anchors, a string absent from its text, a generic string without an anchor.

    Raises:
        InvalidInput: the line would be refused (the message names the line's field).
    """
    given = _fields(obj, LINE)
    text = text_field(given.get("text"), "text")
    rid = given.get("id")
    if rid is not None and (not isinstance(rid, str) or not rid):
        raise InvalidInput("id must be a non-empty string; leave it out for a generated one.")
    meta = given.get("metadata")
    if meta is not None and not isinstance(meta, dict):
        raise InvalidInput("metadata must be a JSON object.")
    meta = check_metadata(meta)
    fields = {key: given.get(key) for key in ("deprecates", "about", "replaced_by")}
    if meta is not None:
        for key in fields:
            if key in meta:
                if fields[key] is not None:
                    raise InvalidInput(f"{key} is given both at the top level and in metadata.")
                fields[key] = meta.pop(key)
    observed = _time(given.get(OBSERVED_AT), "observed_at")
    deprecates, about, replaced_by = fields["deprecates"], fields["about"], fields["replaced_by"]
    if deprecates is None:
        if about is not None or replaced_by is not None:
            raise InvalidInput(
                "about and replaced_by need deprecates: only a correction has anchors and new "
                "values."
            )
        return MemoryRequest(text=text, id=rid, metadata=meta or None, observed_at=observed)
    phrases, anchors = validate_correction(
        text,
        cast(Any, deprecates),
        cast(Any, about),
        allow_absent=allow_absent,
        allow_generic=allow_generic,
        allow_person=allow_person,
        replaced_by=cast(Any, replaced_by),
    )
    return CorrectionRequest(
        text=text,
        deprecates=tuple(phrases),
        about=tuple(anchors),
        replaced_by=None if replaced_by is None else parse_replaced_by(replaced_by),
        id=rid,
        metadata=meta or None,
        observed_at=observed,
        allow_absent=allow_absent,
        allow_generic=allow_generic,
        allow_person=allow_person,
    )


def parse_max_reach(text: str) -> float | int | Literal["default"] | None:
    """Return a reach limit given as text: a share (``0.25``), a count (``500``), or a word.

    ``none`` is no limit, ``default`` the collection's own. The value is checked by the one
    rule ``Collection.correct()`` applies (a share in (0, 1], a count >= 0).

    Raises:
        InvalidInput: anything else.
    """
    word = text.strip().lower()
    if word in ("none", "default"):
        return None if word == "none" else "default"
    try:
        number: float | int = float(word) if "." in word else int(word)
        return check_max_reach(number)
    except (ValueError, InvalidInput):
        raise InvalidInput(
            "give a share of the store (0 < x <= 1, e.g. 0.25), a count (e.g. 500), 'none' "
            "or 'default'."
        ) from None


# ---------------------------------------------------------------------------- scope


def scope_value(collection: Collection, key: str, text: str) -> ScopeValue:
    """Return the stored value of scope ``key`` that ``text`` names (as a command line gives it).

    A scope value typed on a command line is text, while a store may hold numbers or
    booleans (``user_id=42``). The candidates are ``text`` itself and the JSON number or
    boolean it spells; the one the store holds (on any record) is returned, else ``text``.

    Raises:
        InvalidInput: the store holds several of them (``42`` and ``"42"``).
    """
    candidates: list[ScopeValue] = [text]
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, (bool, int, float)) and not isinstance(parsed, str):
        candidates.append(parsed)
    held = [
        value
        for value in candidates
        if collection.raw.get(where=cast("Where", {key: value}), limit=1, include=[])["ids"]
    ]
    if len(held) > 1:
        raise InvalidInput(
            f"The store holds {key}={held[0]!r} and {key}={held[1]!r}; give the value as "
            f'JSON in the metadata to say which (e.g. {{"{key}": {held[1]!r}}}).'
        )
    return held[0] if held else text


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


# --------------------------------------------------------------------------- storing


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


def _already(col: Collection, request: CorrectionRequest) -> Stored | None:
    """Return the stored correction of the request's ``(source, source_id)``, or None."""
    cid = request.id
    if cid is None or request.source_id is None:
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
            request's own, else the collection's).

    Returns:
        The correction's id and reach; ``created`` is False when the same ``(source,
        source_id)`` was stored before (nothing new was written).

    Raises:
        InvalidCorrection: the correction breaks a guard (absent or generic string, reach);
            nothing was written.
        InvalidInput: another argument is unusable; nothing was written.
    """
    found = _already(col, request)
    if found is not None:
        return found
    limit = request.max_reach if max_reach == "default" else max_reach
    try:
        report = col.correct(
            request.text,
            deprecates=list(request.deprecates),
            about=list(request.about) or None,
            replaced_by=None if request.replaced_by is None else list(request.replaced_by),
            id=request.id,
            metadata={**(request.metadata or {}), **request.provenance(), **(scope or {})} or None,
            observed_at=request.observed_at,
            max_reach=limit,
            allow_absent=request.allow_absent,
            allow_generic=request.allow_generic,
            allow_person=request.allow_person,
            # A forge's event is authoritative: a rename whose old name no memory holds yet
            # is still stored (the near-miss guard is for corrections a person or model typed).
            allow_unreached=request.allow_unreached or request.source == "github",
        )
    except InvalidInput:
        # Another writer (a second receiver, an import) may have stored it since the check.
        found = _already(col, request)
        if found is not None:
            return found
        raise
    return Stored(id=report.id, reached=report.reached, created=True)
