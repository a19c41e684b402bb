"""Input validation: one validate-and-prepare step per verb, and the correction guards.

chromadb's own validators run first, wrapped the way chromadb wraps them, so a call nowline
refuses fails with the error chromadb would raise for it (same class, same message). nowline's
own rules follow: the deprecated strings and anchors of a correction, the generic-string and
absent-string guards, times, reach limits, and the arguments of nowline's verbs. Everything is
checked before anything is stored; nothing here does I/O or embeds.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

from chromadb.api.models.CollectionCommon import validation_context
from chromadb.api.types import (
    Where,
    WhereDocument,
    maybe_cast_one_to_many,
    normalize_base_record_set,
    normalize_insert_record_set,
    validate_base_record_set,
    validate_batch,
    validate_filter_set,
    validate_include,
    validate_insert_record_set,
    validate_n_results,
    validate_record_set_contains_any,
    validate_record_set_for_embedding,
)
from chromadb.types import Metadata

from ..errors import (
    InvalidCorrection,
    InvalidInput,
    OutOfRange,
)
from ..matchers import Matcher, fold
from ..terms import active
from . import records as R
from .times import to_epoch
from .verbs import GetArgs, InsertArgs, QueryArgs, as_kwargs

__all__ = [
    "DEFAULT_MAX_REACH",
    "MAX_COUNT",
    "MAX_PHRASES",
    "MAX_PHRASE_LENGTH",
    "REACH_FLOOR",
    "InsertRequest",
    "QueryRequest",
    "Settled",
    "anchors_kept",
    "check_flag",
    "check_max_reach",
    "check_metadata",
    "check_scope_key",
    "chroma_range",
    "correct_metadata",
    "get_request",
    "insert_request",
    "json_kind",
    "metadata_arg",
    "needs_total",
    "new_id",
    "parse_about",
    "parse_deprecates",
    "parse_replaced_by",
    "positive_int",
    "query_request",
    "reach_limit",
    "reserved_key",
    "scope_needed",
    "text_arg",
    "text_field",
    "time_arg",
    "values_settled",
]

DEFAULT_MAX_REACH = 0.25
"""By default a correction may reach at most this share of the store's records..."""

REACH_FLOOR = 100
"""...but a share-based limit never refuses a correction that reaches this many or fewer."""

MAX_PHRASE_LENGTH = 500
"""Longest deprecated string (or anchor) accepted, in characters."""

MAX_PHRASES = 100
"""Most deprecated strings (or anchors) one correction may name."""

Verb = Literal["add", "upsert", "update"]


# ------------------------------------------------------------------- small checks


def text_arg(text: object, what: str = "text") -> str:
    """Return ``text`` if it is a usable str (lone surrogates cannot be stored)."""
    if not isinstance(text, str):
        raise InvalidInput(f"Expected text (a str) for {what}, got {type(text).__name__}.")
    _encodable(text, what)
    return text


def text_field(value: object, what: str, *, limit: int | None = None) -> str:
    """Return ``value`` if it is text that can be stored as a record's text from outside.

    A str, not blank, at most ``limit`` characters, without lone surrogates: the one rule for
    a memory's or a correction's text that arrives in a tool call, a line or a request body.

    Raises:
        InvalidInput: naming ``what`` (the caller's own name of the field).
    """
    if value is None:
        raise InvalidInput(f"{what} is missing.")
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, not {json_kind(value)}.")
    if not value.strip():
        raise InvalidInput(f"{what} is empty.")
    if limit is not None and len(value) > limit:
        raise InvalidInput(f"{what} is longer than {limit:,} characters.")
    _encodable(value, what)
    return value


def json_kind(value: object) -> str:
    """Return what a value parsed from JSON is, in words ("an array", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    kinds: dict[type, str] = {list: "an array", dict: "an object", str: "a string"}
    return kinds.get(type(value), type(value).__name__)


def _encodable(text: str, what: str, error: type[InvalidInput] = InvalidInput) -> None:
    """Refuse text with lone surrogate code points, which Chroma cannot store."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise error(
            f"{what} contains a lone surrogate code point, which cannot be stored; decode the "
            "text properly (e.g. errors='replace')."
        ) from None


