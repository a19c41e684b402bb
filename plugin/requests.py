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
* **stored once**: a correction from another system is stored at most once per ``(source,
  key)``, the key being what the sender vouched for (a signed body's digest, a ``source_id``
  under a token's own source), even when two writers store it at once (:func:`store`,
  :func:`correction_id`), in the scope its :class:`Audience` names;
* **the limits**: one page size (:data:`PAGE`), the most strings a correction may name
  (:data:`MAX_PHRASES`), text lengths, and one check of a reach limit (:func:`parse_max_reach`).

>>> from nowline.requests import LINE, parse_line  # doctest: +SKIP
>>> parse_line({"text": "Moved from a/b to c/d.", "deprecates": ["a/b"]})
CorrectionRequest(text='Moved from a/b to c/d.', deprecates=('a/b',), ...)
"""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from ._io.drive import drive, drive_async
from ._io.reads import PAGE
from ._rules.assembly import trip_metadata
from ._rules.guards import validate_correction
from ._rules.records import BY, OBSERVED_AT, first_naming, in_scope
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
    "RECEIPT",
    "Audience",
    "CorrectionRequest",
    "Form",
    "MemoryRequest",
    "ScopeValue",
    "Stored",
    "already_stored",
    "check_metadata",
    "check_scope_key",
    "correction_id",
    "drive",
    "drive_async",
    "first_naming",
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
    "scope_value_steps",
    "store",
    "to_epoch",
    "trip_metadata",
    "validate_correction",
    "web_url",
]

API_SOURCE = "api"
"""The ``source`` of a correction posted to the JSON endpoint without one."""

MAX_TEXT = 4000
"""The longest correction text accepted from another system (characters)."""

MAX_SOURCE_ID = 200
"""The longest ``source`` or ``source_id`` accepted (characters)."""

MAX_URL = 2000
"""The longest ``source_url`` accepted (characters)."""

_WEB_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f]+", re.IGNORECASE)


def web_url(value: object, what: str = "source_url") -> str | None:
    """Return a page's address as given, once it is an ``http(s)://`` URL (None stays None).

    The one rule of a correction's ``source_url``, from a JSON body or a GitHub payload:
    another scheme (``javascript:``, ``file:``), a space or a control character, or more
    than :data:`MAX_URL` characters is refused.

    Raises:
        InvalidInput: the value is not such a URL (the message says what it must be).
    """
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_URL or not _WEB_URL.fullmatch(value):
        raise InvalidInput(
            f"{what} must be an http:// or https:// address without spaces, at most "
            f"{MAX_URL} characters."
        )
    return value


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
        source_id: the event's id in that system (shown; stored once by it unless ``key``).
        source_url: a page about the change.
        key: what "stored once" is decided by, where it is not ``source_id``: for a signed
            webhook, the digest of the signed body (:func:`nowline.github_events.event_key`),
            never an unsigned header.
        scope: the scope value the request itself names (the JSON endpoint), or None.
        owner: the account the change belongs to (GitHub: the old name's owner), which an
            :class:`Audience` may map to a scope.
        allow_absent: accept deprecated strings that do not occur in ``text``.
        allow_generic: accept a generic string without an anchor.
        allow_person: accept a person's full name without an anchor.
        allow_unreached: store it even where it reaches nothing while the store names a near
            miss (a forge's own signed event is authoritative; the sender's claims never set
            it).
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
    key: str | None = None
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
        key = self.once_key
        if self.id is None and key is not None:
            object.__setattr__(self, "id", correction_id(self.source or API_SOURCE, key))

    @property
    def once_key(self) -> str | None:
        """Return what "stored once" is decided by: ``key``, else ``source_id``, else None."""
        return self.key if self.key is not None else self.source_id

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
    if isinstance(value, str) and len(value) > MAX_SOURCE_ID:
        raise InvalidInput(f"{key} must be at most {MAX_SOURCE_ID} characters.")
    return value


def parse_correction(
    obj: object,
    scope_key: str | None = None,
    *,
    form: Form = BODY,
    source: str = API_SOURCE,
) -> CorrectionRequest:
    """Return the correction a surface's JSON object asks for (the receiver's body by default).

    The object has the form's text field and ``deprecates``, and optionally ``about``,
    ``replaced_by``, ``observed_at``, ``source``, ``source_id``, ``source_url`` and, on a
    scoped store, the scope key's value. Nothing else is accepted. The source is the
    caller's to set (the receiver's token names it), never the object's to claim: a
    ``source`` field may only repeat it. The guards that need a store (absent and generic
    strings are checked here; reach and near misses) run when it is stored.

    Args:
        obj: the parsed JSON object.
        scope_key: the store's scope key (its value is then a field), or None.
        form: how the surface spells the fields.
        source: the source the caller vouches for (the token's).

    Raises:
        InvalidInput: a field is missing, unknown or unusable (named as the form spells it),
            or ``source`` names another source than the caller's.
    """
    given = _fields(obj, form, [scope_key] if scope_key is not None else [])
    text_name = form.spelled("text")
    if "deprecates" not in given:
        raise InvalidInput("deprecates is missing: give the exact outdated strings.")
    claimed = given.get("source")
    if claimed is not None and claimed != source:
        shown = repr(claimed) if isinstance(claimed, str) and len(claimed) <= 64 else "another"
        raise InvalidInput(
            f"source {shown} is not this token's: its corrections are stored with source "
            f"{source!r}. Leave source out (the receiver sets it from the token), or send "
            "with a token configured for that source."
        )
    scope = None
    if scope_key is not None and given.get(scope_key) is not None:
        scope = _scope(given[scope_key], scope_key)
    return CorrectionRequest(
        text=text_field(given.get("text"), text_name, limit=MAX_TEXT),
        deprecates=tuple(_strings(given["deprecates"], "deprecates")),
        about=tuple(_strings(given["about"], "about")) if given.get("about") is not None else (),
        replaced_by=_optional_strings(given.get("replaced_by"), "replaced_by"),
        observed_at=_time(given.get(OBSERVED_AT), "observed_at"),
        source=text_field(source, "source", limit=MAX_SOURCE_ID),
        source_id=_optional_text(given.get("source_id"), "source_id", MAX_SOURCE_ID),
        source_url=web_url(given.get("source_url")),
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


_TYPE_SAMPLE = 200  # records read to learn the type a store holds for a scope key


def _spellings(value: ScopeValue) -> list[ScopeValue]:
    """Return ``value`` and the other ways of writing it: its JSON text, or the JSON it spells."""
    out: list[ScopeValue] = [value]
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        if isinstance(parsed, bool) or (isinstance(parsed, (int, float)) and math.isfinite(parsed)):
            out.append(parsed)
    elif not (isinstance(value, float) and not math.isfinite(value)):
        out.append(json.dumps(value))
    return out


def _same(a: object, b: object) -> bool:
    """Return whether two metadata values are the same value of the same type (1 is not True)."""
    return type(a) is type(b) and a == b


def scope_value(collection: Collection, key: str, value: ScopeValue) -> ScopeValue:
    """Return the value of scope ``key`` the store holds for ``value``: the one scope rule.

    A scope value often arrives in another type than the store holds: a command line gives
    text (``--scope 42``) where the store's records hold the number ``42``, a JSON body may
    say ``"42"`` or ``42``, a program binds its tools to a user id it read as text. Every
    surface (``check``, ``recall``, ``serve``, the import, the MCP server's ``--scope``, the
    memory tools' binding) types it here, the same way:

    1. the candidates are ``value`` and its other spelling (the JSON number or boolean a
       text spells, or a number's or boolean's JSON text);
    2. the one a record of the store holds is the value (several: refused, ambiguous);
    3. where no record holds any, the type the store's records hold for ``key`` decides
       (read from the first records that carry it): text that spells a number becomes that
       number where they all hold numbers, a number becomes text where they all hold text;
       otherwise ``value`` stays as given.

    :func:`scope_value_steps` is the same rule as steps, for a caller that drives its own
    calls (sync or async).

    Raises:
        InvalidInput: the store holds several of them (``42`` and ``"42"``).
    """
    return drive(scope_value_steps(key, value), lambda kwargs: collection.raw.get(**kwargs))


def scope_value_steps(key: str, value: ScopeValue) -> Generator[dict[str, Any], Any, ScopeValue]:
    """Return :func:`scope_value` as steps: each is the keywords of one ``get`` of the store.

    The caller carries out each step (``collection.get(**step)``, awaited on an async
    collection) and sends back its result; the generator returns the typed value.

    Raises:
        InvalidInput: the store holds several of them (``42`` and ``"42"``).
    """
    candidates = _spellings(value)
    if len(candidates) == 1:
        return value  # no other spelling ("alice"): nothing to ask the store
    held = []
    for candidate in candidates:
        got = yield {"where": {key: candidate}, "limit": 1, "include": []}
        if got["ids"]:
            held.append(candidate)
    if len(held) > 1:
        raise InvalidInput(
            f"The store holds {key}={held[0]!r} and {key}={held[1]!r}, which are one scope "
            f"written two ways; nowline cannot tell which is meant. Give every record of that "
            f"scope one {key} (text or number), then try again."
        )
    if held:
        return held[0]
    got = yield {"limit": _TYPE_SAMPLE, "include": ["metadatas"]}
    metas = got["metadatas"] or []
    kinds = {type(m[key]) for m in metas if m is not None and m.get(key) is not None}
    other = candidates[1]
    return other if kinds == {type(other)} else value


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

    def typed(self, collection: Collection) -> Audience:
        """Return this audience with every scope value as ``collection`` holds it.

        :func:`scope_value` types each (``--scope 42`` is the number 42 where the store's
        records hold numbers), so a received correction reaches the records it names.

        Raises:
            InvalidInput: a value is ambiguous in this store (see :func:`scope_value`).
        """
        key = self.scope_key
        if key is None:
            return self
        default = None if self.default is None else scope_value(collection, key, self.default)
        owners = {o: scope_value(collection, key, v) for o, v in self.owners.items()}
        return Audience(scope_key=key, default=default, owners=owners)

    def only(self, scope: ScopeValue | None) -> Audience:
        """Return this audience narrowed to ``scope`` (a token's), or itself for None."""
        if scope is None:
            return self
        return Audience(scope_key=self.scope_key, default=scope)

    def metadata(
        self, request: CorrectionRequest, collection: Collection | None = None
    ) -> dict[str, ScopeValue] | None:
        """Return the scope metadata to store ``request`` with (None on an unscoped store).

        Args:
            request: the correction received.
            collection: the store; with it the scope the request names is typed as the
                store holds it (:func:`scope_value`), so ``"42"`` and ``42`` are one scope.

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
            asked = request.scope
            if collection is not None:
                asked = scope_value(collection, self.scope_key, asked)
            if configured is not None and not _same(asked, configured):
                raise InvalidInput(
                    f"This receiver stores into {self.scope_key}={configured!r} only; leave "
                    f"{self.scope_key!r} out or give that value."
                )
            return {self.scope_key: asked}
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
        created: False when the same ``(source, source_id)`` was already stored, or when
            a correction of the same change stands (``id`` is then that correction's).
    """

    id: str
    reached: int
    created: bool


RECEIPT = "source_receipt"
"""The metadata key of a received correction's receipt: a random id of the write that stored
it, so that two writers storing one event at once can tell which write the store kept."""


def already_stored(col: Collection, request: CorrectionRequest) -> Stored | None:
    """Return the stored correction of the request's ``(source, key)``, or None.

    What :func:`store` answers without writing: a dry run counts with it.

    Raises:
        InvalidInput: the record of that id exists but was not stored from that source and
            key.
    """
    cid = request.id
    if cid is None or request.once_key is None:
        return None
    got = col.get(ids=[cid], include=["metadatas"])
    if not got["ids"]:
        return None
    metas = got["metadatas"] or []
    meta = (metas[0] if metas else None) or {}
    same_key = request.key is not None or meta.get("source_id") == request.source_id
    if meta.get("source") != request.source or not same_key:
        raise InvalidInput(
            f"The record {cid!r} exists but was not stored from {request.source} "
            f"{request.once_key!r}; nothing was written."
        )
    return Stored(id=cid, reached=_linked(col, cid), created=False)


def _linked(col: Collection, cid: str) -> int:
    """Return how many records store a link to correction ``cid``."""
    return len(col.get(where=cast("Where", {BY: {"$contains": cid}}), include=[])["ids"])


def _kept(col: Collection, cid: str, receipt: str) -> bool:
    """Return whether the stored correction ``cid`` is this write's (its receipt is ours)."""
    got = col.get(ids=[cid], include=["metadatas"])
    metas = got["metadatas"] or []
    meta = (metas[0] if metas else None) or {}
    return meta.get(RECEIPT) == receipt


def store(
    col: Collection,
    request: CorrectionRequest,
    scope: Mapping[str, Any] | None = None,
    *,
    max_reach: float | int | Literal["default"] | None = "default",
) -> Stored:
    """Store ``request`` as a correction with its provenance, once per source and key.

    A request with a key (``source_id``, or the digest of a signed body) names one record id
    (:func:`correction_id`), so the same event is stored once: a second store of it writes
    nothing and says so (``created`` False). Two writers that store it at the same moment
    (two receivers on one Chroma server) both pass the first check; Chroma keeps the first
    add of an id, and each write carries a random receipt (:data:`RECEIPT`), so the writer
    whose receipt the stored record holds answers "created" and the other "already stored".

    Args:
        col: the nowline collection.
        request: what to store.
        scope: the scope metadata (from :meth:`Audience.metadata`), or None.
        max_reach: the reach limit, as ``Collection.correct()`` takes it (default: the
            request's own, else the collection's).

    Returns:
        The correction's id and reach; ``created`` is False when the same ``(source, key)``
        was stored before, or the same change stands from elsewhere (a person's correction
        before the webhook's): nothing new was written, and the id is the stored one's.

    Raises:
        InvalidCorrection: the correction breaks a guard (absent or generic string, reach);
            nothing was written.
        InvalidInput: another argument is unusable; nothing was written.
    """
    found = already_stored(col, request)
    if found is not None:
        return found
    limit = request.max_reach if max_reach == "default" else max_reach
    receipt = {RECEIPT: uuid.uuid4().hex} if request.id is not None and request.once_key else {}
    try:
        report = col.correct(
            request.text,
            deprecates=list(request.deprecates),
            about=list(request.about) or None,
            replaced_by=None if request.replaced_by is None else list(request.replaced_by),
            id=request.id,
            metadata={
                **(request.metadata or {}),
                **request.provenance(),
                **receipt,
                **(scope or {}),
            }
            or None,
            observed_at=request.observed_at,
            max_reach=limit,
            allow_absent=request.allow_absent,
            allow_generic=request.allow_generic,
            allow_person=request.allow_person,
            allow_unreached=request.allow_unreached,
        )
    except InvalidInput:
        # Another writer (a second receiver, an import) may have stored it since the check.
        found = already_stored(col, request)
        if found is not None:
            return found
        raise
    if not report.stored:  # the same change stands, from another source or key
        return Stored(id=report.id, reached=report.reached, created=False)
    if receipt and not _kept(col, report.id, receipt[RECEIPT]):
        return Stored(id=report.id, reached=_linked(col, report.id), created=False)
    return Stored(id=report.id, reached=report.reached, created=True)