def new_id(rid: object) -> str:
    """Return ``rid``, or a new UUID4 string when it is None."""
    if rid is None:
        import uuid

        return str(uuid.uuid4())
    if not isinstance(rid, str) or not rid:
        terms = active()
        if terms.name == "python":
            raise InvalidInput("id must be a non-empty str (or None for a generated one).")
        raise InvalidInput(
            f"{terms.name_of('id')} must not be empty; leave it out for a generated one."
        )
    _encodable(rid, "id")
    return rid


def check_flag(value: object, name: str) -> bool:
    """Return ``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be True or False, not {value!r}.")
    return value


MAX_COUNT = 2**31 - 1
"""The largest count or position nowline's own verbs take (Chroma's are 32-bit)."""


def positive_int(value: object, name: str) -> int:
    """Return ``value`` if it is an int from 1 to :data:`MAX_COUNT`."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidInput(f"{name} must be a positive int, not {value!r}.")
    if value > MAX_COUNT:
        raise OutOfRange(f"{name} must be at most {MAX_COUNT:,}, not {value:,}.")
    return value


def chroma_range(value: object, name: str) -> None:
    """Refuse an int ``limit`` or ``offset`` that Chroma cannot represent (it overflows).

    chromadb raises OverflowError for these; nowline pages its reads and would otherwise
    return rows instead. Other types go on to chromadb's own checks.
    """
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value < 2**32:
        raise OutOfRange(
            f"{name} must be from 0 to {2**32 - 1:,} (Chroma counts in 32 bits), not {value:,}."
        )


def metadata_arg(metadata: object) -> dict[str, Any] | None:
    """Return a nowline verb's ``metadata`` argument as a dict (None stays None).

    nowline's own verbs refuse what Chroma would store wrongly or fail on late: keys that are
    not text, lone surrogates, and NaN or infinite numbers (Chroma drops them silently).
    """
    if metadata is None:
        return None
    if not isinstance(metadata, Mapping):
        raise InvalidInput(f"metadata must be a mapping, not {type(metadata).__name__}.")
    for key, value in metadata.items():
        if not isinstance(key, str):
            raise InvalidInput(f"Metadata keys must be str, got {key!r}.")
        _encodable(key, "a metadata key")
        if isinstance(value, str):
            _encodable(value, f"metadata {key!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput(
                f"Metadata {key!r} is {value}; Chroma would drop it silently. Store a finite "
                "number, or leave the key out."
            )
    return dict(metadata)


def time_arg(value: object, what: str) -> float | None:
    """Return a time argument as epoch seconds (None stays None)."""
    return None if value is None else to_epoch(value, what=what)


def check_max_reach(value: object) -> float | int | None:
    """Return a ``max_reach`` setting if it is valid."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput("max_reach must be a share (0 < float <= 1), a count (int) or None.")
    if isinstance(value, float) and not 0 < value <= 1:
        raise InvalidInput("max_reach as a share must be in (0, 1].")
    if isinstance(value, int) and value < 0:
        raise InvalidInput("max_reach as a count must be >= 0.")
    return value


def reach_limit(setting: float | int | None, total: int) -> int | None:
    """Return the largest reach a setting allows in a store of ``total`` records."""
    if setting is None:
        return None
    if isinstance(setting, float):
        return max(REACH_FLOOR, math.floor(setting * total))
    return setting


def needs_total(setting: float | int | None, reaches: Iterable[int]) -> bool:
    """Return whether judging these reaches against ``setting`` needs the store's size.

    A limit never shrinks as the store grows (:func:`reach_limit`), so a reach within the
    limit of an empty store is within the limit of any: the store need not be counted.
    """
    least = reach_limit(setting, 0)
    return least is not None and any(reach > least for reach in reaches)


# ------------------------------------------------------------- correction strings


def _phrases(value: object, what: str, *, allow_empty: bool) -> tuple[str, ...]:
    """Return a list of strings, stripped and de-duplicated, or raise InvalidCorrection.

    One string is one entry, unless it is a JSON array of strings (``'["a/b"]'``, as agno
    flattens lists): then it is that list.
    """
    what = active().name_of(what)  # the caller's name of the parameter (--deprecates)
    listed = R.json_string_list(value)
    items = listed if listed is not None else [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise InvalidCorrection(
            f"{what} must be a list of strings (or one string), not {type(value).__name__}."
        )
    if not items and not allow_empty:
        raise InvalidCorrection(
            f"{what} is empty; list the exact outdated strings, or leave the key out for a "
            "plain memory."
        )
    if len(items) > MAX_PHRASES:
        raise InvalidCorrection(
            f"{what} lists {len(items)} strings; at most {MAX_PHRASES} are accepted. Split "
            "the correction by topic."
        )
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise InvalidCorrection(
                f"Every string in {what} must be a str; got {type(item).__name__} ({item!r})."
            )
        s = item.strip()
        if not s:
            raise InvalidCorrection(
                f"A string in {what} is empty or whitespace; give the exact text."
            )
        if len(s) > MAX_PHRASE_LENGTH:
            raise InvalidCorrection(
                f"A string in {what} is {len(s)} characters long; at most {MAX_PHRASE_LENGTH} "
                "are accepted. Name the outdated identifier, not a passage."
            )
        _encodable(s, what, InvalidCorrection)
        if not any(c.isalnum() for c in fold(s)):
            raise InvalidCorrection(
                f"The string {s!r} in {what} has no letter or digit, so it would match "
                "separators everywhere; give the name itself."
            )
        _visible_ends(s, what)
        if s not in out:
            out.append(s)
    return tuple(out)


def _visible_ends(s: str, what: str) -> None:
    """Refuse a string that begins or ends with an invisible character (a format or control).

    A zero-width space, a byte order mark or a NUL pasted with the string is not in the
    memories that write it, so the string would match nothing (an adversarial review stored
    ``"acme/app\u200b"`` with no reach, where ``"acme/apq"`` is refused as a near miss).
    """
    for end, c in (("begins", s[0]), ("ends", s[-1])):
        if unicodedata.category(c) in ("Cf", "Cc"):
            name = unicodedata.name(c, "a control character")
            raise InvalidCorrection(
                f"The string {s!r} in {what} {end} with an invisible character (U+{ord(c):04X} "
                f"{name}), which the memories do not write; give the string without it."
            )


def parse_deprecates(value: object) -> tuple[str, ...]:
    """Return a correction's deprecated strings, stripped and de-duplicated.

    Raises:
        InvalidCorrection: the value is not a non-empty list of usable strings.
    """
    return _phrases(value, "deprecates", allow_empty=False)


def anchors_kept(
    deprecates: Sequence[str], about: Sequence[str], text: str | None = None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the anchors that narrow, and those dropped, with a note in the report.

    Three kinds of anchor are dropped, not refused:

    - an anchor that occurs in a deprecated string (``about=["acme"]`` for ``acme/app``), or
      is one (``about=["39"]`` for ``["39"]``): it holds wherever that string holds, so it
      narrows nothing; kept, the anchor that is a deprecated string would even undo the others
      (a record needs one anchor of them, and that one it always names). Measured on the
      writer benchmark: a small model puts the deprecated string among its anchors in a third
      of its calls;
    - every anchor of a correction whose deprecated strings are all identifiers (``org/repo``,
      a URL, a host, ``#chan``, an email address: :func:`~nowline._rules.generic.is_identifier`;
      not a person's hyphenated name, :func:`~nowline._rules.generic.is_person_name`).
      An identifier names one thing, and a correction of it holds wherever it is written: in a
      memory that never names the subject, and in a command (``git clone``) that ``check()``
      and the hook read, which names no subject at all. Measured on the writer benchmark: a
      small model fills ``about`` on nearly every call, and beside identifiers its anchors
      left stale memories unmarked in 7 of 98 calls while they never marked the right ones
      where the call without them did not;
    - an anchor that the correction's text presents as a new value only ("changed to 020 7946
      0321"): the stale memories name the old value, not what replaced it. Measured on the
      writer benchmark: a small model lists the new value among its anchors beside a number.
    """
    from .generic import is_identifier, is_person_name

    # a person's hyphenated name ("Kareem Abdul-Jabbar") is shaped as an identifier, yet a
    # person rarely stops existing: its anchors narrow, as any person's do
    if deprecates and about and all(is_identifier(p) and not is_person_name(p) for p in deprecates):
        return (), tuple(about)
    olds, news = _read_values(text) if about else (frozenset(), frozenset())
    news -= olds
    kept: list[str] = []
    dropped: list[str] = []
    for anchor in about:
        inside = any(bool(Matcher([(anchor, 0)]).find(p)) for p in deprecates)
        (dropped if inside or fold(anchor) in news else kept).append(anchor)
    return tuple(kept), tuple(dropped)


def _read_values(text: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """Return the values ``text``'s wording presents as old and as new, folded.

    The wording alone, without the writer's strings as hints: it settles what the writer's
    fields mix up (:func:`values_settled`, :func:`anchors_kept`). Empty without a text.
    """
    from .wording import read_changes

    if not text:
        return frozenset(), frozenset()
    changes = read_changes(text)
    olds = frozenset(fold(c.old) for c in changes if c.old is not None)
    return olds, frozenset(fold(c.new) for c in changes if c.new is not None)


@dataclass(frozen=True)
class Settled:
    """A correction's old and new values once its wording has settled what its fields mix up.

    Attributes:
        deprecates: the old values kept.
        replaced_by: the new values kept (as given, less those the text calls old).
        dropped_old: deprecated strings dropped: new values by the fields or by the text.
        dropped_new: strings given as both, kept as old only because the text calls them old.
    """

    deprecates: tuple[str, ...]
    replaced_by: tuple[str, ...]
    dropped_old: tuple[str, ...] = ()
    dropped_new: tuple[str, ...] = ()


def values_settled(
    deprecates: Sequence[str], replaced_by: Sequence[str], text: str | None = None
) -> Settled:
    """Return the old and new values kept where a writer's fields contradict each other.

    A string given both in ``deprecates`` and in ``replaced_by`` carries no sign of which it
    is, so the correction's own wording (:mod:`~nowline._rules.wording`) settles it where it
    is sure, and nothing is guessed where it is not:

    - the text presents it as old only ("ci.saltire.dev is switched off"): it stays in
      ``deprecates`` and leaves ``replaced_by``;
    - otherwise it is dropped from ``deprecates`` while other old values remain
      (``deprecates=["600", "1200"], replaced_by=["1200"]``);
    - where none remain, nothing is dropped, and the new-value guard refuses the correction.

    A deprecated string that the text presents as new only ("changed to s3://b-eu"), or that
    is a given new value in another spelling (``github.com/acme/app2`` for ``acme/app2``),
    given beside other old values, is dropped the same way. Measured on the writer benchmark: a
    small model copies the same strings into both fields in about one call in six, and its
    retry repeated the mix-up.

    Args:
        deprecates: the old values as given.
        replaced_by: the new values as given (empty: none given).
        text: the correction's text; None when it is not known (an update of metadata alone).
    """
    olds, news = _read_values(text)
    given = {fold(v) for v in replaced_by}

    def old_only(p: str) -> bool:
        return fold(p) in olds and fold(p) not in news

    def given_new(p: str) -> bool:  # in any spelling: github.com/acme/app2 for acme/app2
        return any(R.same_value(p, v) for v in replaced_by)

    def said_new(p: str) -> bool:
        return fold(p) not in olds and any(R.same_value(p, v) for v in news)

    as_old = {fold(p) for p in deprecates if fold(p) in given and old_only(p)}
    new_too = [p for p in deprecates if fold(p) not in as_old and (given_new(p) or said_new(p))]
    if len(new_too) == len(deprecates):
        new_too = []  # which is old is not known: the new-value guard refuses it
    kept = tuple(p for p in deprecates if p not in new_too)
    return Settled(
        deprecates=kept,
        replaced_by=tuple(v for v in replaced_by if fold(v) not in as_old),
        dropped_old=tuple(new_too),
        dropped_new=tuple(v for v in replaced_by if fold(v) in as_old),
    )


def parse_replaced_by(value: object) -> tuple[str, ...]:
    """Return a correction's new values (``replaced_by``), stripped and de-duplicated.

    Raises:
        InvalidCorrection: the value is not a list of usable strings.
    """
    if value is None:
        return ()
    return _phrases(value, "replaced_by", allow_empty=True)


def parse_about(value: object) -> tuple[str, ...]:
    """Return a correction's anchors (``about``), stripped and de-duplicated (may be empty).

    Raises:
        InvalidCorrection: the value is not a list of usable strings.
    """
    if value is None:
        return ()
    return _phrases(value, "about", allow_empty=True)


# ------------------------------------------------- public rules for the adapters
# Thin public wrappers over the rules above, so that the CLI, the tools and the MCP server
# call the library instead of keeping their own copies (DESIGN §11).


def reserved_key(key: str) -> bool:
    """Return whether a metadata key is nowline's own, never a user's key of its choosing.

    nowline's bookkeeping keys start with ``nowline_``, and ``deprecates``, ``about`` and
    ``replaced_by`` are a correction's fields: none of them can select a scope, and no caller
    may write a bookkeeping key (``Collection`` writes drop them; an import refuses them).

    >>> reserved_key("nowline_role"), reserved_key("about"), reserved_key("user_id")
    (True, True, False)
    """
    return key.startswith(R.PREFIX) or key in (R.DEPRECATES, R.ABOUT, R.REPLACED_BY)


def check_scope_key(key: object) -> str | None:
    """Return ``key`` if it can be a scope key (a non-empty user key), or None for None.

    Raises:
        InvalidInput: ``key`` is not a non-empty str, or it is reserved (:func:`reserved_key`).
    """
    if key is None:
        return None
    if not isinstance(key, str) or not key:
        raise InvalidInput("scope_key must be a non-empty metadata key (a str), or None.")
    if reserved_key(key):
        raise InvalidInput(
            f"{key!r} is reserved by nowline and cannot be a {active().name_of('scope_key')}; "
            "give the user metadata key "
            "(e.g. user_id) that separates scopes."
        )
    return key


def scope_needed(
    scope_key: str | None, scope_keys: Iterable[str], metadata: Mapping[str, Any] | None
) -> str | None:
    """Return the scope key a caller's ``metadata`` must carry but does not, else None.

    A collection whose corrections are scoped (a ``scope_key``, or corrections that all carry
    one key) serves one scope at a time: a check, a tool call or a served session without
    the scope's value would mix users' corrections or write unscoped ones.

    Args:
        scope_key: the wrapper's scope key (``Collection.scope_key``).
        scope_keys: the keys the collection's corrections carry (``Collection.scope_keys``).
        metadata: the caller's metadata, which selects the scope.
    """
    keys = sorted(set(scope_keys))
    key = scope_key or (keys[0] if len(keys) == 1 else None)
    if key is None or (metadata is not None and key in metadata):
        return None
    return key


def check_metadata(metadata: object) -> dict[str, Any] | None:
    """Return a record's metadata if nowline and Chroma can store it exactly as given.

    What ``remember()`` and an import accept, checked before anything is written: a mapping
    of str keys to a str, int, float or bool, or a non-empty list of one of those (None
    values are dropped); no bookkeeping key (``nowline_...``); finite numbers (Chroma drops
    NaN silently); an ``observed_at`` that is a time. ``deprecates`` and ``about`` are left
    for :func:`validate_correction`.

    Raises:
        InvalidInput: the metadata would be refused or stored wrongly.
    """
    meta = metadata_arg(metadata)
    if meta is None:
        return None
    out: dict[str, Any] = {}
    for key, value in meta.items():
        if key.startswith(R.PREFIX):
            raise InvalidInput(f"Metadata key {key!r} is reserved for nowline's bookkeeping.")
        if value is None:
            continue
        if key not in (R.DEPRECATES, R.ABOUT, R.REPLACED_BY) and not _storable(value):
            raise InvalidInput(
                f"Metadata {key!r} must be a str, int, float or bool, or a non-empty list of "
                "one of those."
            )
        if isinstance(value, list):
            for item in value:
                if isinstance(item, float) and not math.isfinite(item):
                    raise InvalidInput(f"Metadata {key!r} holds {item}; Chroma cannot store it.")
        out[key] = value
    if out.get(R.OBSERVED_AT) is not None:
        to_epoch(out[R.OBSERVED_AT])
    return out


def _storable(value: object) -> bool:
    """Return whether Chroma stores ``value`` as a metadata value, as given."""
    scalar = (str, int, float, bool)
    if isinstance(value, scalar):
        return True
    if isinstance(value, list) and value:
        kinds = {type(v) for v in value}
        return len(kinds) == 1 and isinstance(value[0], scalar)
    return False


def correct_metadata(
    metadata: Mapping[str, Any] | None,
    deprecates: object,
    about: object,
    observed_at: object,
    replaced_by: object = None,
) -> dict[str, Any]:
    """Return the metadata a ``correct()`` call stores (validated; anchors as given)."""
    if deprecates is None:
        raise InvalidCorrection("correct() needs deprecates: the exact outdated strings.")
    meta = metadata_arg(metadata) or {}
    if observed_at is not None:
        to_epoch(observed_at)
        meta[R.OBSERVED_AT] = observed_at
    meta[R.DEPRECATES] = list(parse_deprecates(deprecates))
    fields = ((R.ABOUT, parse_about(about)), (R.REPLACED_BY, parse_replaced_by(replaced_by)))
    for key, values in fields:
        if values:
            meta[key] = list(values)
        else:
            meta.pop(key, None)
    return meta


# ---------------------------------------------------------------- chromadb verbs


@dataclass(frozen=True)
class InsertRequest:
    """A validated add, upsert or update.

    Attributes:
        op: the verb.
        ids: the records' ids.
        embeddings: the caller's embeddings (normalised), or None to embed.
        record_set: chromadb's normalised record set (for embedding).
        metadatas: the caller's metadata patches, nowline keys removed (None: none given).
        documents: the documents to store, nowline's lines removed (None: none given).
        uris: the caller's uris.
    """

    op: Verb
    ids: list[str]
    embeddings: Any
    record_set: Any
    metadatas: list[dict[str, Any] | None] | None
    documents: list[str | None] | None
    uris: list[Any] | None

    def with_documents(self, documents: list[str | None]) -> InsertRequest:
        """Return this request with other documents (the record set too, for embedding)."""
        record_set = dict(self.record_set)
        record_set["documents"] = documents
        return replace(self, documents=documents, record_set=record_set)

    def with_metadatas(self, metadatas: list[dict[str, Any] | None]) -> InsertRequest:
        """Return this request with other metadata patches."""
        return replace(self, metadatas=metadatas)

    def texts(self, text_key: str | None) -> list[str | None] | None:
        """Return the records' texts (None: keep the stored ones): documents, or text_key's.

        In a ``text_key`` store a record's text is ``metadata[text_key]``; a patch without
        that key keeps the stored text.
        """
        if text_key is None:
            return self.documents
        if self.metadatas is None:
            return None
        return [
            v if isinstance(v := (m or {}).get(text_key), str) else None for m in self.metadatas
        ]

    @property
    def embed_fields(self) -> frozenset[str] | None:
        """Return the fields chromadb embeds for this verb (None: its default)."""
        return None if self.op == "add" else frozenset({"documents", "images"})

    @property
    def needs_embedding(self) -> bool:
        """Return whether embeddings must be computed before the write."""
        if self.embeddings is not None:
            return False
        if self.op == "update":
            rs = self.record_set
            return rs["documents"] is not None or rs["images"] is not None
        return True


def insert_request(op: Verb, call: InsertArgs, *, max_batch: int) -> InsertRequest:
    """Validate an add, upsert or update as chromadb would, then nowline's rules.

    Raises:
        ValueError, TypeError: what chromadb raises for the same arguments.
        InvalidCorrection: a correction's deprecates or about is unusable.
    """

    @validation_context(op)
    def prepare(_: object) -> Any:
        records = normalize_insert_record_set(**as_kwargs(call))
        validate_insert_record_set(record_set=records)
        if op == "add":
            validate_record_set_contains_any(record_set=records, contains_any={"ids"})
        if records["embeddings"] is None:
            if op == "add":
                validate_record_set_for_embedding(record_set=records)
            elif op == "upsert" or (
                records["documents"] is not None or records["images"] is not None
            ):
                validate_record_set_for_embedding(
                    records, embeddable_fields={"documents", "images"}
                )
        validate_batch(
            (records["ids"], records["embeddings"], records["metadatas"], None, None),
            {"max_batch_size": max_batch},
        )
        return records

    records = prepare(None)
    metas = records["metadatas"]
    docs = records["documents"]
    clean = (
        [_clean_metadata(m, op, docs[i] if docs is not None else None) for i, m in enumerate(metas)]
        if metas is not None
        else None
    )
    return InsertRequest(
        op=op,
        ids=list(records["ids"]),
        embeddings=records["embeddings"],
        record_set=records,
        metadatas=clean,
        documents=list(docs) if docs is not None else None,
        uris=records["uris"],
    )


def _clean_metadata(meta: Metadata | None, op: Verb, text: str | None) -> dict[str, Any] | None:
    """Copy a caller's metadata: drop nowline's keys, absorb Chroma quirks, check our keys.

    nowline's keys are recomputed, never taken from callers (a ``query()`` result written
    back carries them). A None value means "no value" in ``add`` (chromadb would fail on it)
    and "remove the key" in ``update`` and ``upsert``, as in chromadb.
    """
    if meta is None:
        return None
    out: dict[str, Any] = {}
    for key, value in meta.items():
        if key.startswith(R.PREFIX):
            continue
        if value is None and op == "add":
            continue
        out[key] = value
    if out.get(R.OBSERVED_AT) is not None:
        to_epoch(out[R.OBSERVED_AT])
    if out.get(R.DEPRECATES) is not None:
        out[R.DEPRECATES] = list(parse_deprecates(out[R.DEPRECATES]))
    if out.get(R.DEPRECATES) is not None:
        for key, parse in ((R.ABOUT, parse_about), (R.REPLACED_BY, parse_replaced_by)):
            if out.get(key) is not None:
                out[key] = list(parse(out[key])) or None
        if out.get(R.REPLACED_BY) is not None or text:
            settled = values_settled(out[R.DEPRECATES], out.get(R.REPLACED_BY) or (), text)
            out[R.DEPRECATES] = list(settled.deprecates)
            if out.get(R.REPLACED_BY) is not None:
                out[R.REPLACED_BY] = list(settled.replaced_by) or None
        if out.get(R.ABOUT) is not None:
            kept, _ = anchors_kept(out[R.DEPRECATES], out[R.ABOUT], text)
            out[R.ABOUT] = list(kept) or None
        for key in (R.ABOUT, R.REPLACED_BY):
            if key in out and out[key] is None and op == "add":
                del out[key]
    return out


@dataclass(frozen=True)
class QueryRequest:
    """A validated query: embeddings to compute or given, and chromadb's request fields."""

    embeddings: Any
    record_set: Any
    ids: list[str] | None
    n_results: int
    where: Where | None
    where_document: WhereDocument | None
    include: list[str]


def query_request(call: QueryArgs) -> QueryRequest:
    """Validate a query as chromadb would (without embedding; that is the caller's step)."""
    include, n_results = call.include, call.n_results
    where, where_document = call.where, call.where_document

    @validation_context("query")
    def prepare(_: object) -> QueryRequest:
        records = normalize_base_record_set(
            embeddings=call.query_embeddings,
            documents=call.query_texts,
            images=call.query_images,
            uris=call.query_uris,
        )
        filter_ids = maybe_cast_one_to_many(call.ids)
        filters = {"where": where, "where_document": where_document}
        validate_base_record_set(record_set=records)
        validate_filter_set(filter_set=cast(Any, filters))
        validate_include(include=include)
        validate_n_results(n_results=n_results)
        if records["embeddings"] is None:
            validate_record_set_for_embedding(record_set=records)
        wanted: list[str] = list(include)
        if "data" in wanted and "uris" not in wanted:
            wanted.append("uris")
        return QueryRequest(
            embeddings=records["embeddings"],
            record_set=records,
            ids=filter_ids,
            n_results=n_results,
            where=where,
            where_document=where_document,
            include=wanted,
        )

    return prepare(None)


def get_request(call: GetArgs, *, has_data_loader: bool) -> tuple[list[str] | None, list[str]]:
    """Validate a get as chromadb would; return the ids and the include to send."""
    chroma_range(call.limit, "limit")
    chroma_range(call.offset, "offset")
    include = call.include

    @validation_context("get")
    def prepare(_: object) -> tuple[list[str] | None, list[str]]:
        unpacked = maybe_cast_one_to_many(target=call.ids)
        from chromadb.api.types import validate_ids

        if unpacked is not None:
            validate_ids(ids=unpacked)
        validate_filter_set(
            filter_set=cast(Any, {"where": call.where, "where_document": call.where_document})
        )
        validate_include(include=include, dissalowed=["distances"])
        if "data" in include and not has_data_loader:
            raise ValueError("You must set a data loader on the collection if loading from URIs.")
        wanted: list[str] = list(include)
        if "data" in wanted and "uris" not in wanted:
            wanted.append("uris")
        return unpacked, wanted

    return prepare(None)
